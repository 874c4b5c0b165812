// Expectations from Rodinia streamcluster (streamcluster_cuda.cu: kernel_compute_cost, pgain) and
// the modelled SASS in Streamcluster.cpp: per warp in range 8 + 7 dim + 4, plus 6 for the
// x_cost < cost side and 6 for the other side when any lane takes it, plus EXIT; 7 without.
// The branch is evaluated on StreamclusterData, the same generator the workload uses.
#include <gtest/gtest.h>

#include "WorkloadTestHelpers.hpp"
#include "workloads/builtin/StreamclusterData.hpp"

namespace streamcluster_test {

using namespace gpusim;
using namespace gpusim::test;

TEST(StreamclusterData, CentersAssignmentsAndCosts) {
    const StreamclusterData d = StreamclusterData::generate(500, 8, 6, 3, 21);
    ASSERT_EQ(d.centers.size(), 6u);
    for (uint64_t c = 0; c < 6; ++c) EXPECT_EQ(d.centerTable[d.centers[c]], int32_t(c));
    uint64_t isCenter = 0;
    for (int32_t v : d.centerTable) isCenter += v >= 0;
    EXPECT_EQ(isCenter, 6u);
    for (uint64_t p = 0; p < 500; ++p) {
        ASSERT_GE(d.centerTable[d.assign[p]], 0);  // assigned to an open center
        ASSERT_FLOAT_EQ(d.cost[p], d.dist(p, d.assign[p]));
    }
    EXPECT_EQ(d.candidates.size(), 3u);
    // Both sides of the branch occur: a random candidate is sometimes closer, sometimes not.
    uint64_t closer = 0;
    for (uint64_t p = 0; p < 500; ++p) closer += d.switches(p, 0);
    EXPECT_GT(closer, 0u);
    EXPECT_LT(closer, 500u);
}

TEST(Streamcluster, CountsFollowTheBranch) {
    const uint64_t n = 1000, dim = 8, k = 6, launches = 2;
    const StreamclusterData d = StreamclusterData::generate(n, dim, k, launches, 21);
    auto w = makeWorkload("streamcluster:points=1000,dim=8,centers=6,launches=2", 21);
    ASSERT_EQ(w->kernels().size(), launches);
    for (uint64_t l = 0; l < launches; ++l) {
        const Kernel& kern = *w->kernels()[l];
        EXPECT_EQ(kern.info().name, "kernel_compute_cost");
        EXPECT_EQ(kern.info().block.x, 512u);
        EXPECT_EQ(kern.info().grid.x, 2u);
        EXPECT_TRUE(wellFormed(kern));
        uint64_t instructions = 0, loads = 0, stores = 0;
        for (uint64_t warp = 0; warp < 32; ++warp) {
            bool any = false, take = false, other = false;
            for (uint64_t t = warp * 32; t < warp * 32 + 32 && t < n; ++t) {
                any = true;
                (d.switches(t, l) ? take : other) = true;
            }
            if (!any) {
                instructions += 7;
                continue;
            }
            instructions += 8 + 7 * dim + 4 + (take ? 6 : 0) + (other ? 6 : 0) + 1;
            loads += 2 * dim + 2 + (take ? 2 : 0) + (other ? 3 : 0);
            stores += (take ? 2 : 0) + (other ? 1 : 0);
        }
        const Census c = census(kern);
        EXPECT_EQ(c.instructions, instructions) << l;
        EXPECT_EQ(c.globalLoads, loads) << l;
        EXPECT_EQ(c.globalStores, stores) << l;
    }
}

TEST(Streamcluster, AddressesAndLines) {
    const uint64_t n = 1024, dim = 4, k = 5;
    const StreamclusterData d = StreamclusterData::generate(n, dim, k, 1, 3);
    auto w = makeWorkload("streamcluster:points=1024,dim=4,centers=5,launches=1", 3);
    // work_mem (6 * 1025 floats = 24600 -> 24832), center_table (4096), switch (1024), p (32768), coord.
    const uint64_t work = 0x10000000, table = work + 24832, sw = table + 4096, points = sw + 1024,
                   coord = points + 32768;
    const uint64_t x = d.candidates[0], stride = k + 1;
    auto s = drain(*w->kernels()[0], 1, 3);  // points 512 + 96 ..
    for (unsigned lane : {0u, 13u, 31u}) {
        const uint64_t t = 512 + 96 + lane;
        for (uint64_t i = 0; i < dim; ++i) {
            EXPECT_EQ(s[8 + 7 * i].addr[lane], coord + (i * n + t) * 4);
            EXPECT_EQ(s[9 + 7 * i].addr[lane], coord + (i * n + x) * 4);  // the candidate: every lane
        }
        const size_t after = 8 + 7 * dim;
        EXPECT_EQ(s[after].addr[lane], points + 32 * t);        // weight
        EXPECT_EQ(s[after + 2].addr[lane], points + 32 * t + 24);  // cost
    }
    EXPECT_EQ(distinctLines(s[8]), 1u);
    EXPECT_EQ(distinctLines(s[9]), 1u);
    // The two sides: lanes split exactly by the data, and scatter into their work_mem slots.
    const size_t side = 8 + 7 * dim + 4;
    uint32_t take = 0;
    for (unsigned lane = 0; lane < 32; ++lane)
        if (d.switches(512 + 96 + lane, 0)) take |= 1u << lane;
    size_t p = side;
    if (take) {
        EXPECT_EQ(s[p].activeMask, take);
        EXPECT_EQ(s[p].addr[__builtin_ctz(take)], sw + 512 + 96 + __builtin_ctz(take));
        const unsigned l = __builtin_ctz(take);
        EXPECT_EQ(s[p + 5].addr[l], work + ((512 + 96 + l) * stride + k) * 4);  // lower[K]
        p += 6;
    }
    if (~take) {
        const unsigned l = __builtin_ctz(~take);
        const uint64_t t = 512 + 96 + l;
        EXPECT_EQ(s[p].activeMask, ~take);
        EXPECT_EQ(s[p].addr[l], points + 32 * t + 16);  // assign (8 bytes)
        EXPECT_EQ(s[p].accessBytes, 8u);
        EXPECT_EQ(s[p + 1].addr[l], table + 4 * uint64_t(d.assign[t]));
        EXPECT_EQ(s[p + 5].addr[l], work + (t * stride + uint64_t(d.centerTable[d.assign[t]])) * 4);
    }
}

TEST(Streamcluster, DeterministicBySeed) {
    const char* spec = "streamcluster:points=600,dim=4,centers=4,launches=2";
    EXPECT_TRUE(sameWorkload(*makeWorkload(spec, 9), *makeWorkload(spec, 9)));
    EXPECT_FALSE(sameWorkload(*makeWorkload(spec, 9), *makeWorkload(spec, 10)));
}

} // namespace streamcluster_test
