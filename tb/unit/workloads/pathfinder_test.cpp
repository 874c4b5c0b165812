// Expectations from Rodinia pathfinder.cu (dynproc_kernel and its host loop) and the modelled SASS
// in Pathfinder.cpp. The range arithmetic below is the source's, written out again here; per warp:
// 17 setup + (LD, STS if a lane's xidx is in range) + BAR; per step 2 ISETP + (9 for computed lanes)
// + BAR + ISETP, and except after the last step (2 for computed lanes) + BAR + 3 loop; then the
// result store pair if lanes computed in the last step, and EXIT.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "WorkloadTestHelpers.hpp"

namespace pathfinder_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

struct Ref {
    uint64_t instructions = 0, loads = 0, stores = 0, barriers = 0;
};

Ref expectWarp(int64_t cols, int64_t iteration, int64_t border, int64_t bx, int64_t w) {
    const int64_t small = 256 - iteration * 2;
    const int64_t blkX = small * bx - border, blkXmax = blkX + 255;
    const int64_t validXmin = blkX < 0 ? -blkX : 0;
    const int64_t validXmax = blkXmax > cols - 1 ? 255 - (blkXmax - cols + 1) : 255;
    auto any = [&](auto pred) {
        for (int64_t tx = 32 * w; tx < 32 * w + 32; ++tx)
            if (pred(tx)) return true;
        return false;
    };
    Ref r;
    r.instructions = 17;
    if (any([&](int64_t tx) { return blkX + tx >= 0 && blkX + tx <= cols - 1; })) {
        r.instructions += 2;
        r.loads += 1;
    }
    r.instructions += 1;
    r.barriers += 1;
    bool computed = false;
    for (int64_t i = 0; i < iteration; ++i) {
        r.instructions += 2;
        computed = any([&](int64_t tx) { return tx >= i + 1 && tx <= 256 - i - 2 && tx >= validXmin && tx <= validXmax; });
        if (computed) {
            r.instructions += 9;
            r.loads += 1;
        }
        r.instructions += 2;
        r.barriers += 1;
        if (i == iteration - 1) break;
        if (computed) r.instructions += 2;
        r.instructions += 4;
        r.barriers += 1;
    }
    if (computed) {
        r.instructions += 2;
        r.stores += 1;
    }
    r.instructions += 1;
    return r;
}

} // namespace

TEST(Pathfinder, LaunchesFollowTheHostLoop) {
    // rows 12, pyramid 5: t = 0, 5, 10 with iteration = 5, 5, 1.
    auto w = makeWorkload("pathfinder:cols=1000,rows=12,pyramid_height=5");
    ASSERT_EQ(w->kernels().size(), 3u);
    for (const auto& k : w->kernels()) {
        EXPECT_EQ(k->info().name, "dynproc_kernel");
        EXPECT_EQ(k->info().grid.x, 5u);  // ceil(1000 / (256 - 10))
        EXPECT_EQ(k->info().block.x, 256u);
        EXPECT_EQ(k->info().smemPerCta, 2048u);
        EXPECT_TRUE(wellFormed(*k));
    }
}

TEST(Pathfinder, CountsFollowTheSource) {
    const int64_t cols = 1000, pyramid = 5;
    auto w = makeWorkload("pathfinder:cols=1000,rows=12,pyramid_height=5");
    const int64_t iterations[3] = {5, 5, 1};
    for (int launch = 0; launch < 3; ++launch) {
        Ref total;
        for (int64_t bx = 0; bx < 5; ++bx)
            for (int64_t wp = 0; wp < 8; ++wp) {
                const Ref r = expectWarp(cols, iterations[launch], pyramid, bx, wp);
                total.instructions += r.instructions;
                total.loads += r.loads;
                total.stores += r.stores;
                total.barriers += r.barriers;
            }
        const Census c = census(*w->kernels()[launch]);
        EXPECT_EQ(c.instructions, total.instructions) << launch;
        EXPECT_EQ(c.globalLoads, total.loads) << launch;
        EXPECT_EQ(c.globalStores, total.stores) << launch;
        EXPECT_EQ(c.barriers, total.barriers) << launch;
    }
}

TEST(Pathfinder, ShrinkingMasksAndAddresses) {
    const int64_t cols = 1000;
    auto w = makeWorkload("pathfinder:cols=1000,rows=12,pyramid_height=5");
    // result[0], result[1] (4000 -> 4096 bytes each), wall (11 rows).
    const uint64_t res0 = 0x10000000, res1 = res0 + 4096, wall = res1 + 4096;
    // Launch 1 (t = 5) reads result[1] and writes result[0]; block 1, warp 0: blkX = 246 - 5 = 241.
    auto s = drain(*w->kernels()[1], 1, 0);
    EXPECT_EQ(s[17].addr[3], res1 + (241 + 3) * 4);
    // Step i computes tx in [i+1, 254-i]: lane 0 never, lane 1 from step 0 only.
    EXPECT_EQ(s[22].activeMask, 0xfffffffeu);  // step 0: LDS prev[W]
    EXPECT_EQ(s[28].op, OpClass::Load);
    EXPECT_EQ(s[28].addr[3], wall + (cols * 5 + 241 + 3) * 4);  // gpuWall[cols*(startStep+i) + xidx]
    // Lines: the 32 ints a warp reads from a row start at an arbitrary column.
    std::set<uint64_t> srcLines, wallLines;
    for (uint64_t tx = 0; tx < 32; ++tx) {
        srcLines.insert((res1 + (241 + tx) * 4) / 128);
        if (tx >= 1) wallLines.insert((wall + (cols * 5 + 241 + tx) * 4) / 128);
    }
    EXPECT_EQ(distinctLines(s[17]), srcLines.size());
    EXPECT_EQ(distinctLines(s[28]), wallLines.size());
    EXPECT_EQ(srcLines.size(), 2u);
    const auto& last = s[s.size() - 2];
    EXPECT_EQ(last.op, OpClass::Store);
    EXPECT_EQ(last.activeMask, 0xffffffe0u);  // after 5 steps, tx >= 5
    EXPECT_EQ(last.addr[7], res0 + (241 + 7) * 4);
}

TEST(Pathfinder, Deterministic) {
    const char* spec = "pathfinder:cols=700,rows=9,pyramid_height=3";
    EXPECT_TRUE(sameWorkload(*makeWorkload(spec, 1), *makeWorkload(spec, 1)));
}

} // namespace pathfinder_test
