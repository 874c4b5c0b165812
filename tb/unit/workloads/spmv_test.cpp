// Expectations from the CSR scalar kernel (one thread per row) and the modelled SASS in Spmv.cpp:
// per warp with rows in range 7 L + 10 instructions, L the longest row among its lanes; 5 without.
// Per iteration 3 loads (indices, data, x) for the lanes whose row is long enough.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "WorkloadTestHelpers.hpp"
#include "workloads/builtin/CsrMatrix.hpp"

namespace spmv_test {

using namespace gpusim;
using namespace gpusim::test;

TEST(CsrMatrix, RowClusteredRunsAreContiguous) {
    const CsrMatrix m = CsrMatrix::generate(1000, 8, false, 3);
    ASSERT_EQ(m.ptr.size(), 1001u);
    uint64_t total = 0;
    for (uint64_t r = 0; r < 1000; ++r) {
        const uint64_t len = m.rowLength(r);
        ASSERT_GE(len, 1u);
        ASSERT_LE(len, 15u);  // 1 .. 2 * 8 - 1
        for (uint64_t k = 1; k < len; ++k) ASSERT_EQ(m.indices[m.ptr[r] + k], m.indices[m.ptr[r]] + k);
        ASSERT_LT(m.indices[m.ptr[r] + len - 1], 1000u);
        total += len;
    }
    EXPECT_EQ(total, m.nnz());
    EXPECT_NEAR(double(total) / 1000, 8.0, 0.5);
}

TEST(CsrMatrix, ColumnClusteredGroupsShareColumns) {
    const CsrMatrix m = CsrMatrix::generate(1000, 8, true, 3);
    for (uint64_t r = 0; r < 1000; ++r) {
        const uint64_t g = r / 32 * 32;  // first row of the 32-row group
        ASSERT_EQ(m.rowLength(r), m.rowLength(g));
        for (uint64_t k = 0; k < m.rowLength(r); ++k) ASSERT_EQ(m.indices[m.ptr[r] + k], m.indices[m.ptr[g] + k]);
        for (uint64_t k = 1; k < m.rowLength(r); ++k) ASSERT_LT(m.indices[m.ptr[r] + k - 1], m.indices[m.ptr[r] + k]);
    }
}

TEST(Spmv, CountsFollowTheMatrix) {
    for (int cluster : {0, 1}) {
        const uint64_t n = 1000;
        const CsrMatrix m = CsrMatrix::generate(n, 8, cluster == 1, 17);
        auto w = makeWorkload("spmv:rows=1000,nnz_per_row=8,cluster=" + std::to_string(cluster), 17);
        ASSERT_EQ(w->kernels().size(), 1u);
        const Kernel& k = *w->kernels()[0];
        EXPECT_EQ(k.info().name, "spmv_csr_scalar_kernel");
        EXPECT_EQ(k.info().grid.x, 4u);
        EXPECT_TRUE(wellFormed(k));
        uint64_t instructions = 0, loads = 0, stores = 0, xLines = 0;
        for (uint64_t warp = 0; warp < 32; ++warp) {
            uint64_t longest = 0;
            bool any = false;
            for (uint64_t r = warp * 32; r < warp * 32 + 32 && r < n; ++r) {
                any = true;
                longest = std::max(longest, m.rowLength(r));
            }
            if (!any) {
                instructions += 5;
                continue;
            }
            instructions += 7 * longest + 10;
            loads += 2 + 3 * longest;
            stores += 1;
            for (uint64_t s = 0; s < longest; ++s) {
                std::set<uint64_t> lines;
                for (uint64_t r = warp * 32; r < warp * 32 + 32 && r < n; ++r)
                    if (m.rowLength(r) > s) lines.insert(m.indices[m.ptr[r] + s] * 4 / 128);
                xLines += lines.size();
            }
        }
        const Census c = census(k);
        EXPECT_EQ(c.instructions, instructions) << cluster;
        EXPECT_EQ(c.globalLoads, loads) << cluster;
        EXPECT_EQ(c.globalStores, stores) << cluster;
        // x lines (x starts line-aligned): one per warp step when columns cluster, many when rows do.
        uint64_t measured = 0;
        auto s = [&](uint64_t warp) { return drainByLinearWarp(k, warp); };
        for (uint64_t warp = 0; warp < 32; ++warp)
            for (const auto& in : s(warp))
                if (in.pc == 0xa0) measured += distinctLines(in);
        EXPECT_EQ(measured, xLines) << cluster;
        if (cluster == 1) {
            uint64_t steps = 0;
            for (uint64_t warp = 0; warp < 32; ++warp) steps += m.rowLength(warp * 32);
            EXPECT_EQ(xLines, steps);
        }
    }
}

TEST(Spmv, Addresses) {
    const uint64_t n = 512;
    const CsrMatrix m = CsrMatrix::generate(n, 4, false, 5);
    auto w = makeWorkload("spmv:rows=512,nnz_per_row=4,cluster=0", 5);
    auto up = [](uint64_t b) { return (b + 255) / 256 * 256; };
    const uint64_t ptr = 0x10000000, idx = ptr + up((n + 1) * 4), data = idx + up(m.nnz() * 4),
                   x = data + up(m.nnz() * 4), y = x + up(n * 4);
    auto s = drain(*w->kernels()[0], 1, 2);  // rows 256 + 64 ..
    const unsigned lane = 9;
    const uint64_t row = 256 + 64 + lane;
    EXPECT_EQ(s[4].addr[lane], ptr + row * 4);
    EXPECT_EQ(s[5].addr[lane], ptr + (row + 1) * 4);
    EXPECT_EQ(s[8].addr[lane], idx + uint64_t(m.ptr[row]) * 4);
    EXPECT_EQ(s[9].addr[lane], data + uint64_t(m.ptr[row]) * 4);
    EXPECT_EQ(s[10].addr[lane], x + uint64_t(m.indices[m.ptr[row]]) * 4);
    EXPECT_EQ(s[s.size() - 2].addr[lane], y + row * 4);
    // Iteration k runs the lanes whose rows have more than k non-zeros.
    uint32_t mask = 0;
    for (unsigned l = 0; l < 32; ++l)
        if (m.rowLength(256 + 64 + l) > 2) mask |= 1u << l;
    EXPECT_EQ(s[8 + 7 * 2].activeMask, mask);
}

TEST(Spmv, DeterministicBySeed) {
    const char* spec = "spmv:rows=300,nnz_per_row=5,cluster=0";
    EXPECT_TRUE(sameWorkload(*makeWorkload(spec, 4), *makeWorkload(spec, 4)));
    EXPECT_FALSE(sameWorkload(*makeWorkload(spec, 4), *makeWorkload(spec, 5)));
}

} // namespace spmv_test
