// Expectations from Rodinia srad_v2 (srad_kernel.cu) and the modelled SASS in Srad.cpp. 16 x 16
// blocks; warp w holds rows ty = 2w, 2w + 1 of the block.
//   srad_cuda_1 per warp: 89 + by part + bx part + neighbour chain, where the by part is 2 in block
//     row 0 (LD, STS), else 1 (ISETP) + 2 in the last block row; bx likewise; the 9-case chain
//     costs 8 ISETP plus 8 per case with lanes: warps 0 and 7 (border rows) see 6 cases, warps
//     1..6 see 3 (e, w, interior): 56 or 32.
//   srad_cuda_2 per warp: 43 + 2 in the last block row + 2 in the last block column + chain: 3
//     ISETP plus 2 per case with lanes: warp 7 sees 4 cases (11), the others 2 (7).
#include <gtest/gtest.h>

#include "WorkloadTestHelpers.hpp"

namespace srad_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

uint64_t k1Warp(unsigned bx, unsigned by, unsigned gx, unsigned gy, unsigned w) {
    const uint64_t byPart = by == 0 ? 2 : 1 + (by == gy - 1 ? 2 : 0);
    const uint64_t bxPart = bx == 0 ? 2 : 1 + (bx == gx - 1 ? 2 : 0);
    return 89 + byPart + bxPart + (w == 0 || w == 7 ? 56 : 32);
}
uint64_t k2Warp(unsigned bx, unsigned by, unsigned gx, unsigned gy, unsigned w) {
    return 43 + (by == gy - 1 ? 2 : 0) + (bx == gx - 1 ? 2 : 0) + (w == 7 ? 11 : 7);
}

} // namespace

TEST(Srad, GeometryAndSharedMemory) {
    auto w = makeWorkload("srad:rows=48,cols=64,iterations=2");
    ASSERT_EQ(w->kernels().size(), 4u);
    for (size_t k = 0; k < 4; ++k) {
        const auto& info = w->kernels()[k]->info();
        EXPECT_EQ(info.name, k % 2 ? "srad_cuda_2" : "srad_cuda_1");
        EXPECT_EQ(info.grid.x, 4u);
        EXPECT_EQ(info.grid.y, 3u);
        EXPECT_EQ(info.block.x, 16u);
        EXPECT_EQ(info.block.y, 16u);
        EXPECT_EQ(info.smemPerCta, k % 2 ? 5u * 1024 : 6u * 1024);  // 6 / 5 float[16][16] arrays
        EXPECT_TRUE(wellFormed(*w->kernels()[k]));
    }
}

TEST(Srad, InstructionCountsPerWarp) {
    auto w = makeWorkload("srad:rows=48,cols=64,iterations=1");
    const Kernel& k1 = *w->kernels()[0];
    const Kernel& k2 = *w->kernels()[1];
    uint64_t total1 = 0, total2 = 0;
    for (unsigned by = 0; by < 3; ++by)
        for (unsigned bx = 0; bx < 4; ++bx)
            for (unsigned wp = 0; wp < 8; ++wp) {
                const uint64_t cta = by * 4 + bx;
                EXPECT_EQ(drain(k1, cta, wp).size(), k1Warp(bx, by, 4, 3, wp)) << bx << "," << by << "," << wp;
                EXPECT_EQ(drain(k2, cta, wp).size(), k2Warp(bx, by, 4, 3, wp)) << bx << "," << by << "," << wp;
                total1 += k1Warp(bx, by, 4, 3, wp);
                total2 += k2Warp(bx, by, 4, 3, wp);
            }
    EXPECT_EQ(countInstructions(k1), total1);
    EXPECT_EQ(countInstructions(k2), total2);
}

TEST(Srad, BarriersSharedAndGlobalAccesses) {
    auto w = makeWorkload("srad:rows=48,cols=64,iterations=1");
    // An interior block (1, 1): no border loads.
    const Census c1 = censusOf(drain(*w->kernels()[0], 5, 3));
    EXPECT_EQ(c1.barriers, 4u);
    EXPECT_EQ(c1.globalLoads, 5u);   // J at index_n, index_s, index_w, index_e, index
    EXPECT_EQ(c1.globalStores, 5u);  // C, E, W, S, N
    EXPECT_EQ(c1.sharedStores, 6u);  // north, south, west, east, temp, temp_result
    EXPECT_EQ(c1.sharedLoads, 1u + 3 * 4 + 1);  // jc, three cases, temp_result
    EXPECT_EQ(c1.sfu, 5u);
    const Census c2 = censusOf(drain(*w->kernels()[1], 5, 3));
    EXPECT_EQ(c2.barriers, 5u);
    EXPECT_EQ(c2.globalLoads, 4u + 4);  // J, C x3 into shared; N, S, W, E
    EXPECT_EQ(c2.globalStores, 1u);
    // Block (0, 0): the by == 0 and bx == 0 border loads replace north and west.
    const Census corner = censusOf(drain(*w->kernels()[0], 0, 0));
    EXPECT_EQ(corner.globalLoads, 7u);
}

TEST(Srad, AddressesFollowTheSource) {
    const int64_t rows = 48, cols = 64;
    auto w = makeWorkload("srad:rows=48,cols=64,iterations=1");
    const uint64_t j = 0x10000000, bytes = rows * cols * 4;  // J, C, E, W, S, N
    const uint64_t c = j + bytes, e = c + bytes, n = e + 3 * bytes;
    auto s = drain(*w->kernels()[0], 1 * 4 + 2, 1);  // block (2, 1), rows ty = 2, 3
    const unsigned lane = 20;                        // ty = 3, tx = 4
    const int64_t bx = 2, by = 1, ty = 3, tx = 4;
    const int64_t corner = cols * 16 * by + 16 * bx;
    EXPECT_EQ(s[9].addr[lane], j + uint64_t((corner + tx - cols) * 4));    // index_n
    EXPECT_EQ(s[11].addr[lane], j + uint64_t((corner + cols * 16 + tx) * 4));  // index_s
    EXPECT_EQ(distinctLines(s[9]), 1u);  // both rows of the warp read the same halo row
    const int64_t index = corner + cols * ty + tx;
    const auto& st = s[s.size() - 6];  // ST C[index]
    EXPECT_EQ(st.op, OpClass::Store);
    EXPECT_EQ(st.addr[lane], c + uint64_t(index * 4));
    EXPECT_EQ(s[s.size() - 5].addr[lane], e + uint64_t(index * 4));
    EXPECT_EQ(s[s.size() - 2].addr[lane], n + uint64_t(index * 4));
    EXPECT_EQ(distinctLines(st), 2u);  // two 64-byte row segments
    // Block row 0 reads the north halo from above the image, as the source does (index_n < 0).
    auto top = drain(*w->kernels()[0], 0, 0);
    EXPECT_EQ(top[9].addr[0], j - uint64_t(cols * 4));
}

TEST(Srad, Deterministic) {
    const char* spec = "srad:rows=32,cols=48,iterations=1";
    EXPECT_TRUE(sameWorkload(*makeWorkload(spec, 1), *makeWorkload(spec, 1)));
}

} // namespace srad_test
