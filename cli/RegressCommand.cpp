#include "cli/RegressCommand.hpp"

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>
#include <thread>

#include <boost/program_options.hpp>

#include "common/JsonFile.hpp"
#include "common/SimError.hpp"
#include "cli/CommandLine.hpp"
#include "experiments/Subprocess.hpp"
#include "scheduler/PolicyRegistry.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using nlohmann::json;

namespace gpusim {
namespace regress {

namespace {

std::vector<std::string> stringList(const json& o, const char* key, const std::string& where) {
    if (!o.contains(key) || !o[key].is_array() || o[key].empty())
        throw InputError(where + ": " + key + ": expected a non-empty list of strings");
    std::vector<std::string> v;
    for (const auto& x : o[key]) {
        if (!x.is_string()) throw InputError(where + ": " + key + ": expected strings");
        v.push_back(x.get<std::string>());
    }
    return v;
}

void flattenInto(json& out, const std::string& name, const json& v) {
    if (v.is_object()) {
        for (const auto& [k, x] : v.items()) {
            if (k == "buckets" && x.is_array()) {
                // [[low, count], ...] -> NAME.bucket.LOW = count
                for (const auto& b : x) {
                    std::ostringstream key;
                    key << name << ".bucket." << b.at(0).get<double>();
                    flattenInto(out, key.str(), b.at(1));
                }
            } else {
                flattenInto(out, name + "." + k, x);
            }
        }
    } else if (v.is_number()) {
        if (v.get<double>() != 0) out[name] = v;
    } else if (!v.is_null()) {
        out[name] = v;
    }
}

bool equalValues(const json& a, const json& b) {
    if (a.is_number_integer() && b.is_number_integer()) return a == b;
    if (a.is_number() && b.is_number()) {
        const double x = a.get<double>(), y = b.get<double>();
        return x == y || std::fabs(x - y) <= 1e-9 * std::max(std::fabs(x), std::fabs(y));
    }
    return a == b;
}

} // namespace

std::string Case::id() const { return fileNameSafe(platform) + "__" + fileNameSafe(scheduler) + "__" + fileNameSafe(workload); }

std::vector<Case> expandMatrix(const json& doc, const std::string& matrix, const std::string& file,
                               const std::vector<std::string>& allSchedulers) {
    if (!doc.is_object() || !doc.contains(matrix) || !doc[matrix].is_array())
        throw InputError(file + ": " + matrix + ": expected a list of {platforms, schedulers, workloads} blocks");
    std::vector<Case> cases;
    std::set<std::string> seen;
    size_t block = 0;
    for (const auto& b : doc[matrix]) {
        const std::string where = file + ": " + matrix + "[" + std::to_string(block++) + "]";
        if (!b.is_object()) throw InputError(where + ": expected an object");
        for (const auto& [k, v] : b.items())
            if (k != "platforms" && k != "schedulers" && k != "workloads" && k != "comment")
                throw InputError(where + ": " + k + ": unknown key (expected platforms, schedulers, workloads)");
        std::vector<std::string> schedulers;
        for (const auto& s : stringList(b, "schedulers", where)) {
            if (s == "*")
                schedulers.insert(schedulers.end(), allSchedulers.begin(), allSchedulers.end());
            else
                schedulers.push_back(s);
        }
        for (const auto& p : stringList(b, "platforms", where))
            for (const auto& s : schedulers)
                for (const auto& w : stringList(b, "workloads", where)) {
                    Case c{p, s, w};
                    if (seen.insert(c.id()).second) cases.push_back(c);
                }
    }
    return cases;
}

json comparable(const json& statsDoc) {
    json out = json::object();
    for (const auto& [k, v] : statsDoc.at("stats").items()) flattenInto(out, k, v);
    if (statsDoc.contains("kernels")) {
        size_t i = 0;
        for (const auto& kernel : statsDoc["kernels"]) flattenInto(out, "kernel." + std::to_string(i++), kernel);
    }
    return out;
}

std::vector<Difference> compare(const json& golden, const json& now) {
    std::set<std::string> names;
    for (const auto& [k, v] : golden.items()) names.insert(k);
    for (const auto& [k, v] : now.items()) names.insert(k);
    std::vector<Difference> diffs;
    for (const auto& n : names) {
        const json g = golden.contains(n) ? golden[n] : json(), x = now.contains(n) ? now[n] : json();
        if (g.is_null() || x.is_null() ? g != x : !equalValues(g, x)) diffs.push_back({n, g, x});
    }
    return diffs;
}

} // namespace regress

namespace {

using regress::Case;
using regress::Difference;

std::string show(const json& v) {
    if (v.is_null()) return "0 (absent)";
    if (v.is_string()) return v.get<std::string>();
    return v.dump();
}

void printDiffs(std::ostream& os, const std::vector<Difference>& diffs, size_t limit) {
    size_t width = 0;
    for (size_t i = 0; i < diffs.size() && i < limit; ++i) width = std::max(width, diffs[i].name.size());
    for (size_t i = 0; i < diffs.size() && i < limit; ++i) {
        const auto& d = diffs[i];
        os << "        " << std::left << std::setw(static_cast<int>(width)) << d.name << "  " << show(d.golden)
           << " -> " << show(d.now);
        const double g = d.golden.is_number() ? d.golden.get<double>() : 0, x = d.now.is_number() ? d.now.get<double>() : 0;
        if ((d.golden.is_number() || d.golden.is_null()) && (d.now.is_number() || d.now.is_null()) && g != 0) {
            std::ostringstream pct;
            pct << std::showpos << std::fixed << std::setprecision(2) << 100.0 * (x - g) / std::fabs(g) << "%";
            os << "  (" << pct.str() << ")";
        }
        os << "\n";
    }
    if (diffs.size() > limit) os << "        ... and " << diffs.size() - limit << " more (--show-all)\n";
}

} // namespace

int cmdRegress(const std::vector<std::string>& args) {
    std::string dir = GPUSIM_SOURCE_DIR "/tb/regression", matrix = "default", filter;
    std::vector<std::string> plugins;
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    unsigned threads = 1;
    po::options_description d("gpusim regress options");
    d.add_options()("dir", po::value(&dir)->value_name("DIR")->default_value(dir),
                    "folder with matrix.json and golden/")(
        "matrix", po::value(&matrix)->value_name("NAME")->default_value(matrix),
        "matrix in matrix.json: default (CI) or full")(
        "filter", po::value(&filter)->value_name("TEXT"), "only cases whose id contains this text")(
        "jobs,j", po::value(&jobs)->value_name("N")->default_value(jobs), "runs in parallel")(
        "threads", po::value(&threads)->value_name("N")->default_value(threads),
        "each run's --threads (the goldens hold for any count: a check of the parallel mode)")(
        "bless", "rewrite the golden files from this build (review the printed changes before committing)")(
        "list", "print the case ids and exit")("show-all", "print every moved statistic, not the first 15")(
        "help,h", "show these options");
    addPluginOption(d, plugins);
    const po::variables_map vm = parseCommandLine(d, args);
    if (vm.count("help")) {
        std::cout << helpText("usage: gpusim regress [--matrix NAME] [--filter TEXT] [-j N] [--threads N] "
                              "[--bless] [--list]",
                              "Run the regression matrix and compare every statistic with the golden files.", d);
        return 0;
    }
    if (jobs == 0) throw InputError("--jobs: must be at least 1");
    if (threads == 0) throw InputError("--threads: must be at least 1");
    const bool bless = vm.count("bless") > 0;
    const fs::path root(dir), matrixFile = root / "matrix.json", goldenDir = root / "golden";
    std::ifstream in(matrixFile);
    if (!in) throw InputError("--dir: " + matrixFile.string() + ": cannot open (regress runs from a source checkout)");
    const json doc = parseJsonStream(in, matrixFile.string(), /*comments=*/true);

    // A plugin's policies join "*" and every case's run (docs/extending.md: a matrix of your own).
    const std::vector<std::string> pluginPaths = loadPlugins(plugins);
    std::vector<std::string> schedulers;
    for (const auto& i : PolicyRegistry::builtin().all()) schedulers.push_back(i.name);
    std::vector<Case> cases;
    for (const auto& c : regress::expandMatrix(doc, matrix, matrixFile.string(), schedulers))
        if (filter.empty() || c.id().find(filter) != std::string::npos) cases.push_back(c);
    if (cases.empty()) throw InputError("--filter: '" + filter + "' matches no case of matrix " + matrix);
    if (vm.count("list")) {
        for (const auto& c : cases) std::cout << c.id() << "  " << c.platform << " / " << c.scheduler << " / " << c.workload << "\n";
        return 0;
    }

    const JobDirectory jobDir("gpusim-regress");
    const fs::path& work = jobDir.path();

    const std::string self = selfExecutable();
    std::vector<ProcessJob> pj;
    for (const auto& c : cases) {
        const std::string base = (work / c.id()).string();
        std::vector<std::string> argv{self,        "run",       "--quiet",  "--platform", c.platform, "--scheduler",
                                      c.scheduler, "--workload", c.workload, "--stats",    base + ".json"};
        for (const auto& a : pluginArgs(pluginPaths)) argv.push_back(a);
        if (threads > 1) {
            argv.push_back("--threads");
            argv.push_back(std::to_string(threads));
        }
        pj.push_back({argv, base + ".out", base + ".err"});
    }
    std::cout << "gpusim regress: " << cases.size() << " cases of matrix '" << matrix << "' from " << matrixFile.string()
              << ", " << jobs << " at a time\n"
              << std::flush;
    std::vector<ProcessOutcome> outcomes(cases.size());
    size_t done = 0;
    const bool tty = isatty(2);
    runJobs(pj, jobs, [&](size_t i, const ProcessOutcome& o) {
        outcomes[i] = o;
        ++done;
        if (tty) std::cerr << "\r  " << done << "/" << cases.size() << " done" << std::flush;
    });
    if (tty) std::cerr << "\n";

    size_t ok = 0, differ = 0, failed = 0, missing = 0, changed = 0;
    const size_t limit = vm.count("show-all") ? SIZE_MAX : 15;
    const std::string version = GPUSIM_VERSION;
    for (size_t i = 0; i < cases.size(); ++i) {
        const Case& c = cases[i];
        const std::string label = c.platform + " / " + c.scheduler + " / " + c.workload;
        const fs::path statsPath = work / (c.id() + ".json"), golden = goldenDir / (c.id() + ".json");
        if (outcomes[i].status != 0) {
            ++failed;
            std::cout << "  FAIL  " << label << ": exit " << outcomes[i].status << ": "
                      << lastLineOf(work / (c.id() + ".err")) << "\n";
            continue;
        }
        std::ifstream sin(statsPath);
        const json now = regress::comparable(json::parse(sin));
        json old;
        bool have = false;
        if (std::ifstream gin(golden); gin) {
            old = parseJsonStream(gin, golden.string());
            if (!old.is_object() || !old.contains("stats"))
                throw InputError(golden.string() + ": not a golden file (expected {gpusim_version, case, stats})");
            have = true;
        }
        const auto diffs = have ? regress::compare(old["stats"], now) : std::vector<Difference>{};
        if (!have) {
            ++missing;
            std::cout << "  NEW   " << label << ": no golden " << golden.filename().string()
                      << (bless ? " (written)" : " (run gpusim regress --bless)") << "\n";
        } else if (diffs.empty()) {
            ++ok;
            if (!bless) std::cout << "  ok    " << label << "  (" << std::fixed << std::setprecision(1)
                                  << outcomes[i].seconds << " s)\n";
        } else {
            ++differ;
            std::cout << "  " << (bless ? "BLESS " : "DIFF  ") << label << ": " << diffs.size()
                      << " statistic" << (diffs.size() == 1 ? "" : "s") << " moved (golden -> now)";
            if (old.value("gpusim_version", "") != version)
                std::cout << "; golden from gpusim " << old.value("gpusim_version", "?") << ", this is " << version;
            std::cout << "\n";
            printDiffs(std::cout, diffs, limit);
        }
        if (bless && (!have || !diffs.empty())) {
            fs::create_directories(goldenDir);
            json g = {{"gpusim_version", version},
                      {"case", {{"platform", c.platform}, {"scheduler", c.scheduler}, {"workload", c.workload}, {"seed", 1}}},
                      {"stats", now}};
            std::ofstream(golden) << g.dump(1) << "\n";
            ++changed;
        }
    }
    // Goldens of no case in any matrix are left-overs of a renamed or removed case.
    if (filter.empty() && fs::is_directory(goldenDir)) {
        std::set<std::string> known;
        for (const auto& [name, m] : doc.items())
            if (m.is_array())
                for (const auto& c : regress::expandMatrix(doc, name, matrixFile.string(), schedulers)) known.insert(c.id());
        for (const auto& e : fs::directory_iterator(goldenDir))
            if (e.path().extension() == ".json" && !known.count(e.path().stem().string())) {
                std::cout << "  STALE " << e.path().filename().string() << ": in no matrix"
                          << (bless ? " (removed)" : " (gpusim regress --bless removes it)") << "\n";
                if (bless) fs::remove(e.path());
            }
    }
    std::cout << "summary: " << ok << " ok, " << differ << " differ, " << missing << " without golden, " << failed
              << " failed";
    if (bless) std::cout << "; " << changed << " golden file" << (changed == 1 ? "" : "s") << " written";
    std::cout << "\n";
    if (failed) return 1;
    return bless || (differ == 0 && missing == 0) ? 0 : 1;
}

} // namespace gpusim
