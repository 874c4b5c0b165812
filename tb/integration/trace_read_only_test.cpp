// Constant and texture loads of a trace through the SM's constant and texture caches (issue 18),
// on a whole GPU with a TLM protocol checker on every link. The trace, written here by hand: one
// CTA of one warp (-binary version 70), 7 lines:
//   LDC R1      32 lanes at C (mode 1, stride 0): one access (broadcast)
//   LDC R2      lanes at C + 4 l (stride 4): 32 distinct addresses in 2 constant lines (64 B)
//   LDC R3      mem_width 0 (as Accel-Sim's tracer writes every LDC): runs as ALU
//   TEX R4      lanes at T + 4 l: one 128-B texture line
//   TLD R5      mem_width 0: ALU
//   FADD R6 <- R4, R2;  EXIT
// Counts: by address (fermi15's const.serialise) 1 + 32 = 33 constant accesses; the first misses
// (line C), the second load's 16 accesses to line C merge into that read, its first access to
// line C + 64 misses and the next 15 merge (the DRAM round trip is far longer than the 32
// cycles they take): 2 misses, 31 merges, 31 serialised cycles. By line (gtx480): 1 + 2
// accesses, 2 misses, 1 merge, 1 serialised cycle. The texture load: 1 access, 1 miss. NoC
// reads: 2 constant lines + 1 texture line; nothing through the L1D.
#include <gtest/gtest.h>

#include <string>

#include "tb/common/GpuTestBench.hpp"
#include "tb/common/ProcessRunner.hpp"

namespace trace_read_only_test {

using namespace gpusim;
using namespace gpusim::tb;

namespace {

const char* const kKernel = R"(-kernel name = read_only
-kernel id = 1
-grid dim = (1,1,1)
-block dim = (32,1,1)
-shmem = 0
-nregs = 16
-binary version = 70
-cuda stream id = 0
-accelsim tracer version = 5

#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate

#BEGIN_TB

thread block = 0,0,0

warp = 0
insts = 7
0000 ffffffff 1 R1 LDC 0 4 1 0x7f2a60000000 0 0
0010 ffffffff 1 R2 LDC.64 0 4 1 0x7f2a60000000 4 0
0020 ffffffff 1 R3 LDC 0 0 0
0030 ffffffff 1 R4 TEX.B.LL 1 R1 4 1 0x7f2a70000000 4 0
0040 ffffffff 1 R5 TLD.B.LZ 1 R1 0 0
0050 ffffffff 1 R6 FADD 2 R4 R2 0 0
0060 ffffffff 0 EXIT 0 0 0

#END_TB
)";

void run(const std::string& platform) {
    ScratchDir d;
    writeFile(d / "kernel-1.traceg", kKernel);
    writeFile(d / "kernelslist.g", "kernel-1.traceg\n");
    GpuTestBench b("gto", "trace:" + d.path().string(), {}, platform);
    b.run();
    const bool byLine = b.cfg.getString("const.serialise") == "line";
    EXPECT_EQ(b.checkers.violationCount(), 0u) << b.checkers.report();
    EXPECT_EQ(b.checkers.openTransactions(), 0u) << b.checkers.report();
    EXPECT_EQ(b.gpu->pool().outstanding(), 0u);
    EXPECT_TRUE(b.gpu->dispatcher().done());
    EXPECT_EQ(b.sum("sm", ".issued"), 7u);
    EXPECT_EQ(b.sum("sm", ".const.loads"), 2u);
    EXPECT_EQ(b.sum("sm", ".const.accesses"), byLine ? 3u : 33u);
    EXPECT_EQ(b.sum("sm", ".const.misses"), 2u);
    EXPECT_EQ(b.sum("sm", ".const.mshr_merges"), byLine ? 1u : 31u);
    EXPECT_EQ(b.sum("sm", ".const.hits"), 0u);
    EXPECT_EQ(b.sum("sm", ".const.fills"), 2u);
    EXPECT_EQ(b.sum("sm", ".const.serialised_cycles"), byLine ? 1u : 31u);
    EXPECT_EQ(b.sum("sm", ".tex.loads"), 1u);
    EXPECT_EQ(b.sum("sm", ".tex.accesses"), 1u);
    EXPECT_EQ(b.sum("sm", ".tex.misses"), 1u);
    EXPECT_EQ(b.sum("sm", ".tex.fills"), 1u);
    EXPECT_EQ(b.sum("sm", ".noc.reads"), 3u);
    EXPECT_EQ(b.sum("sm", ".ldst.line_accesses"), 0u);
    EXPECT_EQ(b.sum("sm", ".l1d.read_misses"), 0u);
    const nlohmann::json rep = b.workload->report();
    EXPECT_EQ(rep["read_only_loads"]["constant"], 2);
    EXPECT_EQ(rep["read_only_loads"]["texture"], 1);
    EXPECT_EQ(rep["read_only_loads"]["constant_without_addresses"], 1);
    EXPECT_EQ(rep["read_only_loads"]["texture_without_addresses"], 1);
}

} // namespace

TEST(TraceReadOnly, ConstantAndTextureLoadsGoThroughTheirCachesFermi15) { run("fermi15"); }
TEST(TraceReadOnly, ConstantAndTextureLoadsGoThroughTheirCachesGtx480) { run("gtx480"); }

} // namespace trace_read_only_test
