// syrk: PolyBench/GPU SYRK, C = alpha A A^T + beta C for an n x n C and an n x m A, one thread
// per element of C in 32 x 8 blocks:
//
//     __global__ void syrk_kernel(float alpha, float beta, float* a, float* c) {
//         int j = blockIdx.x * blockDim.x + threadIdx.x;
//         int i = blockIdx.y * blockDim.y + threadIdx.y;
//         if ((i < NI) && (j < NI)) {
//             c[i * NI + j] *= beta;
//             for (int k = 0; k < NJ; k++) c[i * NI + j] += alpha * a[i * NJ + k] * a[j * NJ + k];
//         }
//     }
//
// A warp is one row i of the block: a[i*NJ + k] is one address for the whole warp, a[j*NJ + k]
// one row of A per lane (lanes 4m bytes apart: 32 lines per warp access).
//
// Modelled SASS per warp:
//
//   0x00  S2R   r0 <- SR_CTAID.X                       all existing lanes
//   0x10  S2R   r1 <- SR_CTAID.Y
//   0x20  S2R   r2 <- SR_TID.X
//   0x30  S2R   r3 <- SR_TID.Y
//   0x40  IMAD  r4 <- r0, r2                           j
//   0x50  IMAD  r5 <- r1, r3                           i
//   0x60  ISETP r6 <- r4                               j < NI
//   0x70  ISETP r6 <- r5, r6                           && i < NI
//   ---- lanes with i < NI and j < NI ----
//   0x80  LD    r7 <- c[i*NI + j]        src r4, r5
//   0x90  FMUL  r7 <- r7                               *= beta
//   0xa0  ST    c[i*NI + j] <- r7        src r4, r5, r7
//   loop k = 0 .. NJ-1:
//   0xb0  LD    r8 <- a[i*NJ + k]        src r5, r11   one address for the warp
//   0xc0  LD    r9 <- a[j*NJ + k]        src r4, r11   32 lines
//   0xd0  FMUL  r10 <- r8                              alpha * a[i][k]
//   0xe0  FFMA  r7 <- r10, r9, r7
//   0xf0  ST    c[i*NI + j] <- r7        src r4, r5, r7   (c and a may alias: stored every time)
//   0x100 IADD  r11 <- r11
//   0x110 ISETP r6 <- r11
//   0x120 BRA   src r6
//   ----
//   0x130 EXIT
//
// 8m + 12 instructions per warp with a lane in range, 9 without.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinSupport.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"

