// Expectations from Rodinia hotspot.cu (calculate_temp and compute_tran_temp) and the modelled SASS
// in Hotspot.cpp. The ghost-zone arithmetic below is the source's, written out again; per warp
// (rows ty = 2w, 2w + 1): 31 setup + (4 loads/stores if a lane is in the grid) + BAR + 16 bounds;
// per step 4 ISETP + (29 for computed lanes) + BAR + ISETP, and except after the last step
// (2 for computed lanes) + BAR + 3 loop; the store pair if lanes computed in the last step; EXIT.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "WorkloadTestHelpers.hpp"

namespace hotspot_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

struct Ref {
    uint64_t instructions = 0, loads = 0, stores = 0, barriers = 0, sharedLoads = 0;
};

Ref expectWarp(int64_t n, int64_t iteration, int64_t border, int64_t bx, int64_t by, int64_t w) {
    const int64_t small = 16 - iteration * 2;
    const int64_t blkY = small * by - border, blkX = small * bx - border;
    const int64_t blkYmax = blkY + 15, blkXmax = blkX + 15;
    const int64_t validYmin = blkY < 0 ? -blkY : 0, validYmax = blkYmax > n - 1 ? 15 - (blkYmax - n + 1) : 15;
    const int64_t validXmin = blkX < 0 ? -blkX : 0, validXmax = blkXmax > n - 1 ? 15 - (blkXmax - n + 1) : 15;
    auto any = [&](auto pred) {
        for (int64_t ty = 2 * w; ty < 2 * w + 2; ++ty)
            for (int64_t tx = 0; tx < 16; ++tx)
                if (pred(ty, tx)) return true;
        return false;
    };
    Ref r;
    r.instructions = 31;
    if (any([&](int64_t ty, int64_t tx) {
            return blkY + ty >= 0 && blkY + ty <= n - 1 && blkX + tx >= 0 && blkX + tx <= n - 1;
        })) {
        r.instructions += 4;
        r.loads += 2;
    }
    r.instructions += 1 + 16;
    r.barriers += 1;
    bool computed = false;
    for (int64_t i = 0; i < iteration; ++i) {
        r.instructions += 4;
        computed = any([&](int64_t ty, int64_t tx) {
            return tx >= i + 1 && tx <= 16 - i - 2 && ty >= i + 1 && ty <= 16 - i - 2 && tx >= validXmin &&
                   tx <= validXmax && ty >= validYmin && ty <= validYmax;
        });
        if (computed) {
            r.instructions += 29;
            r.sharedLoads += 6;
        }
        r.instructions += 2;
        r.barriers += 1;
        if (i == iteration - 1) break;
        if (computed) {
            r.instructions += 2;
            r.sharedLoads += 1;
        }
        r.instructions += 4;
        r.barriers += 1;
    }
    if (computed) {
        r.instructions += 2;
        r.stores += 1;
        r.sharedLoads += 1;
    }
    r.instructions += 1;
    return r;
}

} // namespace

TEST(Hotspot, LaunchesFollowTheHostLoop) {
    // pyramid 3, 7 iterations: launches of 3, 3, 1 steps; small block 10 -> ceil(50 / 10) = 5.
    auto w = makeWorkload("hotspot:grid=50,pyramid_height=3,iterations=7");
    ASSERT_EQ(w->kernels().size(), 3u);
    for (const auto& k : w->kernels()) {
        EXPECT_EQ(k->info().name, "calculate_temp");
        EXPECT_EQ(k->info().grid.x, 5u);
        EXPECT_EQ(k->info().grid.y, 5u);
        EXPECT_EQ(k->info().smemPerCta, 3u * 1024);
        EXPECT_TRUE(wellFormed(*k));
    }
}

TEST(Hotspot, CountsFollowTheSource) {
    const int64_t n = 50, pyramid = 3;
    auto w = makeWorkload("hotspot:grid=50,pyramid_height=3,iterations=7");
    const int64_t steps[3] = {3, 3, 1};
    for (int launch = 0; launch < 3; ++launch) {
        Ref total;
        for (int64_t by = 0; by < 5; ++by)
            for (int64_t bx = 0; bx < 5; ++bx)
                for (int64_t wp = 0; wp < 8; ++wp) {
                    const Ref r = expectWarp(n, steps[launch], pyramid, bx, by, wp);
                    total.instructions += r.instructions;
                    total.loads += r.loads;
                    total.stores += r.stores;
                    total.barriers += r.barriers;
                    total.sharedLoads += r.sharedLoads;
                }
        const Census c = census(*w->kernels()[launch]);
        EXPECT_EQ(c.instructions, total.instructions) << launch;
        EXPECT_EQ(c.globalLoads, total.loads) << launch;
        EXPECT_EQ(c.globalStores, total.stores) << launch;
        EXPECT_EQ(c.barriers, total.barriers) << launch;
        EXPECT_EQ(c.sharedLoads, total.sharedLoads) << launch;
        EXPECT_EQ(c.sfu, 5u * 5 * 8 * 4) << launch;  // four divisions per warp
    }
}

TEST(Hotspot, AddressesAndNeighbours) {
    const int64_t n = 50;
    auto w = makeWorkload("hotspot:grid=50,pyramid_height=3,iterations=7");
    // temp[0], temp[1] (10000 bytes -> 10240 each), power. Launch 0 reads temp[0], writes temp[1].
    const uint64_t t0 = 0x10000000, t1 = t0 + 10240, power = t1 + 10240;
    auto s = drain(*w->kernels()[0], 2 * 5 + 1, 3);  // block (1, 2), rows 6, 7
    const unsigned lane = 20;                        // ty = 7, tx = 4
    const int64_t blkY = 10 * 2 - 3, blkX = 10 * 1 - 3;
    const int64_t index = n * (blkY + 7) + blkX + 4;
    EXPECT_EQ(s[31].addr[lane], t0 + uint64_t(index) * 4);
    EXPECT_EQ(s[33].addr[lane], power + uint64_t(index) * 4);
    const auto& st = s[s.size() - 2];
    EXPECT_EQ(st.op, OpClass::Store);
    EXPECT_EQ(st.addr[lane], t1 + uint64_t(index) * 4);
    // Computed after 3 steps: tx, ty in [3, 12]: in rows 6, 7 lanes 3..12 and 19..28.
    EXPECT_EQ(st.activeMask, 0x1ff81ff8u);
    // Two 64-byte row segments 200 bytes apart, each in one or two lines.
    std::set<uint64_t> lines;
    for (int64_t ty : {6, 7})
        for (int64_t tx = 0; tx < 16; ++tx) lines.insert((t0 + uint64_t(n * (blkY + ty) + blkX + tx) * 4) / 128);
    EXPECT_EQ(distinctLines(s[31]), lines.size());
    EXPECT_EQ(lines.size(), 3u);
}

TEST(Hotspot, Deterministic) {
    const char* spec = "hotspot:grid=40,pyramid_height=2,iterations=3";
    EXPECT_TRUE(sameWorkload(*makeWorkload(spec, 1), *makeWorkload(spec, 1)));
}

} // namespace hotspot_test
