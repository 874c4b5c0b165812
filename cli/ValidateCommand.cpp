#include "cli/ValidateCommand.hpp"

#include <fstream>
#include <iostream>
#include <map>
#include <thread>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "common/JsonFile.hpp"
#include "common/SimError.hpp"
#include "cli/CommandLine.hpp"
#include "cli/GeneratedPage.hpp"
#include "cli/ShippedFiles.hpp"
#include "experiments/SweepTable.hpp"
#include "experiments/ValidationReport.hpp"
#include "experiments/ValidationStudy.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using nlohmann::json;

namespace gpusim {

int cmdValidate(const std::vector<std::string>& args) {
    std::string studiesFile = "validation/studies.json", outDir = "validation-results", docFile = "docs/validation.md",
                chartDir;
    std::vector<std::string> only;
    unsigned parallel = std::max(1u, std::thread::hardware_concurrency());
    po::options_description d("gpusim validate options");
    d.add_options()("studies", po::value(&studiesFile)->value_name("FILE")->default_value(studiesFile),
                    "the studies (validation/studies.json)")(
        "out,o", po::value(&outDir)->value_name("DIR")->default_value(outDir),
        "where the sweeps' results go (kept: reruns resume)")(
        "doc", po::value(&docFile)->value_name("FILE")->default_value(docFile), "the Markdown page to write")(
        "charts", po::value(&chartDir)->value_name("DIR"),
        "directory of the SVG charts (default: DOC's directory/validation)")(
        "jobs,j", po::value(&parallel)->value_name("N")->default_value(parallel), "simulations run at the same time")(
        "only", po::value(&only)->value_name("ID")->composing(), "run and report only this study id (repeatable)")(
        "no-run", "run nothing: render from the results already in --out")("help,h", "show these options");
    const auto vm = parseCommandLine(d, args);
    if (vm.count("help")) {
        std::cout << helpText("usage: gpusim validate [-j N] [--out DIR] [--doc FILE] [--only ID]...",
                              "Run the validation studies against the papers and write their page (docs/validation.md).",
                              d);
        return 0;
    }
    if (parallel == 0) throw InputError("--jobs: must be at least 1");
    if (vm["studies"].defaulted()) studiesFile = shippedFile(studiesFile).string();
    const validation::Studies all = validation::loadStudies(studiesFile);
    std::vector<const validation::Study*> chosen;
    for (const auto& s : all.studies)
        if (only.empty() || std::find(only.begin(), only.end(), s.id) != only.end()) chosen.push_back(&s);
    for (const auto& id : only)
        if (std::none_of(all.studies.begin(), all.studies.end(), [&](const auto& s) { return s.id == id; }))
            throw InputError("--only: '" + id + "' is not a study of " + studiesFile);
    const fs::path doc(docFile);
    const fs::path charts = chartDir.empty() ? doc.parent_path() / "validation" : fs::path(chartDir);
    const std::string chartLink = linkFrom(doc, charts);

    // Each spec once, even when several studies use it; its results go to OUT/<spec stem>.
    std::vector<fs::path> specs;
    std::map<fs::path, fs::path> outOf;
    for (const auto* s : chosen)
        for (const auto& ref : s->sweeps) {
            const fs::path spec = all.specPath(ref);
            if (!fs::exists(spec)) throw InputError(studiesFile + ": study " + s->id + ": spec " + spec.string() + " not found");
            if (outOf.count(spec)) continue;
            specs.push_back(spec);
            outOf[spec] = fs::path(outDir) / spec.stem();
        }
    if (!vm.count("no-run")) {
        for (size_t i = 0; i < specs.size(); ++i) {
            std::cout << "gpusim validate: sweep " << i + 1 << "/" << specs.size() << ": " << specs[i].string() << "\n";
            if (!runSweepResumed(specs[i], outOf[specs[i]], parallel, "validate")) return 130;
        }
    }

    // Results, jobs and CPU time.
    std::map<fs::path, json> results;
    validation::PageInfo info;
    info.date = todayUtc();
    info.version = GPUSIM_VERSION;
    info.command = "gpusim validate";
    for (const auto& a : args) info.command += " " + a;
    for (const auto& spec : specs) {
        const fs::path file = outOf[spec] / "results.json";
        std::ifstream in(file);
        if (!in) throw InputError(file.string() + ": no results (run without --no-run first)");
        json r = parseJsonStream(in, file.string());
        for (const auto& row : r.value("rows", json::array())) {
            ++info.jobs;
            if (row.value("status", std::string()) != "ok") continue;
            ++info.jobsOk;
            const json job = sweep::readResult(outOf[spec], row.value("id", std::string()));
            if (job.is_object() && job.contains("host_seconds") && job["host_seconds"].is_number())
                info.hostSeconds += job["host_seconds"].get<double>();
        }
        results[spec] = std::move(r);
    }

    std::vector<validation::StudySection> sections;
    fs::create_directories(charts);
    for (const auto* s : chosen) {
        std::vector<json> docs;
        std::vector<std::string> names;
        for (const auto& ref : s->sweeps) {
            docs.push_back(results[all.specPath(ref)]);
            // As the studies' folder names it (validation/oaws.json), wherever it is installed.
            names.push_back(fs::relative(fs::absolute(all.specPath(ref)), fs::absolute(all.file).parent_path().parent_path())
                                .generic_string());
        }
        const validation::StudyData data = validation::mergeResults(*s, docs);
        std::string notes;
        if (!s->notesFile.empty()) {
            const fs::path n = all.file.parent_path() / s->notesFile;
            if (!fs::exists(n)) throw InputError(studiesFile + ": study " + s->id + ": notes " + n.string() + " not found");
            notes = readTextFile(n);
        }
        sections.push_back(validation::renderStudy(*s, data, chartLink, names, notes));
        for (const auto& c : sections.back().charts) sweep::writeAtomically(charts / c.name, c.svg + "\n");
    }
    const fs::path preambleFile = all.file.parent_path() / "preamble.md";
    const std::string preamble = fs::exists(preambleFile) ? readTextFile(preambleFile) : "";
    if (!doc.parent_path().empty()) fs::create_directories(doc.parent_path());
    sweep::writeAtomically(doc, validation::renderPage(info, sections, preamble));
    std::cout << "gpusim validate: " << info.jobs << " simulations, " << info.jobsOk << " ok; wrote " << doc.string()
              << " and " << sections.size() << " studies' charts in " << charts.string() << "\n";
    return info.jobsOk == info.jobs ? 0 : 1;
}

} // namespace gpusim
