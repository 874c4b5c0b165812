#include "cli/Cli.hpp"

#include <unistd.h>

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <boost/program_options.hpp>
#include <systemc>

#include "common/SimError.hpp"
#include "common/Spelling.hpp"
#include "platforms/Gpu.hpp"
#include "platforms/PlatformFiles.hpp"
#include "platforms/RunSummary.hpp"
#include "platforms/Schema.hpp"
#include "cli/BenchCommand.hpp"
#include "cli/CommandLine.hpp"
#include "cli/NocCommand.hpp"
#include "cli/RegressCommand.hpp"
#include "cli/ReportCommand.hpp"
#include "cli/SweepCommand.hpp"
#include "platforms/TlmTracer.hpp"
#include "cli/TraceCommand.hpp"
#include "cli/CorrelateCommand.hpp"
#include "cli/DiffCommand.hpp"
#include "cli/StatsCommand.hpp"
#include "cli/ValidateCommand.hpp"
#include "platforms/WarpTraceWriter.hpp"
#include "scheduler/PolicyRegistry.hpp"
#include "workloads/Workload.hpp"

namespace po = boost::program_options;

namespace gpusim {

namespace {

const char* kUsage =
    "usage: gpusim <command> [options]\n"
    "commands:\n"
    "  run      simulate a workload on a platform (defaults: fermi15, gto, atax)\n"
    "  list     platforms | schedulers | workloads\n"
    "  config   print the resolved configuration of a platform, or --reference for every parameter\n"
    "  trace    export --workload NAME[:k=v,...] --out DIR: write a workload as an Accel-Sim trace\n"
    "  noc      synthetic traffic on the interconnect: --topology, --pattern, --rate, --sweep, --soak\n"
    "  regress  run the regression matrix and compare every statistic with the goldens (--bless)\n"
    "  sweep    SPEC: run a design-space sweep in parallel (or as a Slurm job array: --slurm) and collect one results table\n"
    "  report   RESULTS: charts and an HTML page of a sweep's results table (normalised IPC, stalls, ...)\n"
    "  validate the validation report against the papers (docs/validation.md): runs its sweeps, writes the page\n"
    "  correlate our figures against Accel-Sim's on its GTX480, kernel by kernel (docs/correlation.md)\n"
    "  stats    FILE.json: every statistic of a run with its description and unit, GPU-wide totals first\n"
    "  diff     A.json B.json [--threshold 1%]: the statistics that differ, largest relative change first\n"
    "  bench    simulation speed and peak memory of a fixed suite (--callgrind: host instructions)\n"
    "  help     this text; `gpusim help <command>` (or `gpusim <command> --help`) for a command's options\n"
    "options:\n"
    "  --version  print the version (" GPUSIM_VERSION ")\n"
    "  --help     this text\n";

// The commands, for the message naming an unknown one (and its nearest).
const std::vector<std::string> kCommands = {"run",    "list",     "config",    "trace", "noc",  "regress", "sweep",
                                            "report", "validate", "correlate", "stats", "diff", "bench",   "help"};

struct ConfigOptions {
    std::string platform = "fermi15";
    std::vector<std::string> sets;
};

void addConfigOptions(po::options_description& d, ConfigOptions& c) {
    d.add_options()("platform,p", po::value(&c.platform)->value_name("NAME|FILE")->default_value(c.platform),
                    "platform name (see `gpusim list platforms`) or JSON file")(
        "set", po::value(&c.sets)->value_name("KEY=VALUE")->composing(),
        "override a parameter: --set key=value (repeatable)");
}

void loadConfig(Config& cfg, const ConfigOptions& c) {
    cfg.setBaseResolver(resolvePlatform);
    cfg.loadFile(resolvePlatform(c.platform));
    for (const auto& s : c.sets) cfg.setFromString(s);
    cfg.validate();
}

// --threads: more threads than any platform has SMs is a typo, not a wish.
constexpr int kMaxThreads = 256;

int cmdRun(const std::vector<std::string>& args) {
    ConfigOptions co;
    std::string scheduler = "gto", workload = "atax", statsPath, statsTextPath, traceTlmPath, traceWarpsPath,
                traceWindow, traceSms, progress = "auto";
    std::vector<std::string> plugins;
    int64_t maxCycles = 0, sampleInterval = 0;
    uint64_t seed = 1;
    int threads = 1;
    double progressInterval = 10;
    po::options_description d("gpusim run options");
    addConfigOptions(d, co);
    addPluginOption(d, plugins);
    d.add_options()("scheduler,s", po::value(&scheduler)->value_name("NAME[:k=v,...]")->default_value(scheduler),
                    "warp scheduler NAME[:k=v,...] (see `gpusim list schedulers`)")(
        "workload,w", po::value(&workload)->value_name("NAME[:k=v,...]")->default_value(workload),
        "workload NAME[:k=v,...] (see `gpusim list workloads`)")(
        "stats", po::value(&statsPath)->value_name("FILE"),
        "write every statistic and the configuration as JSON to this file")(
        "stats-text", po::value(&statsTextPath)->value_name("FILE"),
        "write every statistic as text to this file (as gpusim stats prints it)")(
        "trace-tlm", po::value(&traceTlmPath)->value_name("FILE"),
        "write every TLM phase on every link to this file: CSV, or Perfetto JSON for a .json name; .gz: gzip "
        "(docs/user-guide.md, Tracing)")(
        "trace-warps", po::value(&traceWarpsPath)->value_name("FILE"),
        "write warp issue, stalls and loads per SM as Chrome/Perfetto trace JSON to this file (.gz: gzip)")(
        "trace-window", po::value(&traceWindow)->value_name("FROM:TO"),
        "trace only core cycles FROM:TO (FROM included, TO excluded; FROM: to the end)")(
        "trace-sms", po::value(&traceSms)->value_name("LIST"), "trace only these SMs: ids and ranges, e.g. 0,3-5")(
        "max-cycles", po::value(&maxCycles)->value_name("CYCLES")->default_value(0),
        "stop after this many core cycles (0: run to the end)")(
        "sample-interval", po::value(&sampleInterval)->value_name("CYCLES")->default_value(0),
        "record IPC, miss rates, DRAM and NoC figures every CYCLES core cycles in the statistics (0: off)")(
        "seed", po::value(&seed)->value_name("N")->default_value(seed), "seed for workloads with random data")(
        "threads", po::value(&threads)->value_name("N")->default_value(threads),
        "threads stepping the SMs of each core cycle (the same statistics at any count; docs/performance.md)")(
        "progress", po::value(&progress)->value_name("MODE")->default_value(progress),
        "progress display on stderr: bar, plain (a line every --progress-interval), none, or auto: a bar "
        "on a terminal (after 2 s), else plain lines; none with --quiet")(
        "progress-interval", po::value(&progressInterval)->value_name("SECONDS")->default_value(progressInterval),
        "seconds of host time between plain progress lines, the first after one interval (0.01 to 86400)")(
        "quiet,q", "no summary (and no progress display unless --progress is given)")("help,h", "show these options");
    auto vm = parseCommandLine(d, args);
    if (vm.count("help")) {
        std::cout << helpText("usage: gpusim run [options]",
                              "Simulate a workload on a platform and print a summary (defaults: fermi15, gto, atax).",
                              d);
        return 0;
    }
    const bool quiet = vm.count("quiet") > 0;
    if (maxCycles < 0) throw InputError("--max-cycles: " + std::to_string(maxCycles) + " is negative");
    if (sampleInterval < 0) throw InputError("--sample-interval: " + std::to_string(sampleInterval) + " is negative");
    if (threads < 1 || threads > kMaxThreads)
        throw InputError("--threads: " + std::to_string(threads) + " is not in 1.." + std::to_string(kMaxThreads));
    if (!(progressInterval >= 0.01 && progressInterval <= 86400)) {
        std::ostringstream v;
        v << progressInterval;
        throw InputError("--progress-interval: " + v.str() + " is not in 0.01..86400 seconds");
    }
    ProgressMode display = ProgressMode::None;
    if (progress != "auto") display = progressModeFrom(progress, "--progress");
    else if (!quiet) display = isatty(STDERR_FILENO) ? ProgressMode::Bar : ProgressMode::Plain;

    loadPlugins(plugins);
    Config cfg(gpuSchema());
    loadConfig(cfg, co);
    PolicyChoice policy = PolicyRegistry::builtin().parse(scheduler);
    std::unique_ptr<Workload> wl = WorkloadRegistry::builtin().create(workload, seed);
    std::ofstream statsOut;
    if (!statsPath.empty()) {
        statsOut.open(statsPath);
        if (!statsOut) throw InputError("--stats: " + statsPath + ": cannot open for writing");
    }
    std::ofstream statsTextOut;
    if (!statsTextPath.empty()) {
        statsTextOut.open(statsTextPath);
        if (!statsTextOut) throw InputError("--stats-text: " + statsTextPath + ": cannot open for writing");
    }

    // Tracing is opt-in: without the flags no interposer is spliced in and the SMs have no sink.
    if ((!traceWindow.empty() || !traceSms.empty()) && traceTlmPath.empty() && traceWarpsPath.empty())
        throw InputError(std::string(traceWindow.empty() ? "--trace-sms" : "--trace-window") +
                         ": needs --trace-tlm or --trace-warps");
    const unsigned numSms = static_cast<unsigned>(cfg.getInt("gpu.num_sms"));
    const TraceFilter traceFilter = TraceFilter::parse(traceWindow, traceSms, numSms);
    const auto corePeriodPs = static_cast<uint64_t>(periodOf(cfg.getDouble("sm.clock_mhz")).value());
    std::unique_ptr<TlmTraceFile> tlmTrace;
    if (!traceTlmPath.empty())
        tlmTrace = std::make_unique<TlmTraceFile>(traceTlmPath, "--trace-tlm", traceFilter, corePeriodPs);
    std::unique_ptr<WarpTraceWriter> warpTrace;
    if (!traceWarpsPath.empty())
        warpTrace = std::make_unique<WarpTraceWriter>(traceWarpsPath, "--trace-warps", numSms,
                                                      static_cast<unsigned>(cfg.getInt("sm.max_warps")), corePeriodPs,
                                                      traceFilter);
    GpuOptions gopt;
    gopt.warpTrace = warpTrace.get();
    gopt.threads = static_cast<unsigned>(threads);

    StatRegistry stats;
    Gpu gpu("gpu", cfg, policy, *wl, stats, tlmTrace ? tlmTrace->hook() : LinkHook{}, gopt);
    if (!gpu.serialReason().empty())
        std::cerr << "gpusim run: --threads " << threads << ": the SMs step on one thread: " << gpu.serialReason() << "\n";
    Gpu::RunOptions ro;
    ro.maxCycles = static_cast<uint64_t>(maxCycles);
    ro.progress = display;
    ro.progressIntervalSeconds = progressInterval;
    // The observers only a statistics file shows.
    const bool writesStats = statsOut.is_open() || !statsTextPath.empty();
    std::unique_ptr<StatSampler> sampler;
    if (sampleInterval > 0) {
        if (!writesStats) throw InputError("--sample-interval: the time series goes into --stats or --stats-text");
        const GpuParams gp = GpuParams::from(cfg);
        StatSamplerParams sp;
        sp.intervalCycles = static_cast<uint64_t>(sampleInterval);
        sp.coreClockMhz = gp.coreClockMhz;
        sp.dramBurstBytes = gp.memory.model == MemoryModel::FrFcfs ? gp.memory.dram.timing.burstBytes() : 0;
        sampler = std::make_unique<StatSampler>(stats, gpu.smViews(), sp);
        ro.sampler = sampler.get();
    }
    std::unique_ptr<KernelStatWindows> kernelWindows;
    if (writesStats) {
        kernelWindows = std::make_unique<KernelStatWindows>(stats);
        ro.kernelWindows = kernelWindows.get();
    }
    // A malformed trace section read inside the simulation comes out as InputError (exit 2).
    const RunResult result = gpu.run(ro);
    if (warpTrace) warpTrace->close();
    if (tlmTrace) tlmTrace->close();
    RunRecord rec{cfg, policy, *wl, stats, gpu.dispatcher(), result, seed, sampler.get(), kernelWindows.get()};
    const nlohmann::json wlReport = wl->report();
    if (wlReport.is_object() && wlReport.contains("warnings"))
        for (const auto& w : wlReport["warnings"]) std::cerr << "gpusim: warning: " << w.get<std::string>() << "\n";
    if (statsOut.is_open()) {
        statsOut << reportText(rec, wlReport) << "\n";
    }
    if (statsTextOut.is_open()) statsTextOut << statsText(reportJson(rec), "this run");
    if (!quiet) std::cout << summaryText(rec);
    return 0;
}

[[noreturn]] void badListSubject(const std::string& what) {
    throw InputError("list: expected platforms, schedulers or workloads" +
                     (what.empty() ? std::string()
                                   : ", got '" + what + "'" + didYouMean(what, {"platforms", "schedulers", "workloads"})));
}

// `gpusim list WHAT --json`: what the listing shows, as data. Platforms: [{name, description}];
// schedulers: [{name, description, origin, params: [{name, default, min, max, integer,
// description}]}]; workloads: [{name, description, class, source, params: [...]}] followed by the
// argument workloads [{name, usage, description}].
nlohmann::json listJson(const std::string& what) {
    nlohmann::json out = nlohmann::json::array();
    if (what == "platforms") {
        for (const auto& [name, desc] : listPlatforms()) out.push_back({{"name", name}, {"description", desc}});
    } else if (what == "schedulers") {
        for (const PolicyInfo& p : PolicyRegistry::builtin().all()) {
            nlohmann::json params = nlohmann::json::array();
            for (const PolicyParam& q : p.params)
                params.push_back({{"name", q.name}, {"default", q.defaultValue}, {"min", q.min}, {"max", q.max},
                                  {"integer", q.integer}, {"description", q.description}});
            out.push_back({{"name", p.name}, {"description", p.description}, {"origin", p.origin}, {"params", params}});
        }
    } else if (what == "workloads") {
        for (const WorkloadInfo& w : WorkloadRegistry::builtin().all()) {
            nlohmann::json params = nlohmann::json::array();
            for (const WorkloadParam& q : w.params)
                params.push_back({{"name", q.name}, {"default", q.defaultValue}, {"min", q.min}, {"max", q.max},
                                  {"integer", true}, {"description", q.description}});
            out.push_back({{"name", w.name}, {"description", w.description}, {"class", toString(w.workloadClass)},
                           {"source", w.source}, {"params", params}});
        }
        for (const ArgumentWorkloadInfo& a : WorkloadRegistry::builtin().argumentWorkloads())
            out.push_back({{"name", a.name}, {"usage", a.usage}, {"description", a.description}});
    } else {
        badListSubject(what);
    }
    return out;
}

// `gpusim config --reference --json`: every parameter declaration (name, type, default, unit,
// range or choices, description), sorted by name.
nlohmann::json schemaJson(const ParamSchema& schema) {
    static const char* const kTypes[] = {"integer", "number", "boolean", "string", "enum"};
    nlohmann::json out = nlohmann::json::array();
    for (const auto& [name, d] : schema.all()) {
        nlohmann::json j = {{"name", name}, {"type", kTypes[static_cast<int>(d.type)]}, {"default", d.defaultValue},
                            {"unit", d.unit}, {"description", d.description}};
        if (d.type == ParamType::Int || d.type == ParamType::Double) {
            j["min"] = d.min;
            j["max"] = d.max;
        }
        if (d.type == ParamType::Enum) j["choices"] = d.choices;
        out.push_back(std::move(j));
    }
    return out;
}

int cmdList(const std::vector<std::string>& args) {
    std::string what;
    std::vector<std::string> plugins;
    po::options_description d("gpusim list options");
    d.add_options()("what", po::value(&what)->value_name("WHAT"), "platforms | schedulers | workloads")(
        "json", "print JSON (for programs: the Python module gpusim)")("help,h", "show these options");
    addPluginOption(d, plugins);
    po::positional_options_description pos;
    pos.add("what", 1);
    auto vm = parseCommandLine(d, args, &pos);
    if (vm.count("help")) {
        std::cout << helpText("usage: gpusim list platforms|schedulers|workloads [--json] [--plugin LIB]...",
                              "List the platforms, the warp schedulers or the workloads, with their parameters.", d);
        return 0;
    }
    loadPlugins(plugins);
    if (vm.count("json")) {
        std::cout << listJson(what).dump(2) << "\n";
        return 0;
    }
    if (what == "platforms") {
        for (const auto& [name, desc] : listPlatforms()) std::cout << name << "  " << desc << "\n";
    } else if (what == "schedulers") {
        std::cout << PolicyRegistry::builtin().listing();
    } else if (what == "workloads") {
        std::cout << WorkloadRegistry::builtin().listing();
    } else {
        badListSubject(what);
    }
    return 0;
}

int cmdConfig(const std::vector<std::string>& args) {
    ConfigOptions co;
    po::options_description d("gpusim config options");
    addConfigOptions(d, co);
    d.add_options()("reference", "print the configuration reference (Markdown) generated from the declarations")(
        "json", "with --reference: the declarations as JSON (name, type, default, unit, range, description)")(
        "help,h", "show these options");
    auto vm = parseCommandLine(d, args);
    if (vm.count("help")) {
        std::cout << helpText("usage: gpusim config [--platform NAME|FILE] [--set KEY=VALUE]...\n"
                              "       gpusim config --reference [--json]",
                              "Print a platform's resolved configuration as JSON, or the reference of every parameter.",
                              d);
        return 0;
    }
    if (vm.count("json") && !vm.count("reference")) throw InputError("config: --json goes with --reference");
    if (vm.count("reference")) {
        if (vm.count("json")) {
            std::cout << schemaJson(gpuSchema()).dump(2) << "\n";
            return 0;
        }
        std::cout << gpuSchema().markdown();
        return 0;
    }
    Config cfg(gpuSchema());
    loadConfig(cfg, co);
    nlohmann::json out = {{"platform", cfg.platformName()}, {"params", cfg.toJson()}};
    std::cout << out.dump(2) << "\n";
    return 0;
}

} // namespace

int cliMain(int argc, char** argv) {
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    std::vector<std::string> args(argv + 1, argv + argc);
    // A bare `gpusim` is a command line without its command: the usage on stderr, exit 2.
    if (args.empty()) {
        std::cerr << kUsage;
        return 2;
    }
    // `gpusim help CMD` is `gpusim CMD --help`.
    if (args[0] == "help" && args.size() > 1) args = {args[1], "--help"};
    if (args[0] == "help" || args[0] == "--help" || args[0] == "-h") {
        std::cout << kUsage;
        return 0;
    }
    if (args[0] == "--version") {
        std::cout << "gpusim " << GPUSIM_VERSION << "\n";
        return 0;
    }
    const std::string cmd = args[0];
    args.erase(args.begin());
    try {
        if (cmd == "run") return cmdRun(args);
        if (cmd == "list") return cmdList(args);
        if (cmd == "config") return cmdConfig(args);
        if (cmd == "trace") return cmdTrace(args);
        if (cmd == "noc") return cmdNoc(args);
        if (cmd == "regress") return cmdRegress(args);
        if (cmd == "bench") return cmdBench(args);
        if (cmd == "sweep") return cmdSweep(args);
        if (cmd == "report") return cmdReport(args);
        if (cmd == "validate") return cmdValidate(args);
        if (cmd == "correlate") return cmdCorrelate(args);
        if (cmd == "stats") return cmdStats(args);
        if (cmd == "diff") return cmdDiff(args);
        std::string names;
        for (const auto& c : kCommands) names += (names.empty() ? "" : ", ") + c;
        throw InputError("unknown command '" + cmd + "'" + didYouMean(cmd, kCommands) + " (expected " + names +
                         "; see gpusim help)");
    } catch (const InputError& e) {
        std::cerr << "gpusim: error: " << e.what() << "\n";
        return 2;
    } catch (const ModelError& e) {
        std::cerr << "gpusim: model error: " << e.what() << "\n";
        return 3;
    } catch (const sc_core::sc_report& e) {  // from a simulation outside Gpu::run
        std::cerr << "gpusim: model error: " << simulationErrorMessage(e) << "\n";
        return 3;
    } catch (const std::exception& e) {
        std::cerr << "gpusim: internal error: " << e.what() << "\n";
        return 3;
    }
}

} // namespace gpusim
