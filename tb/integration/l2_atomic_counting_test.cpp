// How the L2's atomic lookups are counted, on gtx480 (sectored L2, 32-B sectors; the SM sends one
// atomic request per 32-B segment and lanes on one address as separate requests; a warp that
// issued an atomic waits for all of its answers, sm.atomic_blocks_warp, so each instruction's
// lookups come after the previous one's answers). One CTA of one warp runs, hand-written in the
// tracer's version-5 layout:
//
//   #1 RED  A + 4*lane        one 128-B line, 4 segments: 4 requests, each a sector miss (cold)
//   #2 RED  A + 4*lane        the same 4 sectors, now present:       4 hits
//   #3 RED  B + 128*lane      32 lines, one sector each:             32 misses
//   #4 RED  A (every lane)    32 requests on one address, present:   32 hits
//   #5 LDG  C + 4*lane        a data read of a new line: 4 sector read misses
//   #6 EXIT
//
// Atomic lookups 4 + 4 + 32 + 32 = 72 (36 hits, 36 misses); data reads 4 (all misses). Counted
// as the reference counts them (every atomic a read access): 76 read accesses, 40 misses.
#include <gtest/gtest.h>

#include <string>

#include "experiments/Correlation.hpp"
#include "platforms/RunSummary.hpp"
#include "tb/common/GpuTestBench.hpp"
#include "tb/common/ProcessRunner.hpp"

namespace l2_atomic_counting_test {

using namespace gpusim;
using namespace gpusim::tb;

namespace {

const char* const kTrace = R"(-kernel name = atomics
-kernel id = 1
-grid dim = (1,1,1)
-block dim = (32,1,1)
-shmem = 0
-nregs = 8
-binary version = 70
-cuda stream id = 0
-shmem base_addr = 0x00007f1000000000
-local mem base_addr = 0x00007f1100000000
-nvbit version = 1.5.5
-accelsim tracer version = 5
-enable lineinfo = 0

#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses] immediate

#BEGIN_TB

thread block = 0,0,0

warp = 0
insts = 6
0000 ffffffff 0 RED.E.ADD.STRONG.GPU 2 R2 R3 4 1 0x7f2000000000 4 0
0010 ffffffff 0 RED.E.ADD.STRONG.GPU 2 R2 R3 4 1 0x7f2000000000 4 0
0020 ffffffff 0 RED.E.ADD.STRONG.GPU 2 R4 R3 4 1 0x7f2000100000 128 0
0030 ffffffff 0 RED.E.ADD.STRONG.GPU 2 R2 R3 4 1 0x7f2000000000 0 0
0040 ffffffff 1 R5 LDG.E 1 R6 4 1 0x7f2000200000 4 0
0050 ffffffff 0 EXIT 0 0 0

#END_TB
)";

} // namespace

TEST(L2AtomicCounting, AtomicLookupsCountAsReadAccessesWhereTheReferenceCountsThem) {
    ScratchDir d;
    writeFile(d / "kernel-1.traceg", kTrace);
    writeFile(d / "kernelslist.g", "kernel-1.traceg\n");
    GpuTestBench b("gto", "trace:" + d.path().string(), {}, "gtx480");
    const RunResult r = b.run();
    EXPECT_EQ(r.instructions, 6u);

    // The slices' own counters: atomics apart from the data reads.
    EXPECT_EQ(b.sum("l2.", ".atomics"), 72u);
    EXPECT_EQ(b.sum("l2.", ".atomic_hits"), 36u);
    EXPECT_EQ(b.sum("l2.", ".atomic_misses"), 36u);
    EXPECT_EQ(b.sum("l2.", ".read_hits"), 0u);
    EXPECT_EQ(b.sum("l2.", ".read_misses"), 4u);

    // `gpusim correlate`'s figures: every atomic lookup a read access.
    const nlohmann::json doc{{"config", {{"sm.clock_mhz", 700}}}, {"stats", b.stats.toJson()}};
    const correlation::Figures f = correlation::figuresFromStats(doc, "run");
    EXPECT_DOUBLE_EQ(f.l2ReadAccesses, 76);
    EXPECT_DOUBLE_EQ(f.l2ReadMisses, 40);

    // The run summary keeps the data reads' rate under its name and gives the reference's apart.
    const RunRecord rec{b.cfg, b.policy, *b.workload, b.stats, b.gpu->dispatcher(), r, 1};
    const nlohmann::json s = summaryOf(rec);
    EXPECT_DOUBLE_EQ(s["l2_read_hit_rate"].get<double>(), 0.0);                    // 0 of 4
    EXPECT_DOUBLE_EQ(s["l2_read_hit_rate_with_atomics"].get<double>(), 36.0 / 76);  // 36 of 76
}

} // namespace l2_atomic_counting_test
