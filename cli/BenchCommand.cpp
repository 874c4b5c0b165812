#include "cli/BenchCommand.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <regex>
#include <sstream>

#include <boost/program_options.hpp>
#include <nlohmann/json.hpp>

#include "common/SimError.hpp"
#include "cli/CommandLine.hpp"
#include "experiments/Subprocess.hpp"

namespace po = boost::program_options;
namespace fs = std::filesystem;
using nlohmann::json;

namespace gpusim {

namespace {

enum class Kind { Streaming, Divergent, Atax, Trace };

struct BenchCase {
    std::string platform;
    Kind kind;
    std::string workload;  // trace cases: the built-in workload exported as the trace
};

const char* kindName(Kind k) {
    switch (k) {
    case Kind::Streaming: return "streaming";
    case Kind::Divergent: return "divergent";
    case Kind::Atax: return "atax";
    case Kind::Trace: return "trace";
    }
    return "";
}

// Issue 10's targets in warp instructions per CPU second on fermi15 (fermi30: half of them).
double target(const BenchCase& c) {
    const double full = c.kind == Kind::Streaming ? 750000 : c.kind == Kind::Divergent ? 90000 : 0;
    return c.platform == "fermi30" ? full / 2 : full;
}

// Sizes: "full" take 10-60 s each at the speed of the model when the suite was written;
// "quick" a fraction of a second (to check the command); "callgrind" a few seconds natively,
// a few minutes under callgrind.
std::vector<BenchCase> suite(const std::string& size) {
    struct Sizes {
        const char *streaming, *divergent, *atax, *trace;
    };
    const Sizes s = size == "quick"       ? Sizes{"vectoradd:n=16384", "spmv:rows=1024", "atax:n=64", "bicg:n=64"}
                    : size == "callgrind" ? Sizes{"vectoradd:n=262144", "spmv:rows=4096", "atax:n=256", "bicg:n=256"}
                                          : Sizes{"vectoradd:n=4194304", "spmv:rows=65536", "atax:n=2048", "bicg:n=1024"};
    std::vector<BenchCase> out;
    for (const char* p : {"fermi15", "fermi30"}) {
        out.push_back({p, Kind::Streaming, s.streaming});
        out.push_back({p, Kind::Divergent, s.divergent});
        out.push_back({p, Kind::Atax, s.atax});
    }
    out.push_back({"fermi15", Kind::Trace, s.trace});
    return out;
}

uint64_t callgrindInstructions(const fs::path& errFile) {
    std::ifstream in(errFile);
    static const std::regex re(R"(Collected\s*:\s*(\d+))");
    std::smatch m;
    uint64_t n = 0;
    for (std::string l; std::getline(in, l);)
        if (std::regex_search(l, m, re)) n = std::stoull(m[1].str());
    return n;
}

} // namespace

int cmdBench(const std::vector<std::string>& args) {
    std::string size = "full", jsonPath, filter;
    po::options_description d("gpusim bench options");
    d.add_options()("size", po::value(&size)->value_name("full|quick|callgrind")->default_value(size),
                    "full (10-60 s per case), quick (seconds in all; checks the command) or callgrind")(
        "callgrind", "run under valgrind --tool=callgrind (callgrind sizes unless --size is given) and report "
                     "host instructions per warp instruction")(
        "json", po::value(&jsonPath)->value_name("FILE"), "also write the results as JSON to this file")(
        "filter", po::value(&filter)->value_name("TEXT"),
        "only cases whose name contains this text")("help,h", "show these options");
    const po::variables_map vm = parseCommandLine(d, args);
    if (vm.count("help")) {
        std::cout << helpText("usage: gpusim bench [--size full|quick|callgrind] [--callgrind] [--json FILE] "
                              "[--filter TEXT]",
                              "Simulation speed and peak memory of a fixed suite of runs.", d);
        return 0;
    }
    const bool callgrind = vm.count("callgrind") > 0;
    if (callgrind && vm["size"].defaulted()) size = "callgrind";
    if (size != "full" && size != "quick" && size != "callgrind")
        throw InputError("--size: '" + size + "' is not one of full, quick, callgrind");
    if (callgrind && access("/usr/bin/valgrind", X_OK) != 0)
        throw InputError("--callgrind: /usr/bin/valgrind not found (Debian package valgrind)");

    const JobDirectory jobDir("gpusim-bench");
    const fs::path& work = jobDir.path();
    const std::string self = selfExecutable();

    std::vector<BenchCase> cases;
    for (const auto& c : suite(size)) {
        const std::string name = c.platform + " " + kindName(c.kind) + " " + c.workload;
        if (filter.empty() || name.find(filter) != std::string::npos) cases.push_back(c);
    }
    if (cases.empty()) throw InputError("--filter: '" + filter + "' matches no bench case");

    json rows = json::array();
    std::cout << std::left << std::setw(48) << "case" << std::right << std::setw(11) << "cycles" << std::setw(11)
              << "warp_insts" << std::setw(9) << "cpu_s" << std::setw(11) << "cycles/s" << std::setw(11)
              << "insts/s" << std::setw(9) << "peak_MiB" << std::setw(10) << "target"
              << (callgrind ? "  host_instr/warp_inst" : "") << "\n";
    int failures = 0;
    for (size_t i = 0; i < cases.size(); ++i) {
        const BenchCase& c = cases[i];
        std::string workload = c.workload;
        const std::string id = std::to_string(i);
        if (c.kind == Kind::Trace) {
            // Export the built-in kernel as an Accel-Sim trace first (not timed).
            const fs::path dir = work / ("trace" + id);
            ProcessOutcome o;
            runJobs({{{self, "trace", "export", "--workload", c.workload, "--out", dir.string()},
                      (work / (id + ".export.out")).string(), (work / (id + ".export.err")).string()}},
                    1, [&](size_t, const ProcessOutcome& r) { o = r; });
            if (o.status != 0)
                throw ModelError("bench: trace export of " + c.workload + " failed: " + lastLineOf(work / (id + ".export.err")));
            workload = "trace:" + dir.string();
        }
        const std::string stats = (work / (id + ".json")).string();
        std::vector<std::string> argv = {self, "run", "--quiet", "--platform", c.platform, "--scheduler", "gto",
                                         "--workload", workload, "--stats", stats};
        if (callgrind)
            argv.insert(argv.begin(), {"/usr/bin/valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"});
        ProcessOutcome o;
        runJobs({{argv, (work / (id + ".out")).string(), (work / (id + ".err")).string()}}, 1,
                [&](size_t, const ProcessOutcome& r) { o = r; });
        const std::string name = c.platform + " " + kindName(c.kind) + " " + c.workload;
        if (o.status != 0) {
            std::cout << std::left << std::setw(48) << name << "  FAILED: exit " << o.status << ": "
                      << lastLineOf(work / (id + ".err")) << "\n";
            ++failures;
            continue;
        }
        std::ifstream in(stats);
        const json s = json::parse(in);
        const uint64_t cycles = s["stats"]["gpu.cycles"], insts = s["stats"]["gpu.warp_instructions"];
        const double cpu = std::max(o.cpuSeconds, 1e-6);
        json row = {{"case", name},
                    {"platform", c.platform},
                    {"kind", kindName(c.kind)},
                    {"workload", c.workload},
                    {"cycles", cycles},
                    {"warp_instructions", insts},
                    {"cpu_seconds", o.cpuSeconds},
                    {"wall_seconds", o.seconds},
                    {"cycles_per_second", cycles / cpu},
                    {"warp_instructions_per_second", insts / cpu},
                    {"peak_rss_mib", o.maxRssKiB / 1024.0}};
        std::ostringstream tgt;
        if (target(c) > 0) {
            row["target_warp_instructions_per_second"] = target(c);
            if (!callgrind) tgt << (insts / cpu >= target(c) ? "met" : "below");
        } else {
            tgt << "-";
        }
        std::cout << std::left << std::setw(48) << name << std::right << std::setw(11) << cycles << std::setw(11) << insts
                  << std::fixed << std::setprecision(2) << std::setw(9) << o.cpuSeconds << std::setprecision(0)
                  << std::setw(11) << cycles / cpu << std::setw(11) << insts / cpu << std::setprecision(1)
                  << std::setw(9) << o.maxRssKiB / 1024.0 << std::setw(10) << tgt.str();
        if (callgrind) {
            const uint64_t ir = callgrindInstructions(work / (id + ".err"));
            row["host_instructions"] = ir;
            row["host_instructions_per_warp_instruction"] = insts ? static_cast<double>(ir) / insts : 0.0;
            std::cout << std::setprecision(0) << std::setw(22) << (insts ? static_cast<double>(ir) / insts : 0.0);
        }
        std::cout << "\n" << std::flush;
        rows.push_back(row);
    }
    if (callgrind) std::cout << "(under callgrind: CPU times and rates are valgrind's, not the model's)\n";
    if (!jsonPath.empty()) {
        std::ofstream out(jsonPath);
        if (!out) throw InputError("--json: " + jsonPath + ": cannot write");
        out << json{{"size", size}, {"callgrind", callgrind}, {"cases", rows}}.dump(2) << "\n";
    }
    return failures ? 1 : 0;
}

} // namespace gpusim
