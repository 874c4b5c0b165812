#pragma once
// The PolyBench/GPU symmetric rank-k update shape shared by SYRK and SYR2K: one thread per element
// of the n x n C in 32 x 8 blocks, C scaled by beta, then a loop over k adding products of rows
// of the n x m operands:
//
//     int j = blockIdx.x * blockDim.x + threadIdx.x;
//     int i = blockIdx.y * blockDim.y + threadIdx.y;
//     if ((i < N) && (j < N)) {
//         c[i * N + j] *= beta;
//         for (int k = 0; k < M; k++) c[i * N + j] += <products of a[.][k] (and b[.][k])>;
//     }
//
// A warp is one row i of the block: x[i*M + k] is one address for the whole warp (broadcast),
// x[j*M + k] one row of x per lane (lanes 4m bytes apart: 32 lines per warp access).
// SYRK adds alpha a[i][k] a[j][k]; SYR2K adds alpha a[i][k] b[j][k] + alpha b[i][k] a[j][k].
//
// Modelled SASS per warp (the SYR2K column where it differs):
//
//   0x00  S2R   r0 <- SR_CTAID.X                       all existing lanes
//   0x10  S2R   r1 <- SR_CTAID.Y
//   0x20  S2R   r2 <- SR_TID.X
//   0x30  S2R   r3 <- SR_TID.Y
//   0x40  IMAD  r4 <- r0, r2                           j
//   0x50  IMAD  r5 <- r1, r3                           i
//   0x60  ISETP r6 <- r4                               j < N
//   0x70  ISETP r6 <- r5, r6                           && i < N
//   ---- lanes with i < N and j < N ----
//   0x80  LD    r7 <- c[i*N + j]         src r4, r5
//   0x90  FMUL  r7 <- r7                               *= beta
//   0xa0  ST    c[i*N + j] <- r7         src r4, r5, r7
//   loop k = 0 .. M-1 (k in r11; SYR2K r14):
//         SYRK                                         SYR2K
//   0xb0  LD    r8 <- a[i*M + k]  broadcast            LD    r8  <- a[i*M + k]  broadcast
//   0xc0  LD    r9 <- a[j*M + k]  32 lines             LD    r9  <- b[j*M + k]  32 lines
//   0xd0  FMUL  r10 <- r8         alpha * a[i][k]      LD    r10 <- b[i*M + k]  broadcast
//   0xe0  FFMA  r7 <- r10, r9, r7                      LD    r11 <- a[j*M + k]  32 lines
//   0xf0  ST    c[i*N + j] <- r7                       FMUL  r12 <- r8          alpha * a[i][k]
//   0x100 IADD  r11                                    FMUL  r12 <- r12, r9     * b[j][k]
//   0x110 ISETP r6 <- r11                              FMUL  r13 <- r10         alpha * b[i][k]
//   0x120 BRA   src r6                                 FFMA  r12 <- r13, r11, r12
//   0x130 EXIT (after the loop)                        FADD  r7 <- r7, r12      c +=
//   0x140                                              ST    c[i*N + j] <- r7
//   0x150 .. 0x170                                     IADD r14, ISETP r6, BRA
//   ----
//   0x180                                              EXIT
//
// c is stored every iteration: c, a and b may alias, so nvcc cannot sink the store. Loads carry
// their index registers as sources (r5 or r4 with k). 8m + 12 instructions per warp with a lane
// in range for SYRK, 13m + 12 for SYR2K; 9 without.
#include <cstdint>
#include <memory>
#include <string>

#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinSupport.hpp"
#include "workloads/builtin/KernelBuilder.hpp"

