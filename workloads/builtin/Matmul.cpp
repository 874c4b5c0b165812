// matmul: the CUDA SDK's tiled matrix multiplication (matrixMul), C = A B for n x n matrices with
// T x T tiles staged in shared memory:
//
//     template <int BLOCK_SIZE> __global__ void matrixMulCUDA(float* C, float* A, float* B, int wA, int wB) {
//         int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
//         int aBegin = wA * BLOCK_SIZE * by, aEnd = aBegin + wA - 1, aStep = BLOCK_SIZE;
//         int bBegin = BLOCK_SIZE * bx, bStep = BLOCK_SIZE * wB;
//         float Csub = 0;
//         for (int a = aBegin, b = bBegin; a <= aEnd; a += aStep, b += bStep) {
//             __shared__ float As[BLOCK_SIZE][BLOCK_SIZE];
//             __shared__ float Bs[BLOCK_SIZE][BLOCK_SIZE];
//             As[ty][tx] = A[a + wA * ty + tx];
//             Bs[ty][tx] = B[b + wB * ty + tx];
//             __syncthreads();
//             #pragma unroll
//             for (int k = 0; k < BLOCK_SIZE; ++k) Csub += As[ty][k] * Bs[k][tx];
//             __syncthreads();
//         }
//         int c = wB * BLOCK_SIZE * by + BLOCK_SIZE * bx;
//         C[c + wB * ty + tx] = Csub;
//     }
//
// wA = wB = n, grid (n/T, n/T), block T x T (the SDK picks 16 before Fermi, 32 from Fermi on;
// default here 16). Every global access is a coalesced row segment of T floats (a warp covers
// 32 / T rows); the unrolled inner product reads shared memory only.
//
// Modelled SASS per warp:
//
//   0x00 .. 0x30  S2R CTAID.X, CTAID.Y, TID.X, TID.Y
//   0x40 IMAD aBegin  0x50 IADD aEnd  0x60 IMAD bBegin  0x70 MOV Csub = 0
//   loop over the n / T tiles:
//     0x80 LD A[a + wA*ty + tx]  0x90 LD B[b + wB*ty + tx]  0xa0 STS As[ty][tx]  0xb0 STS Bs[ty][tx]
//     0xc0 BAR
//     T times (unrolled, own PCs): LDS As[ty][k], LDS Bs[k][tx], FFMA
//     BAR, IADD a, IADD b, ISETP, BRA
//   IMAD c, ST C[c + wB*ty + tx], EXIT
//
// 11 + (n / T)(3 T + 10) instructions per warp.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinSupport.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"

