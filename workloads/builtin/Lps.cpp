// lps: 3-D Laplace solver (Giles' laplace3d, the GPGPU-Sim ISPASS 2009 "LPS" benchmark): one
// Jacobi sweep per launch over an nx x ny x nz grid. A 32 x 4 block owns a column of the grid and
// marches up through the k-planes, keeping three planes of its tile plus a one-element halo in
// shared memory; each thread also loads at most one halo element:
//
//     __global__ void GPU_laplace3d(int NX, int NY, int NZ, int pitch, float* d_u1, float* d_u2) {
//         #define IOFF 1
//         #define JOFF (BLOCK_X+2)
//         #define KOFF (BLOCK_X+2)*(BLOCK_Y+2)
//         __shared__ float u1[3*KOFF];
//         k = threadIdx.x + threadIdx.y*BLOCK_X;
//         halo = k < 2*(BLOCK_X+BLOCK_Y+2);
//         if (halo) {
//             if (threadIdx.y<2) { i = threadIdx.x; j = threadIdx.y*(BLOCK_Y+1) - 1; }   // y-halos (coalesced)
//             else { i = (k%2)*(BLOCK_X+1) - 1; j = k/2 - BLOCK_X - 1; }               // x-halos (not coalesced)
//             ind_h = INDEX(i+1,j+1,JOFF) + KOFF;
//             i = INDEX(i,blockIdx.x,BLOCK_X); j = INDEX(j,blockIdx.y,BLOCK_Y);
//             indg_h = INDEX(i,j,pitch);
//             halo = (i>=0) && (i<NX) && (j>=0) && (j<NY);
//         }
//         i = threadIdx.x; j = threadIdx.y; ind = INDEX(i+1,j+1,JOFF) + KOFF;
//         i = INDEX(i,blockIdx.x,BLOCK_X); j = INDEX(j,blockIdx.y,BLOCK_Y); indg = INDEX(i,j,pitch);
//         active = (i<NX) && (j<NY);
//         if (active) u1[ind+KOFF] = d_u1[indg];
//         if (halo) u1[ind_h+KOFF] = d_u1[indg_h];
//         for (k=0; k<NZ; k++) {
//             if (active) {
//                 indg0 = indg; indg = INDEX(indg,NY,pitch);
//                 u1[ind-KOFF] = u1[ind]; u1[ind] = u1[ind+KOFF];
//                 if (k<NZM1) u1[ind+KOFF] = d_u1[indg];
//             }
//             if (halo) {
//                 indg_h = INDEX(indg_h,NY,pitch);
//                 u1[ind_h-KOFF] = u1[ind_h]; u1[ind_h] = u1[ind_h+KOFF];
//                 if (k<NZM1) u1[ind_h+KOFF] = d_u1[indg_h];
//             }
//             __syncthreads();
//             if (active) {
//                 if (i==0 || i==NXM1 || j==0 || j==NYM1 || k==0 || k==NZM1) u2 = u1[ind];
//                 else u2 = (u1[ind-IOFF] + u1[ind+IOFF] + u1[ind-JOFF] + u1[ind+JOFF] + u1[ind-KOFF] + u1[ind+KOFF]) * sixth;
//                 d_u2[indg0] = u2;
//             }
//             __syncthreads();
//         }
//     }
//
// BLOCK_X = 32, BLOCK_Y = 4: warp w is tile row j = w. Warps 0 and 1 also load the tile's lower
// and upper halo rows (coalesced), the first 12 lanes of warp 2 the left and right halo columns
// (two elements per grid row: 12 lines per access). Neighbouring blocks read each other's edge
// rows and columns as halo: the inter-warp (and inter-CTA) locality LPS is used for. The arrays
// are allocated with cudaMallocPitch: rows padded to a multiple of 256 bytes here.
//
// Modelled SASS per warp:
//
//   0x00 S2R TID.X  0x10 S2R TID.Y  0x20 S2R CTAID.X  0x30 S2R CTAID.Y  0x40 IMAD k  0x50 ISETP halo
//   halo lanes: 0x60 ISETP threadIdx.y < 2;  y-halo lanes: 0x70 MOV i  0x80 IMAD j;
//               x-halo lanes: 0x90 LOP  0xa0 IMAD i  0xb0 SHR  0xc0 IADD j;
//               0xd0 .. 0x120 IMAD ind_h, i, j, indg_h, ISETP, ISETP (halo in range)
//   0x130 .. 0x180 IMAD ind, i, j, indg, ISETP, ISETP (active)       all existing lanes
//   active: 0x190 LD d_u1[indg]  0x1a0 STS u1[ind+KOFF];  halo: 0x1b0 LD d_u1[indg_h]  0x1c0 STS
//   loop k = 0 .. NZ-1:
//     active: 0x1d0 MOV indg0  0x1e0 IMAD indg  0x1f0 LDS u1[ind]  0x200 STS u1[ind-KOFF]
//             0x210 LDS u1[ind+KOFF]  0x220 STS u1[ind]  0x230 ISETP k < NZM1
//             (k < NZM1) 0x240 LD d_u1[indg]  0x250 STS u1[ind+KOFF]
//     halo:   0x260 IMAD indg_h  0x270 LDS  0x280 STS  0x290 LDS  0x2a0 STS  0x2b0 ISETP
//             (k < NZM1) 0x2c0 LD d_u1[indg_h]  0x2d0 STS
//     0x2e0 BAR
//     active: 0x2f0 ISETP  0x300 ISETP  0x310 ISETP   (boundary test)
//             boundary lanes: 0x320 LDS u1[ind]
//             interior lanes: 0x330 .. 0x380 LDS x6  0x390 .. 0x3d0 FADD x5  0x3e0 FMUL
//             0x3f0 ST d_u2[indg0]
//     0x400 BAR   0x410 IADD k  0x420 ISETP  0x430 BRA
//   0x440 EXIT
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinSupport.hpp"
#include "workloads/builtin/KernelBuilder.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"