namespace gpusim {

struct RankUpdatePass {
    uint64_t a, b, c;  // b is read by SYR2K only
    uint64_t n, m;     // C is n x n, the operands n x m
    bool twoOperands;  // SYR2K
};

namespace rankupdate {

inline constexpr unsigned kBlockX = 32, kBlockY = 8;  // DIM_THREAD_BLOCK_X, _Y

namespace reg {
inline constexpr uint16_t kJ = 4, kI = 5, kPred = 6, kC = 7, kAi = 8;
} // namespace reg

enum Slot : unsigned { kLdC = kIndex2dSlots + kBoundsCheck2dSlots, kFmulBeta, kStC, kLdAi, kLoopRest };

// What follows a[i][k] in the loop, per kernel.
namespace syrk {
inline constexpr uint16_t kAj = 9, kScaled = 10, kK = 11;
inline constexpr unsigned kRegsUsed = 12;
enum Slot : unsigned { kLdAj = kLoopRest, kFmulAlpha, kFfma, kStAcc, kBackEdge, kExit = kBackEdge + kBackEdgeSlots };
} // namespace syrk
namespace syr2k {
inline constexpr uint16_t kBj = 9, kBi = 10, kAj = 11, kT1 = 12, kT2 = 13, kK = 14;
inline constexpr unsigned kRegsUsed = 15;
enum Slot : unsigned {
    kLdBj = kLoopRest, kLdBi, kLdAj, kFmul1, kFmul2, kFmul3, kFfma, kFadd, kStAcc, kBackEdge,
    kExit = kBackEdge + kBackEdgeSlots
};
} // namespace syr2k

inline WarpProgram warp(WarpThreads t, RankUpdatePass p) {
    const uint32_t all = t.existMask();
    const uint16_t counter = p.twoOperands ? syr2k::kK : syrk::kK;
    const unsigned stAcc = p.twoOperands ? unsigned(syr2k::kStAcc) : unsigned(syrk::kStAcc);
    const unsigned exitSlot = p.twoOperands ? unsigned(syr2k::kExit) : unsigned(syrk::kExit);
    for (const auto& op : globalIndex2d(all)) co_yield op;
    for (const auto& op : boundsCheck2d(all, reg::kPred)) co_yield op;

    const uint32_t in = t.lanesWhere([&](unsigned l) { return t.globalY(l) < p.n && t.globalX(l) < p.n; });
    if (in != 0) {
        auto cAddr = [&](unsigned l) { return p.c + (t.globalY(l) * p.n + t.globalX(l)) * kFloatBytes; };
        co_yield inst::load(sassPc(kLdC), in, {reg::kC}, {reg::kJ, reg::kI}, kFloatBytes, cAddr);
        co_yield inst::alu(sassPc(kFmulBeta), in, {reg::kC}, {reg::kC});
        co_yield inst::store(sassPc(kStC), in, {reg::kJ, reg::kI, reg::kC}, kFloatBytes, cAddr);
        for (uint64_t k = 0; k < p.m; ++k) {
            auto rowI = [&](uint64_t base) {
                return [&t, base, &p, k](unsigned l) { return base + (t.globalY(l) * p.m + k) * kFloatBytes; };
            };
            auto rowJ = [&](uint64_t base) {
                return [&t, base, &p, k](unsigned l) { return base + (t.globalX(l) * p.m + k) * kFloatBytes; };
            };
            co_yield inst::load(sassPc(kLdAi), in, {reg::kAi}, {reg::kI, counter}, kFloatBytes, rowI(p.a));
            if (!p.twoOperands) {
                using namespace syrk;
                co_yield inst::load(sassPc(kLdAj), in, {kAj}, {reg::kJ, kK}, kFloatBytes, rowJ(p.a));
                co_yield inst::alu(sassPc(kFmulAlpha), in, {kScaled}, {reg::kAi});
                co_yield inst::alu(sassPc(kFfma), in, {reg::kC}, {kScaled, kAj, reg::kC});
            } else {
                using namespace syr2k;
                co_yield inst::load(sassPc(kLdBj), in, {kBj}, {reg::kJ, kK}, kFloatBytes, rowJ(p.b));
                co_yield inst::load(sassPc(kLdBi), in, {kBi}, {reg::kI, kK}, kFloatBytes, rowI(p.b));
                co_yield inst::load(sassPc(kLdAj), in, {kAj}, {reg::kJ, kK}, kFloatBytes, rowJ(p.a));
                co_yield inst::alu(sassPc(kFmul1), in, {kT1}, {reg::kAi});
                co_yield inst::alu(sassPc(kFmul2), in, {kT1}, {kT1, kBj});
                co_yield inst::alu(sassPc(kFmul3), in, {kT2}, {kBi});
                co_yield inst::alu(sassPc(kFfma), in, {kT1}, {kT2, kAj, kT1});
                co_yield inst::alu(sassPc(kFadd), in, {reg::kC}, {reg::kC, kT1});
            }
            co_yield inst::store(sassPc(stAcc), in, {reg::kJ, reg::kI, reg::kC}, kFloatBytes, cAddr);
            for (const auto& op : backEdge(in, stAcc + 1, counter, reg::kPred)) co_yield op;
        }
    }
    co_yield inst::exit(sassPc(exitSlot), all);
}

} // namespace rankupdate

inline std::unique_ptr<Kernel> rankUpdateKernel(const std::string& name, RankUpdatePass pass) {
    using namespace rankupdate;
    const Dim3 grid{static_cast<unsigned>(ceilDiv(pass.n, kBlockX)), static_cast<unsigned>(ceilDiv(pass.n, kBlockY)),
                    1};
    return makeProgramKernel(name, grid, {kBlockX, kBlockY, 1},
                             pass.twoOperands ? syr2k::kRegsUsed : syrk::kRegsUsed, 0,
                             [pass](const WarpThreads& t) { return warp(t, pass); });
}

} // namespace gpusim
