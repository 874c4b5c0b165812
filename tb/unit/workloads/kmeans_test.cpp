// Expectations from Rodinia kmeans (kmeans_cuda_kernel.cu, kmeans_cuda.cu) and the modelled SASS in
// Kmeans.cpp: invert_mapping 5 nf + 5 instructions per warp with a lane in range (else 5),
// kmeansPoint nc (7 nf + 8) + 10 (else 7). Blocks of 256 threads; num_blocks rounded up to a
// square: a 1-D grid of it for invert_mapping, sqrt x sqrt for kmeansPoint.
#include <gtest/gtest.h>

#include "WorkloadTestHelpers.hpp"

namespace kmeans_test {

using namespace gpusim;
using namespace gpusim::test;

TEST(Kmeans, GeometryFollowsTheHost) {
    // 1000 points: ceil(1000 / 256) = 4 blocks, already a square (2 x 2).
    auto w = makeWorkload("kmeans:points=1000,features=4,clusters=3,iterations=2");
    ASSERT_EQ(w->kernels().size(), 3u);
    EXPECT_EQ(w->kernels()[0]->info().name, "invert_mapping");
    EXPECT_EQ(w->kernels()[0]->info().grid.x, 4u);
    for (size_t k = 1; k < 3; ++k) {
        EXPECT_EQ(w->kernels()[k]->info().name, "kmeansPoint");
        EXPECT_EQ(w->kernels()[k]->info().grid.x, 2u);
        EXPECT_EQ(w->kernels()[k]->info().grid.y, 2u);
    }
    for (const auto& k : w->kernels()) EXPECT_TRUE(wellFormed(*k));
    // 1300 points: 6 blocks round up to 9 = 3 x 3.
    auto v = makeWorkload("kmeans:points=1300,features=2,clusters=2,iterations=1");
    EXPECT_EQ(v->kernels()[0]->info().grid.x, 9u);
    EXPECT_EQ(v->kernels()[1]->info().grid.x, 3u);
    EXPECT_EQ(v->kernels()[1]->info().grid.y, 3u);
}

TEST(Kmeans, InstructionCounts) {
    const uint64_t nf = 4, nc = 3;
    auto w = makeWorkload("kmeans:points=1000,features=4,clusters=3,iterations=1");
    // 4 blocks x 8 warps = 32 warps; points 0..999: warps 0..31, warp 31 = 992..1023 partly in range.
    EXPECT_EQ(countInstructions(*w->kernels()[0]), 32 * (5 * nf + 5));
    EXPECT_EQ(countInstructions(*w->kernels()[1]), 32 * (nc * (7 * nf + 8) + 10));
    auto v = makeWorkload("kmeans:points=1300,features=2,clusters=2,iterations=1");
    // 9 blocks = 72 warps; points < 1300 fill warps 0..40 (40 * 32 = 1280, warp 40 partly).
    EXPECT_EQ(countInstructions(*v->kernels()[0]), 41 * (5 * 2 + 5) + 31 * 5);
    EXPECT_EQ(countInstructions(*v->kernels()[1]), 41 * (2 * (7 * 2 + 8) + 10) + 31 * 7);
}

TEST(Kmeans, AddressesAndLines) {
    const uint64_t np = 1024, nf = 34;
    auto w = makeWorkload("kmeans:points=1024,features=34,clusters=5,iterations=1");
    // feature_flipped_d and feature_d: 1024 * 34 * 4 = 139264 bytes each (256-aligned), then
    // membership (4 KiB), clusters_d (680 -> 768), c_clusters.
    const uint64_t flipped = 0x10000000, features = flipped + 139264, membership = features + 139264,
                   constClusters = membership + 4096 + 768;
    auto inv = drain(*w->kernels()[0], 1, 2);  // points 256 + 64 ..
    const unsigned lane = 11;
    const uint64_t p = 256 + 64 + lane;
    for (uint64_t i : {0ull, 33ull}) {
        EXPECT_EQ(inv[4 + 5 * i].addr[lane], flipped + (p * nf + i) * 4);
        EXPECT_EQ(inv[5 + 5 * i].addr[lane], features + (p + np * i) * 4);
        EXPECT_EQ(distinctLines(inv[4 + 5 * i]), 32u);  // lanes 136 bytes apart
        EXPECT_EQ(distinctLines(inv[5 + 5 * i]), 1u);
    }
    // kmeansPoint, block (1, 1) of a 2 x 2 grid: block_id 3, points 768 + 32 w + lane.
    auto pt = drain(*w->kernels()[1], 3, 1);
    const uint64_t q = 768 + 32 + lane;
    for (uint64_t c : {0ull, 4ull})
        for (uint64_t j : {0ull, 20ull}) {
            const size_t at = 8 + c * (7 * nf + 8) + 2 + 7 * j;
            EXPECT_EQ(pt[at].addr[lane], features + (q + j * np) * 4);
            EXPECT_EQ(pt[at + 1].addr[lane], constClusters + (c * nf + j) * 4);
            EXPECT_EQ(distinctLines(pt[at]), 1u);
            EXPECT_EQ(distinctLines(pt[at + 1]), 1u);
        }
    EXPECT_EQ(pt[pt.size() - 2].op, OpClass::Store);
    EXPECT_EQ(pt[pt.size() - 2].addr[lane], membership + q * 4);
}

TEST(Kmeans, CensusMatchesTheSourceFormulas) {
    const uint64_t np = 1024, nf = 34, nc = 5, warps = np / 32;
    auto w = makeWorkload("kmeans:points=1024,features=34,clusters=5,iterations=1");
    const Census inv = census(*w->kernels()[0]), pt = census(*w->kernels()[1]);
    EXPECT_EQ(inv.globalLoads, warps * nf);
    EXPECT_EQ(inv.globalStores, warps * nf);
    EXPECT_EQ(inv.loadLines, warps * nf * 32);
    EXPECT_EQ(inv.storeLines, warps * nf);
    EXPECT_EQ(pt.globalLoads, warps * nc * nf * 2);
    EXPECT_EQ(pt.loadLines, warps * nc * nf * 2);
    EXPECT_EQ(pt.globalStores, warps);
    EXPECT_EQ(pt.alu, warps * (nc * (5 * nf + 8) + 8));
}

TEST(Kmeans, Deterministic) {
    const char* spec = "kmeans:points=700,features=3,clusters=2,iterations=2";
    EXPECT_TRUE(sameWorkload(*makeWorkload(spec, 1), *makeWorkload(spec, 1)));
}

} // namespace kmeans_test
