#include "cli/TraceCommand.hpp"

#include <cstdint>
#include <iostream>

#include <boost/program_options.hpp>

#include "common/SimError.hpp"
#include "common/Spelling.hpp"
#include "cli/CommandLine.hpp"
#include "workloads/Workload.hpp"
#include "workloads/trace/TraceWriter.hpp"

namespace po = boost::program_options;

namespace gpusim {

namespace {

const char* kTraceUsage =
    "usage: gpusim trace export --workload NAME[:k=v,...] --out DIR [--seed N] [--xz]\n"
    "Writes the workload's kernels as an Accel-Sim trace (tracer version 5): DIR/kernelslist.g and\n"
    "DIR/kernel-N.traceg, readable again with --workload trace:DIR.\n";

int cmdExport(const std::vector<std::string>& args) {
    std::string workload, out;
    uint64_t seed = 1;
    po::options_description d("gpusim trace export options");
    d.add_options()("workload,w", po::value(&workload)->value_name("NAME[:k=v,...]"),
                    "workload NAME[:k=v,...] (see `gpusim list workloads`)")(
        "out,o", po::value(&out)->value_name("DIR"),
        "directory to write (created if missing; its trace files are overwritten)")(
        "seed", po::value(&seed)->value_name("N")->default_value(seed), "seed for workloads with random data")(
        "xz", "compress the kernel files (kernel-N.traceg.xz)")("help,h", "show these options");
    const po::variables_map vm = parseCommandLine(d, args);
    if (vm.count("help")) {
        std::cout << helpText(kTraceUsage, "", d);
        return 0;
    }
    if (workload.empty()) throw InputError("trace export: --workload is required");
    if (out.empty()) throw InputError("trace export: --out is required");
    const auto wl = WorkloadRegistry::builtin().create(workload, seed);
    TraceExportOptions opt;
    opt.xz = vm.count("xz") > 0;
    const TraceExportSummary s = exportTrace(*wl, out, opt);
    std::cout << "wrote " << s.files.front() << ": " << s.files.size() - 1 << " kernels, " << s.warps << " warps, "
              << s.instructions << " warp instructions\n";
    return 0;
}

} // namespace

int cmdTrace(const std::vector<std::string>& args) {
    // Without its subcommand the command line is incomplete: the usage on stderr, exit 2.
    if (args.empty()) {
        std::cerr << kTraceUsage;
        return 2;
    }
    if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::cout << kTraceUsage;
        return 0;
    }
    if (args[0] == "export") return cmdExport(std::vector<std::string>(args.begin() + 1, args.end()));
    throw InputError("trace: unknown subcommand '" + args[0] + "'" + didYouMean(args[0], {"export"}) +
                     " (expected export)");
}

} // namespace gpusim
