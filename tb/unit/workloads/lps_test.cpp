// Expectations from the LPS laplace3d kernel (GPU_laplace3d, ISPASS 2009 suite) and the modelled
// SASS in Lps.cpp. The halo/active index arithmetic below is the source's, written out again.
// Per warp (tile row ty = w of a 32 x 4 block): 6 + halo setup (warps 0, 1: 9; warp 2: 11;
// warp 3: 0) + 6 + the initial plane (2 if active lanes, 2 if in-range halo lanes); per k-plane
// active 7 (+2 below the top plane), halo 6 (+2), BAR, active 3 + (1 boundary) + (12 interior) + 1,
// BAR, 3; EXIT.
#include <gtest/gtest.h>

#include "WorkloadTestHelpers.hpp"

namespace lps_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

struct Lane {
    bool active, halo;
    int64_t gi, gj, hi, hj;
};

Lane laneOf(int64_t nx, int64_t ny, int64_t bx, int64_t by, int64_t tx, int64_t ty) {
    Lane l{};
    const int64_t k = tx + ty * 32;
    l.gi = tx + bx * 32;
    l.gj = ty + by * 4;
    l.active = l.gi < nx && l.gj < ny;
    if (k < 2 * (32 + 4 + 2)) {
        int64_t i, j;
        if (ty < 2) {
            i = tx;
            j = ty * 5 - 1;
        } else {
            i = (k % 2) * 33 - 1;
            j = k / 2 - 32 - 1;
        }
        l.hi = i + bx * 32;
        l.hj = j + by * 4;
        l.halo = l.hi >= 0 && l.hi < nx && l.hj >= 0 && l.hj < ny;
    }
    return l;
}

uint64_t expectWarp(int64_t nx, int64_t ny, int64_t nz, int64_t bx, int64_t by, int64_t w, uint64_t* barriers) {
    bool active = false, halo = false;
    for (int64_t tx = 0; tx < 32; ++tx) {
        const Lane l = laneOf(nx, ny, bx, by, tx, w);
        active |= l.active;
        halo |= l.halo;
    }
    uint64_t n = 6 + (w < 2 ? 9 : w == 2 ? 11 : 0) + 6 + (active ? 2 : 0) + (halo ? 2 : 0);
    for (int64_t k = 0; k < nz; ++k) {
        const bool more = k < nz - 1;
        if (active) n += 7 + (more ? 2 : 0);
        if (halo) n += 6 + (more ? 2 : 0);
        n += 1;
        if (active) {
            bool boundary = false, interior = false;
            for (int64_t tx = 0; tx < 32; ++tx) {
                const Lane l = laneOf(nx, ny, bx, by, tx, w);
                if (!l.active) continue;
                const bool b = l.gi == 0 || l.gi == nx - 1 || l.gj == 0 || l.gj == ny - 1 || k == 0 || k == nz - 1;
                (b ? boundary : interior) = true;
            }
            n += 3 + (boundary ? 1 : 0) + (interior ? 12 : 0) + 1;
        }
        n += 1 + 3;
        *barriers += 2;
    }
    return n + 1;
}

} // namespace

TEST(Lps, GeometryAndCounts) {
    const int64_t nx = 40, ny = 6, nz = 4;
    auto w = makeWorkload("lps:nx=40,ny=6,nz=4,iterations=2");
    ASSERT_EQ(w->kernels().size(), 2u);
    for (const auto& k : w->kernels()) {
        EXPECT_EQ(k->info().name, "GPU_laplace3d");
        EXPECT_EQ(k->info().grid.x, 2u);
        EXPECT_EQ(k->info().grid.y, 2u);
        EXPECT_EQ(k->info().smemPerCta, 3u * 34 * 6 * 4);
        EXPECT_TRUE(wellFormed(*k));
        uint64_t expected = 0, barriers = 0;
        for (int64_t by = 0; by < 2; ++by)
            for (int64_t bx = 0; bx < 2; ++bx)
                for (int64_t wp = 0; wp < 4; ++wp) expected += expectWarp(nx, ny, nz, bx, by, wp, &barriers);
        const Census c = census(*k);
        EXPECT_EQ(c.instructions, expected);
        EXPECT_EQ(c.barriers, barriers);
    }
}

TEST(Lps, HaloAndPlaneAddresses) {
    const int64_t nx = 40, ny = 6, nz = 4, pitch = 64;  // 160-byte rows padded to 256
    auto w = makeWorkload("lps:nx=40,ny=6,nz=4,iterations=2");
    const uint64_t u1 = 0x10000000, u2 = u1 + uint64_t(pitch * ny * nz) * 4;
    // Block (1, 0), warp 2: lanes 0..11 load x-halos; rows j = -1 .. 4 at i = 31 and i = 64.
    auto s = drain(*w->kernels()[0], 1, 2);
    uint32_t haloMask = 0;
    for (unsigned lane = 0; lane < 32; ++lane) {
        const Lane l = laneOf(nx, ny, 1, 0, lane, 2);
        if (l.halo) haloMask |= 1u << lane;
    }
    EXPECT_EQ(haloMask, 0b10101010100u);  // i = 31 (even k), rows 0..4 (j = -1 is outside)
    const WarpInstruction* initHalo = nullptr;
    for (const auto& in : s)
        if (in.op == OpClass::Load && in.space == MemSpace::Global && in.activeMask == haloMask) {
            initHalo = &in;
            break;
        }
    ASSERT_NE(initHalo, nullptr);
    for (unsigned lane = 0; lane < 32; ++lane)
        if (haloMask >> lane & 1u) {
            const Lane l = laneOf(nx, ny, 1, 0, lane, 2);
            EXPECT_EQ(initHalo->addr[lane], u1 + uint64_t(l.hi + l.hj * pitch) * 4);
        }
    EXPECT_EQ(distinctLines(*initHalo), 5u);  // one element per row, rows 256 bytes apart
    // Warp 1 of block (0, 0): tile row 1; its Jacobi store for plane 2 goes to u2.
    auto r = drain(*w->kernels()[0], 0, 1);
    uint64_t stores = 0;
    for (const auto& in : r)
        if (in.op == OpClass::Store && in.space == MemSpace::Global) {
            EXPECT_EQ(in.addr[5], u2 + uint64_t(5 + 1 * pitch + int64_t(stores) * pitch * ny) * 4);
            ++stores;
        }
    EXPECT_EQ(stores, uint64_t(nz));
    // The second sweep reads what the first wrote (the host swaps d_u1 and d_u2).
    auto second = drain(*w->kernels()[1], 0, 1);
    for (const auto& in : second)
        if (in.op == OpClass::Load && in.space == MemSpace::Global) {
            EXPECT_GE(in.addr[5], u2);
            break;
        }
}

TEST(Lps, Deterministic) {
    const char* spec = "lps:nx=40,ny=6,nz=3,iterations=1";
    EXPECT_TRUE(sameWorkload(*makeWorkload(spec, 1), *makeWorkload(spec, 1)));
}

} // namespace lps_test
