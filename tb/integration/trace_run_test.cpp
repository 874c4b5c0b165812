// Whole-GPU runs of Accel-Sim traces on fermi15 with a TLM protocol checker on every link.
// tb/data/traces/small (see its README.md) is two kernels written out by hand, so every count
// below follows from its lines:
//
//   kernel 1 (kernel-1.traceg, v5): grid 2 x block 64 = 2 CTAs x 2 warps; each warp 13 lines:
//     S2R, IMAD, LDG a[t] (mode 1, 32 consecutive floats: 1 line), LDG b[32t] (mode 2, lanes
//     128 B apart: 32 lines), LDG.E.64 c (mode 0, 4 lanes: 2 lines), FFMA, STG (mode 1: 1 line),
//     BAR.SYNC, MUFU.RCP, FOO.BAR (not in the opcode table: ALU, reported), EXIT lanes 0-15
//     (not last: ALU), LDS (shared), EXIT lanes 16-31.
//   kernel 2 (kernel-2.traceg.xz, v3): 1 CTA x 1 warp: S2R, LDG (mode 1: 1 line), EXIT.
//   Warp instructions: 4 x 13 + 3 = 55. Global read lines: 4 x (1 + 32 + 2) + 1 = 141, all
//   distinct (each warp's a, b and c lines are its own), so 141 L1D read misses and 0 hits;
//   writes 4; line accesses 145; NoC requests 141 reads + 4 writes = 145; shared ops 4.
#include <gtest/gtest.h>

#include <string>

#include "common/SimError.hpp"
#include "tb/common/GpuTestBench.hpp"
#include "tb/common/ProcessRunner.hpp"

namespace trace_run_test {

using namespace gpusim;
using namespace gpusim::tb;

namespace {

const std::string kSmall = std::string("trace:") + GPUSIM_SOURCE_DIR + "/tb/data/traces/small";

void expectCleanEnd(const GpuTestBench& b) {
    const unsigned links = b.numSms() + 2 * b.numPartitions();
    EXPECT_EQ(b.checkers.size(), links) << "a checker on every link";
    EXPECT_EQ(b.checkers.violationCount(), 0u) << b.checkers.report();
    EXPECT_EQ(b.checkers.openTransactions(), 0u) << b.checkers.report();
    EXPECT_EQ(b.gpu->pool().outstanding(), 0u);
    EXPECT_TRUE(b.gpu->dispatcher().done());
}

} // namespace

TEST(TraceRun, SmallTraceDirectoryRunsToTheEndWithHandCountedTraffic) {
    GpuTestBench b("gto", kSmall);
    const RunResult r = b.run();
    expectCleanEnd(b);
    EXPECT_EQ(r.instructions, 55u);
    EXPECT_EQ(b.sum("sm", ".issued"), 55u);
    EXPECT_EQ(b.stat("kernel0.ctas"), 2u);
    EXPECT_EQ(b.stat("kernel1.ctas"), 1u);
    EXPECT_EQ(b.sum("sm", ".l1d.read_misses"), 141u);
    EXPECT_EQ(b.sum("sm", ".l1d.read_hits"), 0u);
    EXPECT_EQ(b.sum("sm", ".l1d.writes"), 4u);
    EXPECT_EQ(b.sum("sm", ".ldst.line_accesses"), 145u);
    EXPECT_EQ(b.sum("sm", ".ldst.shared_ops"), 4u);
    EXPECT_EQ(b.stat("noc.req.packets"), 145u);
    const nlohmann::json rep = b.workload->report();
    EXPECT_EQ(rep["unknown_opcodes"]["FOO"], 4);
    EXPECT_EQ(rep["warps_without_exit"], 0);
    EXPECT_EQ(rep["memcpy_htod"].size(), 3u);
}

TEST(TraceRun, MalformedSectionFoundDuringTheRunIsKeptAsInputError) {
    // Block 1 of kernel 1 gets a bad hex address: the header is fine, so the workload loads and
    // the error surfaces only when the dispatcher places CTA 1, inside the simulation.
    ScratchDir d;
    std::string text = readFile(std::string(GPUSIM_SOURCE_DIR) + "/tb/data/traces/small/kernel-1.traceg");
    const size_t tb1 = text.find("thread block = 1,0,0");
    const size_t at = text.find("0x7f2a10000", tb1);
    text.replace(at, 13, "0xZZ");
    writeFile(d / "kernel-1.traceg", text);
    writeFile(d / "kernelslist.g", "kernel-1.traceg\n");
    unsigned line = 1;
    for (size_t i = 0; i < at; ++i) line += text[i] == '\n';
    GpuTestBench b("gto", "trace:" + d.path().string());
    // Gpu::run gives it back as the InputError the reader raised, not SystemC's sc_report.
    try {
        b.run();
        FAIL() << "the run did not fail";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  (d / "kernel-1.traceg").string() + ":" + std::to_string(line) + ": bad hex base address '0xZZ0'");
    }
}

} // namespace trace_run_test