namespace gpusim {

namespace {

constexpr unsigned kBlockX = 32, kBlockY = 8;  // DIM_THREAD_BLOCK_X, _Y

namespace reg {
constexpr uint16_t kCtaX = 0, kCtaY = 1, kTidX = 2, kTidY = 3, kJ = 4, kI = 5, kPred = 6, kC = 7, kAi = 8,
                   kAj = 9, kScaled = 10, kK = 11;
constexpr unsigned kUsed = 12;
} // namespace reg

enum Slot : unsigned {
    kS2rCtaX, kS2rCtaY, kS2rTidX, kS2rTidY, kImadJ, kImadI, kIsetpJ, kIsetpI,
    kLdC, kFmulBeta, kStC,
    kLdAi, kLdAj, kFmulAlpha, kFfma, kStAcc, kIadd, kIsetpLoop, kBra,
    kExit
};

struct Arrays {
    uint64_t a, c;
};

WarpProgram syrkWarp(WarpThreads t, Arrays arr, uint64_t n, uint64_t m) {
    const uint32_t all = t.existMask();
    co_yield inst::alu(sassPc(kS2rCtaX), all, {reg::kCtaX}, {});
    co_yield inst::alu(sassPc(kS2rCtaY), all, {reg::kCtaY}, {});
    co_yield inst::alu(sassPc(kS2rTidX), all, {reg::kTidX}, {});
    co_yield inst::alu(sassPc(kS2rTidY), all, {reg::kTidY}, {});
    co_yield inst::alu(sassPc(kImadJ), all, {reg::kJ}, {reg::kCtaX, reg::kTidX});
    co_yield inst::alu(sassPc(kImadI), all, {reg::kI}, {reg::kCtaY, reg::kTidY});
    co_yield inst::alu(sassPc(kIsetpJ), all, {reg::kPred}, {reg::kJ});
    co_yield inst::alu(sassPc(kIsetpI), all, {reg::kPred}, {reg::kI, reg::kPred});

    const uint32_t in = t.lanesWhere([&](unsigned l) { return t.globalY(l) < n && t.globalX(l) < n; });
    if (in != 0) {
        auto cAddr = [&](unsigned l) { return arr.c + (t.globalY(l) * n + t.globalX(l)) * kFloatBytes; };
        co_yield inst::load(sassPc(kLdC), in, {reg::kC}, {reg::kJ, reg::kI}, kFloatBytes, cAddr);
        co_yield inst::alu(sassPc(kFmulBeta), in, {reg::kC}, {reg::kC});
        co_yield inst::store(sassPc(kStC), in, {reg::kJ, reg::kI, reg::kC}, kFloatBytes, cAddr);
        for (uint64_t k = 0; k < m; ++k) {
            co_yield inst::load(sassPc(kLdAi), in, {reg::kAi}, {reg::kI, reg::kK}, kFloatBytes,
                                [&](unsigned l) { return arr.a + (t.globalY(l) * m + k) * kFloatBytes; });
            co_yield inst::load(sassPc(kLdAj), in, {reg::kAj}, {reg::kJ, reg::kK}, kFloatBytes,
                                [&](unsigned l) { return arr.a + (t.globalX(l) * m + k) * kFloatBytes; });
            co_yield inst::alu(sassPc(kFmulAlpha), in, {reg::kScaled}, {reg::kAi});
            co_yield inst::alu(sassPc(kFfma), in, {reg::kC}, {reg::kScaled, reg::kAj, reg::kC});
            co_yield inst::store(sassPc(kStAcc), in, {reg::kJ, reg::kI, reg::kC}, kFloatBytes, cAddr);
            co_yield inst::alu(sassPc(kIadd), in, {reg::kK}, {reg::kK});
            co_yield inst::alu(sassPc(kIsetpLoop), in, {reg::kPred}, {reg::kK});
            co_yield inst::alu(sassPc(kBra), in, {}, {reg::kPred});
        }
    }
    co_yield inst::exit(sassPc(kExit), all);
}

std::unique_ptr<Workload> makeSyrk(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t n = param(params, "n"), m = param(params, "m");
    // syrkCuda's cudaMalloc order.
    DeviceAllocator mem;
    Arrays arr;
    arr.a = mem.allocateFloats(n * m);
    arr.c = mem.allocateFloats(n * n);
    const Dim3 grid{static_cast<unsigned>(ceilDiv(n, kBlockX)), static_cast<unsigned>(ceilDiv(n, kBlockY)), 1};
    std::vector<std::unique_ptr<Kernel>> kernels;
    kernels.push_back(makeProgramKernel("syrk_kernel", grid, {kBlockX, kBlockY, 1}, reg::kUsed, 0,
                                        [arr, n, m](const WarpThreads& t) { return syrkWarp(t, arr, n, m); }));
    return std::make_unique<BasicWorkload>("syrk", nlohmann::json(params), std::move(kernels));
}

} // namespace

WorkloadInfo syrkWorkload() {
    return {"syrk",
            "PolyBench/GPU SYRK, C = alpha A A^T + beta C: per lane a row of A (32 lines per access), "
            "plus a warp-wide broadcast",
            {{"n", 128, 32, 4096, "rows and columns of C, rows of A (NI; PolyBench/GPU default 1024)"},
             {"m", 128, 1, 4096, "columns of A (NJ; PolyBench/GPU default 1024)"}},
            makeSyrk,
            "PolyBench/GPU 1.0, SYRK (syrk.cu)",
            WorkloadClass::MemoryDivergent};
}

} // namespace gpusim
