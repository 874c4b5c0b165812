// The OAWS paper's headline direction (its Figs. 8 and 9) on our fermi15 model with small
// PolyBench ATAX, BICG and MVT: oaws-dyn and swl:2 against gto, each run as the gpusim CLI with
// --stats; the test prints every run's summary (with the LD/ST stall breakdown).
//
// What holds here (n = 256; measured when this test was written, with fermi15's FR-FCFS GDDR5
// controller and with the ideal memory: same directions; docs/schedulers.md has the table):
//  - oaws-dyn: higher IPC than gto and fewer LDST_MSHR stall cycles, on all three.
//  - swl:2: fewer LDST_MSHR stall cycles, and a faster divergent kernel, on all three.
//  - swl:2 over the whole run: LOWER IPC than gto, against the paper's direction. Each of these
//    benchmarks pairs the divergent kernel with a coherent one, and with n = 256 an SM holds
//    one CTA, 8 warps: limited to 2 warps, the coherent (streaming, latency-bound) kernel runs
//    about 4x slower, which outweighs the divergent kernel's gain. The paper names this effect
//    ("SWL-Best's performance gains in divergent kernels are balanced out by the existence of
//    coherent kernels"); in its runs the divergent kernels dominate. The check below asserts what
//    is true today; if it starts failing, the model changed (e.g. DRAM bandwidth making gto's
//    thrashing costlier): update the comment and docs/schedulers.md rather than the policy.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/common/ProcessRunner.hpp"

using namespace gpusim::tb;
using nlohmann::json;

namespace {

struct Run {
    double ipc = 0, mshr = 0;
    std::vector<uint64_t> kernelCycles;
};

Run runPolicy(const ScratchDir& dir, const std::string& workload, const std::string& scheduler) {
    const auto stats = (dir / (scheduler + ".json")).string();
    const std::vector<std::string> args = {"run", "--platform", "fermi15", "--scheduler", scheduler,
                                           "--workload", workload, "--stats", stats};
    const ProcessResult r = runGpusim(args);
    EXPECT_EQ(r.status, 0) << commandLine(args) << "\n" << r.err;
    std::cout << r.out << std::flush;
    Run run;
    const json j = json::parse(readFile(stats), nullptr, false);
    if (j.is_discarded()) {
        ADD_FAILURE() << stats << " is not JSON";
        return run;
    }
    run.ipc = j["summary"]["ipc"].get<double>();
    run.mshr = j["summary"]["ldst_stalls"]["LDST_MSHR"].get<double>();
    // The printed summary carries the stall breakdown, and the JSON summary adds up the per-SM
    // statistics.
    for (const char* line : {"LDST_COAL", "LDST_MSHR", "LDST_ICNT", "schedulers on LD/ST", "load occlusion",
                             "fully cached loads", "L1D read miss rate"})
        EXPECT_NE(r.out.find(line), std::string::npos) << line << " missing from the summary:\n" << r.out;
    double mshr = 0, coal = 0;
    for (const auto& [k, v] : j["stats"].items()) {
        if (k.find(".l1d.mshr_stall_cycles") != std::string::npos) mshr += v.get<double>();
        if (k.find(".ldst.coalescing_stall_cycles") != std::string::npos) coal += v.get<double>();
    }
    EXPECT_EQ(run.mshr, mshr);
    EXPECT_EQ(j["summary"]["ldst_stalls"]["LDST_COAL"].get<double>(), coal);
    for (const auto& k : j["kernels"]) run.kernelCycles.push_back(k["end_cycle"].get<uint64_t>() - k["start_cycle"].get<uint64_t>());
    return run;
}

bool workloadExists(const std::string& name) {
    const ProcessResult r = runGpusim({"list", "workloads"});
    return r.status == 0 && r.out.find("\n" + name + "  ") != std::string::npos;
}

// `divergent`: index of the kernel whose big load is uncoalesced (32 lines per warp access).
void checkDirection(const std::string& name, unsigned divergent) {
    if (name != "atax" && !workloadExists(name)) GTEST_SKIP() << name << " is not in the workload registry";
    ScratchDir dir;
    const std::string wl = name + ":n=256";
    const Run gto = runPolicy(dir, wl, "gto");
    const Run swl = runPolicy(dir, wl, "swl:2");
    const Run dyn = runPolicy(dir, wl, "oaws-dyn");
    ASSERT_EQ(gto.kernelCycles.size(), 2u);
    ASSERT_EQ(swl.kernelCycles.size(), 2u);
    std::cout << name << ": IPC gto " << gto.ipc << ", swl:2 " << swl.ipc << ", oaws-dyn " << dyn.ipc
              << "; LDST_MSHR gto " << gto.mshr << ", swl:2 " << swl.mshr << ", oaws-dyn " << dyn.mshr
              << "; divergent kernel cycles gto " << gto.kernelCycles[divergent] << ", swl:2 "
              << swl.kernelCycles[divergent] << ", oaws-dyn " << dyn.kernelCycles[divergent] << "\n";

    // The paper's direction.
    EXPECT_GT(dyn.ipc, gto.ipc) << name;
    EXPECT_LT(dyn.mshr, gto.mshr) << name;
    EXPECT_LT(swl.mshr, gto.mshr) << name;
    EXPECT_LT(swl.kernelCycles[divergent], gto.kernelCycles[divergent]) << name << ": swl:2 on the divergent kernel";
    // Against the paper's direction, for the reason given at the top of the file.
    EXPECT_LT(swl.ipc, gto.ipc) << name << ": swl:2 is now faster than gto over the whole run; the model "
                                           "changed, update this test's comment and docs/schedulers.md";
}

} // namespace

TEST(SchedulerOawsDirection, Atax) { checkDirection("atax", 0); }
TEST(SchedulerOawsDirection, Bicg) { checkDirection("bicg", 1); }
TEST(SchedulerOawsDirection, Mvt) { checkDirection("mvt", 0); }
