#include "cli/ReportCommand.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "common/JsonFile.hpp"
#include "common/SimError.hpp"
#include "cli/CommandLine.hpp"
#include "experiments/RunReport.hpp"
#include "experiments/SweepReport.hpp"
#include "experiments/Subprocess.hpp"
#include "experiments/SweepTable.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using nlohmann::json;

namespace gpusim {

namespace {

// The program's path from $PATH (Subprocess runs by path, without a search), or empty.
std::string findInPath(const std::string& program) {
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    for (std::string d; std::getline(dirs, d, ':');) {
        if (d.empty()) d = ".";
        const fs::path p = fs::path(d) / program;
        if (::access(p.c_str(), X_OK) == 0 && !fs::is_directory(p)) return p.string();
    }
    return "";
}

} // namespace

int cmdReport(const std::vector<std::string>& args) {
    std::string results, outDir, baseline, title;
    std::vector<std::string> stats;
    po::options_description d("gpusim report options");
    d.add_options()("results", po::value(&results)->value_name("RESULTS"),
                    "a sweep's output directory or its results.json, or one run's statistics file (its time series)")(
        "out,o", po::value(&outDir)->value_name("DIR"),
        "where to write report.html and the charts (default: RESULTS' directory/report)")(
        "baseline", po::value(&baseline)->value_name("SCHEDULER"),
        "scheduler IPC is normalised to (default: gto if swept, else the first)")(
        "stat", po::value(&stats)->value_name("NAME")->composing(), "also chart this statistic column (repeatable)")(
        "title", po::value(&title)->value_name("TEXT"), "the page's title (default: Sweep NAME)")(
        "png", "also write NAME.png per chart (needs rsvg-convert, Debian package librsvg2-bin)")(
        "help,h", "show these options");
    po::positional_options_description pos;
    pos.add("results", 1);
    const auto vm = parseCommandLine(d, args, &pos);
    if (vm.count("help")) {
        std::cout << helpText("usage: gpusim report RESULTS [--out DIR] [--baseline SCHEDULER] [--stat NAME]... "
                              "[--title T] [--png]",
                              "Charts and an HTML page of a sweep's results table (docs/sweeps.md).", d);
        return 0;
    }
    if (results.empty()) throw InputError("report: expected a sweep's output directory or its results.json");
    fs::path file = results;
    if (fs::is_directory(file)) file /= "results.json";
    std::ifstream in(file);
    if (!in) throw InputError(file.string() + ": cannot open (not a sweep output directory or results.json?)");
    const json doc = parseJsonStream(in, file.string());
    // Before anything is written: a --png without the converter fails at once.
    std::string rsvg;
    if (vm.count("png")) {
        rsvg = findInPath("rsvg-convert");
        if (rsvg.empty())
            throw InputError("--png: rsvg-convert not found on PATH (install the Debian package librsvg2-bin)");
    }

    report::SweepReportOptions o;
    o.source = file.string();
    o.baseline = baseline;
    o.stats = stats;
    o.title = title;
    // A run's statistics file (gpusim run --stats) gets the run's page: its time series.
    const bool oneRun = doc.is_object() && doc.contains("stats");
    const report::SweepReport r = oneRun ? report::buildRunReport(doc, o.source) : report::buildSweepReport(doc, o);

    const fs::path out = outDir.empty() ? file.parent_path() / "report" : fs::path(outDir);
    std::error_code ec;
    fs::create_directories(out, ec);
    if (!fs::is_directory(out)) throw InputError("--out " + out.string() + ": cannot create the directory");
    try {
        for (const auto& c : r.charts) sweep::writeAtomically(out / (c.name + ".svg"), c.svg);
        sweep::writeAtomically(out / "report.html", r.html);
    } catch (const std::exception& e) {
        throw InputError("--out " + out.string() + ": cannot write (" + e.what() + ")");
    }
    if (!rsvg.empty()) {
        std::vector<ProcessJob> jobs;
        for (const auto& c : r.charts) {
            const std::string stem = (out / c.name).string();
            jobs.push_back({{rsvg, "-f", "png", "-o", stem + ".png", stem + ".svg"}, "/dev/null", stem + ".png.err"});
        }
        std::vector<std::string> failed;
        runJobs(jobs, 2, [&](size_t i, const ProcessOutcome& oc) {
            const fs::path err = jobs[i].stderrPath;
            if (oc.status != 0) failed.push_back(r.charts[i].name + ".svg: exit " + std::to_string(oc.status) + ": " + lastLineOf(err));
            else fs::remove(err, ec);
        });
        if (!failed.empty()) throw std::runtime_error("--png: rsvg-convert failed on " + failed.front());
    }
    for (const auto& n : r.notes) std::cout << "note: " << n << "\n";
    std::cout << "report: " << (out / "report.html").string() << " (" << r.charts.size() << " charts"
              << (rsvg.empty() ? "" : ", SVG and PNG") << ")\n";
    return 0;
}

} // namespace gpusim