namespace gpusim {

namespace lps_kernel {

constexpr int64_t kBlockX = 32, kBlockY = 4;
constexpr int64_t kIoff = 1, kJoff = kBlockX + 2, kKoff = (kBlockX + 2) * (kBlockY + 2);
constexpr int64_t kHaloThreads = 2 * (kBlockX + kBlockY + 2);

namespace reg {
constexpr uint16_t kTidX = 0, kTidY = 1, kCtaX = 2, kCtaY = 3, kK = 4, kPred = 5, kHi = 6, kHj = 7, kIndH = 8,
                   kIndgH = 9, kInd = 10, kIndg = 11, kIndg0 = 12, kV = 13, kN0 = 14, kSum = 20, kLoop = 21;
constexpr unsigned kUsed = 22;
} // namespace reg

enum Slot : unsigned {
    kS2rTidX, kS2rTidY, kS2rCtaX, kS2rCtaY, kImadK, kIsetpHalo,
    kIsetpY, kMovI, kImadJ, kLopX, kImadIX, kShrX, kIaddJX, kHaloCommon,
    kMain = kHaloCommon + 6,
    kLdInit = kMain + 6, kStsInit, kLdInitH, kStsInitH,
    kMovIndg0, kImadIndg, kLdsC, kStsDown, kLdsUp, kStsC, kIsetpNz, kLdNext, kStsNext,
    kImadIndgH, kLdsCH, kStsDownH, kLdsUpH, kStsCH, kIsetpNzH, kLdNextH, kStsNextH,
    kBar1, kIsetpB1, kIsetpB2, kIsetpB3, kLdsB, kLdsN, kFadd = kLdsN + 6, kFmul = kFadd + 5, kStU2,
    kBar2, kIaddK, kIsetpK, kBraK, kExit
};

struct Grid {
    uint64_t u1, u2;
    int64_t nx, ny, nz, pitch;
};

WarpProgram laplaceWarp(WarpThreads t, Grid g) {
    const uint32_t all = t.existMask();
    const int64_t bx = t.blockIdx().x, by = t.blockIdx().y;
    auto tx = [&](unsigned l) { return int64_t(t.threadIdx(l).x); };
    auto ty = [&](unsigned l) { return int64_t(t.threadIdx(l).y); };
    auto flat = [&](unsigned l) { return tx(l) + ty(l) * kBlockX; };
    // Halo element of a lane (tile coordinates, before adding the block origin).
    auto haloI = [&](unsigned l) { return ty(l) < 2 ? tx(l) : (flat(l) % 2) * (kBlockX + 1) - 1; };
    auto haloJ = [&](unsigned l) { return ty(l) < 2 ? ty(l) * (kBlockY + 1) - 1 : flat(l) / 2 - kBlockX - 1; };
    auto gi = [&](unsigned l) { return tx(l) + bx * kBlockX; };
    auto gj = [&](unsigned l) { return ty(l) + by * kBlockY; };
    auto ghi = [&](unsigned l) { return haloI(l) + bx * kBlockX; };
    auto ghj = [&](unsigned l) { return haloJ(l) + by * kBlockY; };
    auto ind = [&](unsigned l) { return (tx(l) + 1) + (ty(l) + 1) * kJoff + kKoff; };
    auto indH = [&](unsigned l) { return (haloI(l) + 1) + (haloJ(l) + 1) * kJoff + kKoff; };
    const int64_t plane = g.ny * g.pitch;
    auto global = [&](uint64_t base, int64_t e) { return base + uint64_t(e) * kFloatBytes; };
    auto smem = [](int64_t e) { return uint64_t(e) * kFloatBytes; };

    co_yield inst::alu(sassPc(kS2rTidX), all, {reg::kTidX}, {});
    co_yield inst::alu(sassPc(kS2rTidY), all, {reg::kTidY}, {});
    co_yield inst::alu(sassPc(kS2rCtaX), all, {reg::kCtaX}, {});
    co_yield inst::alu(sassPc(kS2rCtaY), all, {reg::kCtaY}, {});
    co_yield inst::alu(sassPc(kImadK), all, {reg::kK}, {reg::kTidX, reg::kTidY});
    co_yield inst::alu(sassPc(kIsetpHalo), all, {reg::kPred}, {reg::kK});
    const uint32_t haloLanes = t.lanesWhere([&](unsigned l) { return flat(l) < kHaloThreads; });
    uint32_t halo = 0;
    if (haloLanes != 0) {
        co_yield inst::alu(sassPc(kIsetpY), haloLanes, {reg::kPred}, {reg::kTidY});
        const uint32_t yHalo = t.lanesWhere(haloLanes, [&](unsigned l) { return ty(l) < 2; });
        const uint32_t xHalo = haloLanes & ~yHalo;
        if (yHalo != 0) {
            co_yield inst::alu(sassPc(kMovI), yHalo, {reg::kHi}, {reg::kTidX});
            co_yield inst::alu(sassPc(kImadJ), yHalo, {reg::kHj}, {reg::kTidY});
        }
        if (xHalo != 0) {
            co_yield inst::alu(sassPc(kLopX), xHalo, {reg::kHi}, {reg::kK});
            co_yield inst::alu(sassPc(kImadIX), xHalo, {reg::kHi}, {reg::kHi});
            co_yield inst::alu(sassPc(kShrX), xHalo, {reg::kHj}, {reg::kK});
            co_yield inst::alu(sassPc(kIaddJX), xHalo, {reg::kHj}, {reg::kHj});
        }
        co_yield inst::alu(sassPc(kHaloCommon), haloLanes, {reg::kIndH}, {reg::kHi, reg::kHj});
        co_yield inst::alu(sassPc(kHaloCommon + 1), haloLanes, {reg::kHi}, {reg::kHi, reg::kCtaX});
        co_yield inst::alu(sassPc(kHaloCommon + 2), haloLanes, {reg::kHj}, {reg::kHj, reg::kCtaY});
        co_yield inst::alu(sassPc(kHaloCommon + 3), haloLanes, {reg::kIndgH}, {reg::kHi, reg::kHj});
        co_yield inst::alu(sassPc(kHaloCommon + 4), haloLanes, {reg::kPred}, {reg::kHi});
        co_yield inst::alu(sassPc(kHaloCommon + 5), haloLanes, {reg::kPred}, {reg::kHj, reg::kPred});
        halo = t.lanesWhere(haloLanes, [&](unsigned l) {
            return ghi(l) >= 0 && ghi(l) < g.nx && ghj(l) >= 0 && ghj(l) < g.ny;
        });
    }
    co_yield inst::alu(sassPc(kMain), all, {reg::kInd}, {reg::kTidX, reg::kTidY});
    co_yield inst::alu(sassPc(kMain + 1), all, {reg::kTidX}, {reg::kTidX, reg::kCtaX});
    co_yield inst::alu(sassPc(kMain + 2), all, {reg::kTidY}, {reg::kTidY, reg::kCtaY});
    co_yield inst::alu(sassPc(kMain + 3), all, {reg::kIndg}, {reg::kTidX, reg::kTidY});
    co_yield inst::alu(sassPc(kMain + 4), all, {reg::kPred}, {reg::kTidX});
    co_yield inst::alu(sassPc(kMain + 5), all, {reg::kPred}, {reg::kTidY, reg::kPred});
    const uint32_t active = t.lanesWhere([&](unsigned l) { return gi(l) < g.nx && gj(l) < g.ny; });
    auto indg = [&](unsigned l, int64_t k) { return gi(l) + gj(l) * g.pitch + k * plane; };
    auto indgH = [&](unsigned l, int64_t k) { return ghi(l) + ghj(l) * g.pitch + k * plane; };
    if (active != 0) {
        co_yield inst::load(sassPc(kLdInit), active, {reg::kV}, {reg::kIndg}, kFloatBytes,
                            [&](unsigned l) { return global(g.u1, indg(l, 0)); });
        co_yield inst::store(sassPc(kStsInit), active, {reg::kInd, reg::kV}, kFloatBytes,
                             [&](unsigned l) { return smem(ind(l) + kKoff); }, MemSpace::Shared);
    }
    if (halo != 0) {
        co_yield inst::load(sassPc(kLdInitH), halo, {reg::kV}, {reg::kIndgH}, kFloatBytes,
                            [&](unsigned l) { return global(g.u1, indgH(l, 0)); });
        co_yield inst::store(sassPc(kStsInitH), halo, {reg::kIndH, reg::kV}, kFloatBytes,
                             [&](unsigned l) { return smem(indH(l) + kKoff); }, MemSpace::Shared);
    }
    for (int64_t k = 0; k < g.nz; ++k) {
        const bool more = k < g.nz - 1;
        if (active != 0) {
            co_yield inst::alu(sassPc(kMovIndg0), active, {reg::kIndg0}, {reg::kIndg});
            co_yield inst::alu(sassPc(kImadIndg), active, {reg::kIndg}, {reg::kIndg});
            co_yield inst::load(sassPc(kLdsC), active, {reg::kV}, {reg::kInd}, kFloatBytes,
                                [&](unsigned l) { return smem(ind(l)); }, MemSpace::Shared);
            co_yield inst::store(sassPc(kStsDown), active, {reg::kInd, reg::kV}, kFloatBytes,
                                 [&](unsigned l) { return smem(ind(l) - kKoff); }, MemSpace::Shared);
            co_yield inst::load(sassPc(kLdsUp), active, {reg::kV}, {reg::kInd}, kFloatBytes,
                                [&](unsigned l) { return smem(ind(l) + kKoff); }, MemSpace::Shared);
            co_yield inst::store(sassPc(kStsC), active, {reg::kInd, reg::kV}, kFloatBytes,
                                 [&](unsigned l) { return smem(ind(l)); }, MemSpace::Shared);
            co_yield inst::alu(sassPc(kIsetpNz), active, {reg::kPred}, {reg::kLoop});
            if (more) {
                co_yield inst::load(sassPc(kLdNext), active, {reg::kV}, {reg::kIndg}, kFloatBytes,
                                    [&](unsigned l) { return global(g.u1, indg(l, k + 1)); });
                co_yield inst::store(sassPc(kStsNext), active, {reg::kInd, reg::kV}, kFloatBytes,
                                     [&](unsigned l) { return smem(ind(l) + kKoff); }, MemSpace::Shared);
            }
        }
        if (halo != 0) {
            co_yield inst::alu(sassPc(kImadIndgH), halo, {reg::kIndgH}, {reg::kIndgH});
            co_yield inst::load(sassPc(kLdsCH), halo, {reg::kV}, {reg::kIndH}, kFloatBytes,
                                [&](unsigned l) { return smem(indH(l)); }, MemSpace::Shared);
            co_yield inst::store(sassPc(kStsDownH), halo, {reg::kIndH, reg::kV}, kFloatBytes,
                                 [&](unsigned l) { return smem(indH(l) - kKoff); }, MemSpace::Shared);
            co_yield inst::load(sassPc(kLdsUpH), halo, {reg::kV}, {reg::kIndH}, kFloatBytes,
                                [&](unsigned l) { return smem(indH(l) + kKoff); }, MemSpace::Shared);
            co_yield inst::store(sassPc(kStsCH), halo, {reg::kIndH, reg::kV}, kFloatBytes,
                                 [&](unsigned l) { return smem(indH(l)); }, MemSpace::Shared);
            co_yield inst::alu(sassPc(kIsetpNzH), halo, {reg::kPred}, {reg::kLoop});
            if (more) {
                co_yield inst::load(sassPc(kLdNextH), halo, {reg::kV}, {reg::kIndgH}, kFloatBytes,
                                    [&](unsigned l) { return global(g.u1, indgH(l, k + 1)); });
                co_yield inst::store(sassPc(kStsNextH), halo, {reg::kIndH, reg::kV}, kFloatBytes,
                                     [&](unsigned l) { return smem(indH(l) + kKoff); }, MemSpace::Shared);
            }
        }
        co_yield inst::barrier(sassPc(kBar1), all);
        if (active != 0) {
            co_yield inst::alu(sassPc(kIsetpB1), active, {reg::kPred}, {reg::kTidX});
            co_yield inst::alu(sassPc(kIsetpB2), active, {reg::kPred}, {reg::kTidY, reg::kPred});
            co_yield inst::alu(sassPc(kIsetpB3), active, {reg::kPred}, {reg::kLoop, reg::kPred});
            const uint32_t boundary = t.lanesWhere(active, [&](unsigned l) {
                return gi(l) == 0 || gi(l) == g.nx - 1 || gj(l) == 0 || gj(l) == g.ny - 1 || k == 0 || k == g.nz - 1;
            });
            const uint32_t interior = active & ~boundary;
            if (boundary != 0)
                co_yield inst::load(sassPc(kLdsB), boundary, {reg::kSum}, {reg::kInd}, kFloatBytes,
                                    [&](unsigned l) { return smem(ind(l)); }, MemSpace::Shared);
            if (interior != 0) {
                const int64_t offsets[6] = {-kIoff, kIoff, -kJoff, kJoff, -kKoff, kKoff};
                for (unsigned q = 0; q < 6; ++q) {
                    const int64_t off = offsets[q];
                    co_yield inst::load(sassPc(kLdsN + q), interior, {uint16_t(reg::kN0 + q)}, {reg::kInd}, kFloatBytes,
                                        [&, off](unsigned l) { return smem(ind(l) + off); }, MemSpace::Shared);
                }
                co_yield inst::alu(sassPc(kFadd), interior, {reg::kSum}, {reg::kN0, uint16_t(reg::kN0 + 1)});
                for (unsigned q = 1; q < 5; ++q)
                    co_yield inst::alu(sassPc(kFadd + q), interior, {reg::kSum}, {reg::kSum, uint16_t(reg::kN0 + q + 1)});
                co_yield inst::alu(sassPc(kFmul), interior, {reg::kSum}, {reg::kSum});
            }
            co_yield inst::store(sassPc(kStU2), active, {reg::kIndg0, reg::kSum}, kFloatBytes,
                                 [&](unsigned l) { return global(g.u2, indg(l, k)); });
        }
        co_yield inst::barrier(sassPc(kBar2), all);
        for (const auto& op : backEdge(all, kIaddK, reg::kLoop, reg::kPred)) co_yield op;
    }
    co_yield inst::exit(sassPc(kExit), all);
}

std::unique_ptr<Workload> makeLps(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const int64_t nx = int64_t(param(params, "nx")), ny = int64_t(param(params, "ny")), nz = int64_t(param(params, "nz"));
    const uint64_t iterations = param(params, "iterations");
    // cudaMallocPitch: rows padded to the 256-byte allocation granule.
    const int64_t pitch = int64_t(ceilDiv(uint64_t(nx) * kFloatBytes, kDeviceAllocAlign) * kDeviceAllocAlign / kFloatBytes);
    DeviceAllocator mem;
    const uint64_t u[2] = {mem.allocateFloats(uint64_t(pitch * ny * nz)), mem.allocateFloats(uint64_t(pitch * ny * nz))};
    const Dim3 grid{static_cast<unsigned>(ceilDiv(uint64_t(nx), kBlockX)), static_cast<unsigned>(ceilDiv(uint64_t(ny), kBlockY)), 1};
    std::vector<std::unique_ptr<Kernel>> kernels;
    for (uint64_t it = 0; it < iterations; ++it) {
        // The host swaps d_u1 and d_u2 after every sweep.
        const Grid g{u[it % 2], u[(it + 1) % 2], nx, ny, nz, pitch};
        kernels.push_back(makeProgramKernel("GPU_laplace3d", grid, {unsigned(kBlockX), unsigned(kBlockY), 1}, reg::kUsed,
                                            3 * kKoff * kFloatBytes, [g](const WarpThreads& t) { return laplaceWarp(t, g); }));
    }
    return std::make_unique<BasicWorkload>("lps", nlohmann::json(params), std::move(kernels));
}

} // namespace lps_kernel

WorkloadInfo lpsWorkload() {
    using namespace lps_kernel;
    return {"lps",
            "3-D Laplace solver (LPS): 32x4 blocks march through k-planes in shared memory with halo loads "
            "shared between neighbouring blocks, two barriers per plane",
            {{"nx", 96, 2, 4096, "grid points in x (ISPASS LPS: 100)"},
             {"ny", 96, 2, 4096, "grid points in y (ISPASS LPS: 100)"},
             {"nz", 64, 2, 4096, "grid points in z: loop trip count (ISPASS LPS: 100)"},
             {"iterations", 1, 1, 1000, "Jacobi sweeps, one launch each"}},
            makeLps,
            "GPGPU-Sim ISPASS 2009 benchmarks, LPS (laplace3d_kernel.cu, M. Giles)",
            WorkloadClass::BarrierHeavy};
}

} // namespace gpusim
