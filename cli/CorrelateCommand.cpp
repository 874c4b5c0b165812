#include "cli/CorrelateCommand.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "common/SimError.hpp"
#include "cli/CommandLine.hpp"
#include "cli/GeneratedPage.hpp"
#include "cli/ShippedFiles.hpp"
#include "experiments/Correlation.hpp"
#include "experiments/Subprocess.hpp"
#include "experiments/SweepSpec.hpp"
#include "experiments/SweepTable.hpp"
#include "workloads/Workload.hpp"
#include "workloads/trace/TraceWriter.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using nlohmann::json;

namespace gpusim {

int cmdCorrelate(const std::vector<std::string>& args) {
    std::string referenceFile = "validation/accelsim/accelsim-gtx480.json", platform = "gtx480",
                outDir = "correlation-results", docFile = "docs/correlation.md", chartDir, notesFile;
    std::vector<std::string> only;
    unsigned parallel = std::max(1u, std::thread::hardware_concurrency());
    po::options_description d("gpusim correlate options");
    d.add_options()("reference", po::value(&referenceFile)->value_name("FILE")->default_value(referenceFile),
                    "the reference figures (JSON rows: workload, export, cycles_700mhz, ...)")(
        "platform,p", po::value(&platform)->value_name("NAME|FILE")->default_value(platform),
        "platform name or JSON file to compare")(
        "jobs,j", po::value(&parallel)->value_name("N")->default_value(parallel), "simulations run at the same time")(
        "out,o", po::value(&outDir)->value_name("DIR")->default_value(outDir),
        "traces and results (kept: a rerun exports nothing again and runs only what is missing)")(
        "doc", po::value(&docFile)->value_name("FILE")->default_value(docFile),
        "the Markdown page to write ('-': none)")(
        "charts", po::value(&chartDir)->value_name("DIR"),
        "directory of the scatter plot (default: DOC's directory/correlation)")(
        "notes", po::value(&notesFile)->value_name("FILE"),
        "Markdown appended to the page (default: validation/notes/correlation.md when it exists)")(
        "only", po::value(&only)->value_name("ID")->composing(),
        "compare only this workload of the reference (repeatable)")(
        "no-run", "run nothing: compare the results already in --out")(
        "check", "exit 1 when a target (IPC error, Pearson r, miss rates) is missed")("help,h", "show these options");
    const auto vm = parseCommandLine(d, args);
    if (vm.count("help")) {
        std::cout << helpText("usage: gpusim correlate [--platform P] [-j N] [--out DIR] [--doc FILE] "
                              "[--only WORKLOAD]... "
                              "[--check]",
                              "Compare our figures with Accel-Sim's on its GTX480, kernel by kernel "
                              "(docs/correlation.md).",
                              d);
        return 0;
    }
    if (parallel == 0) throw InputError("--jobs: must be at least 1");
    if (vm.count("notes") && !fs::exists(notesFile)) throw InputError("--notes: " + notesFile + " not found");
    if (!vm.count("notes")) {
        const fs::path shipped = shippedFile("validation/notes/correlation.md");
        if (fs::exists(shipped)) notesFile = shipped.string();
    }
    if (vm["reference"].defaulted()) referenceFile = shippedFile(referenceFile).string();

    std::vector<correlation::ReferenceRow> rows = correlation::loadReference(referenceFile);
    for (const auto& w : only)
        if (std::none_of(rows.begin(), rows.end(), [&](const auto& r) { return r.workload == w; }))
            throw InputError("--only: '" + w + "' is not a workload of " + referenceFile);
    if (!only.empty())
        std::erase_if(rows, [&](const auto& r) { return std::find(only.begin(), only.end(), r.workload) == only.end(); });

    // One sweep per platform over the exported traces, ids in reference order.
    const fs::path out(outDir);
    const fs::path traces = out / "traces";
    const std::string platformTag = fileNameSafe(fs::path(platform).stem().string());
    const fs::path runs = out / platformTag;
    json spec = {{"name", "correlate-" + platformTag},
                 {"platforms", {platform}},
                 {"schedulers", {"gto"}},
                 {"workloads", json::array()}};
    for (const auto& r : rows) spec["workloads"].push_back("trace:" + (traces / fileNameSafe(r.workload)).string());
    const SweepSpec parsed = parseSweepSpec(spec, "correlate");
    const std::vector<SweepJob> jobs = expandSweep(parsed);

    if (!vm.count("no-run")) {
        for (const auto& r : rows) {
            const fs::path dir = traces / fileNameSafe(r.workload);
            if (fs::exists(dir / "kernelslist.g")) continue;
            std::cout << "gpusim correlate: exporting " << r.workload << "\n";
            const auto wl = WorkloadRegistry::builtin().create(r.workload, 1);
            exportTrace(*wl, dir.string(), TraceExportOptions{});
        }
        fs::create_directories(out);
        const fs::path specFile = out / (platformTag + ".sweep.json");
        sweep::writeAtomically(specFile, spec.dump(1) + "\n");
        if (!runSweepResumed(specFile, runs, parallel, "correlate")) return 130;
    }

    std::vector<correlation::Compared> compared(rows.size());
    correlation::PageInfo info;
    for (size_t i = 0; i < rows.size(); ++i) {
        compared[i].reference = &rows[i];
        const json doc = sweep::readResult(runs, jobs[i].id);
        if (doc.is_null()) {
            compared[i].error = sweep::whyNoResult(runs, jobs[i].id).error;
            continue;
        }
        const correlation::Figures f = correlation::figuresFromStats(doc, sweep::resultFile(runs, jobs[i].id).string());
        if (f.warpInstructions != rows[i].figures.warpInstructions) {
            compared[i].error = "ran " + std::to_string(f.warpInstructions) + " warp instructions, the reference " +
                                std::to_string(rows[i].figures.warpInstructions) + " (not the same trace)";
            continue;
        }
        compared[i].ours = f;
        if (doc.contains("host_seconds") && doc["host_seconds"].is_number()) info.hostSeconds += doc["host_seconds"].get<double>();
    }

    std::cout << correlation::renderText(compared);
    if (docFile != "-") {
        info.date = todayUtc();
        info.version = GPUSIM_VERSION;
        info.command = "gpusim correlate";
        for (const auto& a : args) info.command += " " + a;
        info.platform = platformTag;
        info.referenceFile = referenceFile;
        const fs::path doc(docFile);
        const fs::path charts = chartDir.empty() ? doc.parent_path() / "correlation" : fs::path(chartDir);
        const std::string chartLink = linkFrom(doc, charts);
        const correlation::Page page =
            correlation::renderPage(info, compared, chartLink, notesFile.empty() ? "" : readTextFile(notesFile));
        fs::create_directories(charts);
        if (!doc.parent_path().empty()) fs::create_directories(doc.parent_path());
        sweep::writeAtomically(charts / page.chartName, page.chartSvg + "\n");
        sweep::writeAtomically(doc, page.markdown);
        std::cout << "gpusim correlate: wrote " << doc.string() << " and " << (charts / page.chartName).string() << "\n";
    }
    const bool allRan = std::all_of(compared.begin(), compared.end(), [](const auto& c) { return c.ours.has_value(); });
    if (!allRan) return 1;
    return vm.count("check") && !correlation::summarise(compared).meets({}) ? 1 : 0;
}

} // namespace gpusim