namespace gpusim {

namespace matmul_kernel {

namespace reg {
constexpr uint16_t kCtaX = 0, kCtaY = 1, kTidX = 2, kTidY = 3, kA = 4, kAEnd = 5, kB = 6, kCsub = 7, kVa = 8,
                   kVb = 9, kAs = 10, kBs = 11, kPred = 12, kC = 13;
constexpr unsigned kUsed = 14;
} // namespace reg

enum Head : unsigned { kS2rCtaX, kS2rCtaY, kS2rTidX, kS2rTidY, kImadA, kIaddAEnd, kImadB, kMovC, kLdA, kLdB,
                       kStsA, kStsB, kBar1, kInner };

WarpProgram matmulWarp(WarpThreads t, uint64_t a, uint64_t b, uint64_t c, uint64_t n, uint64_t tile) {
    const uint32_t all = t.existMask();
    const unsigned kBar2 = kInner + 3 * unsigned(tile);
    const unsigned kIaddA = kBar2 + 1, kIaddB = kBar2 + 2, kIsetp = kBar2 + 3, kBra = kBar2 + 4, kImadC = kBar2 + 5,
                   kSt = kBar2 + 6, kExit = kBar2 + 7;
    const uint64_t bx = t.blockIdx().x, by = t.blockIdx().y;
    auto tx = [&](unsigned l) { return uint64_t(t.threadIdx(l).x); };
    auto ty = [&](unsigned l) { return uint64_t(t.threadIdx(l).y); };
    const uint64_t bsBase = tile * tile * kFloatBytes;
    co_yield inst::alu(sassPc(kS2rCtaX), all, {reg::kCtaX}, {});
    co_yield inst::alu(sassPc(kS2rCtaY), all, {reg::kCtaY}, {});
    co_yield inst::alu(sassPc(kS2rTidX), all, {reg::kTidX}, {});
    co_yield inst::alu(sassPc(kS2rTidY), all, {reg::kTidY}, {});
    co_yield inst::alu(sassPc(kImadA), all, {reg::kA}, {reg::kCtaY});
    co_yield inst::alu(sassPc(kIaddAEnd), all, {reg::kAEnd}, {reg::kA});
    co_yield inst::alu(sassPc(kImadB), all, {reg::kB}, {reg::kCtaX});
    co_yield inst::alu(sassPc(kMovC), all, {reg::kCsub}, {});
    for (uint64_t step = 0; step < n / tile; ++step) {
        const uint64_t aPos = n * tile * by + step * tile, bPos = tile * bx + step * tile * n;
        co_yield inst::load(sassPc(kLdA), all, {reg::kVa}, {reg::kA, reg::kTidX, reg::kTidY}, kFloatBytes,
                            [&](unsigned l) { return a + (aPos + n * ty(l) + tx(l)) * kFloatBytes; });
        co_yield inst::load(sassPc(kLdB), all, {reg::kVb}, {reg::kB, reg::kTidX, reg::kTidY}, kFloatBytes,
                            [&](unsigned l) { return b + (bPos + n * ty(l) + tx(l)) * kFloatBytes; });
        co_yield inst::store(sassPc(kStsA), all, {reg::kTidX, reg::kVa}, kFloatBytes,
                             [&](unsigned l) { return (ty(l) * tile + tx(l)) * kFloatBytes; }, MemSpace::Shared);
        co_yield inst::store(sassPc(kStsB), all, {reg::kTidX, reg::kVb}, kFloatBytes,
                             [&](unsigned l) { return bsBase + (ty(l) * tile + tx(l)) * kFloatBytes; }, MemSpace::Shared);
        co_yield inst::barrier(sassPc(kBar1), all);
        for (uint64_t k = 0; k < tile; ++k) {
            const unsigned s = kInner + 3 * unsigned(k);
            co_yield inst::load(sassPc(s), all, {reg::kAs}, {reg::kTidY}, kFloatBytes,
                                [&](unsigned l) { return (ty(l) * tile + k) * kFloatBytes; }, MemSpace::Shared);
            co_yield inst::load(sassPc(s + 1), all, {reg::kBs}, {reg::kTidX}, kFloatBytes,
                                [&](unsigned l) { return bsBase + (k * tile + tx(l)) * kFloatBytes; }, MemSpace::Shared);
            co_yield inst::alu(sassPc(s + 2), all, {reg::kCsub}, {reg::kAs, reg::kBs, reg::kCsub});
        }
        co_yield inst::barrier(sassPc(kBar2), all);
        co_yield inst::alu(sassPc(kIaddA), all, {reg::kA}, {reg::kA});
        co_yield inst::alu(sassPc(kIaddB), all, {reg::kB}, {reg::kB});
        co_yield inst::alu(sassPc(kIsetp), all, {reg::kPred}, {reg::kA, reg::kAEnd});
        co_yield inst::alu(sassPc(kBra), all, {}, {reg::kPred});
    }
    co_yield inst::alu(sassPc(kImadC), all, {reg::kC}, {reg::kCtaX, reg::kCtaY});
    co_yield inst::store(sassPc(kSt), all, {reg::kC, reg::kCsub}, kFloatBytes,
                         [&](unsigned l) { return c + (n * tile * by + tile * bx + n * ty(l) + tx(l)) * kFloatBytes; });
    co_yield inst::exit(sassPc(kExit), all);
}

std::unique_ptr<Workload> makeMatmul(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t n = param(params, "n"), tile = param(params, "tile");
    requireParam(tile == 8 || tile == 16 || tile == 32, "matmul", "tile: must be 8, 16 or 32, got " + std::to_string(tile));
    requireParam(n % tile == 0, "matmul",
                 "n: must be a multiple of tile (" + std::to_string(tile) + "), got " + std::to_string(n));
    // matrixMultiply()'s cudaMalloc order.
    DeviceAllocator mem;
    const uint64_t a = mem.allocateFloats(n * n), b = mem.allocateFloats(n * n), c = mem.allocateFloats(n * n);
    const unsigned blocks = static_cast<unsigned>(n / tile), t = static_cast<unsigned>(tile);
    std::vector<std::unique_ptr<Kernel>> kernels;
    kernels.push_back(makeProgramKernel("matrixMulCUDA", {blocks, blocks, 1}, {t, t, 1}, reg::kUsed,
                                        2 * t * t * kFloatBytes, [a, b, c, n, tile](const WarpThreads& w) {
                                            return matmulWarp(w, a, b, c, n, tile);
                                        }));
    return std::make_unique<BasicWorkload>("matmul", nlohmann::json(params), std::move(kernels));
}

} // namespace matmul_kernel

WorkloadInfo matmulWorkload() {
    using namespace matmul_kernel;
    return {"matmul",
            "CUDA SDK matrixMul: T x T shared-memory tiles, two barriers per tile, unrolled inner product",
            {{"n", 192, 8, 8192, "matrix dimension, a multiple of tile (SDK default 320 x 320 times 640 x 320)"},
             {"tile", 16, 8, 32, "tile edge BLOCK_SIZE: 8, 16 or 32 (SDK: 32 on Fermi and later)"}},
            makeMatmul,
            "CUDA SDK, matrixMul (matrixMul.cu)",
            WorkloadClass::BarrierHeavy};
}

} // namespace gpusim
