// syr2k: PolyBench/GPU SYR2K, C = alpha A B^T + alpha B A^T + beta C for an n x n C and n x m A,
// B, one thread per element of C in 32 x 8 blocks:
//
//     __global__ void syr2k_kernel(float* a, float* b, float* c) {
//         int j = blockIdx.x * blockDim.x + threadIdx.x;
//         int i = blockIdx.y * blockDim.y + threadIdx.y;
//         if ((i < N) && (j < N)) {
//             c[i * N + j] *= BETA;
//             for (int k = 0; k < M; k++)
//                 c[i * N + j] += ALPHA * a[i * M + k] * b[j * M + k] + ALPHA * b[i * M + k] * a[j * M + k];
//         }
//     }
//
// Per iteration two warp-wide broadcasts (a[i][k], b[i][k]) and two row-per-lane loads
// (b[j][k], a[j][k]: 32 lines each).
//
// Modelled SASS per warp:
//
//   0x00 .. 0x70  S2R x4, IMAD j, IMAD i, ISETP, ISETP    as syrk (all existing lanes)
//   ---- lanes with i < N and j < N ----
//   0x80  LD    r7 <- c[i*N + j]          0x90 FMUL r7 (*= BETA)     0xa0 ST c[i*N + j] <- r7
//   loop k = 0 .. M-1:
//   0xb0  LD    r8  <- a[i*M + k]         broadcast
//   0xc0  LD    r9  <- b[j*M + k]         32 lines
//   0xd0  LD    r10 <- b[i*M + k]         broadcast
//   0xe0  LD    r11 <- a[j*M + k]         32 lines
//   0xf0  FMUL  r12 <- r8                 ALPHA * a[i][k]
//   0x100 FMUL  r12 <- r12, r9            * b[j][k]
//   0x110 FMUL  r13 <- r10                ALPHA * b[i][k]
//   0x120 FFMA  r12 <- r13, r11, r12      * a[j][k] + first product
//   0x130 FADD  r7 <- r7, r12             c +=
//   0x140 ST    c[i*N + j] <- r7          stored every iteration (may alias a, b)
//   0x150 IADD  r14   0x160 ISETP r6   0x170 BRA
//   ----
//   0x180 EXIT
//
// 13m + 12 instructions per warp with a lane in range, 9 without.
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

constexpr unsigned kBlockX = 32, kBlockY = 8;

namespace reg {
constexpr uint16_t kCtaX = 0, kCtaY = 1, kTidX = 2, kTidY = 3, kJ = 4, kI = 5, kPred = 6, kC = 7, kAi = 8,
                   kBj = 9, kBi = 10, kAj = 11, kT1 = 12, kT2 = 13, kK = 14;
constexpr unsigned kUsed = 15;
} // namespace reg

enum Slot : unsigned {
    kS2rCtaX, kS2rCtaY, kS2rTidX, kS2rTidY, kImadJ, kImadI, kIsetpJ, kIsetpI,
    kLdC, kFmulBeta, kStC,
    kLdAi, kLdBj, kLdBi, kLdAj, kFmul1, kFmul2, kFmul3, kFfma, kFadd, kStAcc, kIadd, kIsetpLoop, kBra,
    kExit
};

struct Arrays {
    uint64_t a, b, c;
};

WarpProgram syr2kWarp(WarpThreads t, Arrays arr, uint64_t n, uint64_t m) {
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
            auto rowI = [&](uint64_t base) {
                return [&t, base, m, k](unsigned l) { return base + (t.globalY(l) * m + k) * kFloatBytes; };
            };
            auto rowJ = [&](uint64_t base) {
                return [&t, base, m, k](unsigned l) { return base + (t.globalX(l) * m + k) * kFloatBytes; };
            };
            co_yield inst::load(sassPc(kLdAi), in, {reg::kAi}, {reg::kI, reg::kK}, kFloatBytes, rowI(arr.a));
            co_yield inst::load(sassPc(kLdBj), in, {reg::kBj}, {reg::kJ, reg::kK}, kFloatBytes, rowJ(arr.b));
            co_yield inst::load(sassPc(kLdBi), in, {reg::kBi}, {reg::kI, reg::kK}, kFloatBytes, rowI(arr.b));
            co_yield inst::load(sassPc(kLdAj), in, {reg::kAj}, {reg::kJ, reg::kK}, kFloatBytes, rowJ(arr.a));
            co_yield inst::alu(sassPc(kFmul1), in, {reg::kT1}, {reg::kAi});
            co_yield inst::alu(sassPc(kFmul2), in, {reg::kT1}, {reg::kT1, reg::kBj});
            co_yield inst::alu(sassPc(kFmul3), in, {reg::kT2}, {reg::kBi});
            co_yield inst::alu(sassPc(kFfma), in, {reg::kT1}, {reg::kT2, reg::kAj, reg::kT1});
            co_yield inst::alu(sassPc(kFadd), in, {reg::kC}, {reg::kC, reg::kT1});
            co_yield inst::store(sassPc(kStAcc), in, {reg::kJ, reg::kI, reg::kC}, kFloatBytes, cAddr);
            co_yield inst::alu(sassPc(kIadd), in, {reg::kK}, {reg::kK});
            co_yield inst::alu(sassPc(kIsetpLoop), in, {reg::kPred}, {reg::kK});
            co_yield inst::alu(sassPc(kBra), in, {}, {reg::kPred});
        }
    }
    co_yield inst::exit(sassPc(kExit), all);
}

std::unique_ptr<Workload> makeSyr2k(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t n = param(params, "n"), m = param(params, "m");
    // syr2kCuda's cudaMalloc order.
    DeviceAllocator mem;
    Arrays arr;
    arr.a = mem.allocateFloats(n * m);
    arr.b = mem.allocateFloats(n * m);
    arr.c = mem.allocateFloats(n * n);
    const Dim3 grid{static_cast<unsigned>(ceilDiv(n, kBlockX)), static_cast<unsigned>(ceilDiv(n, kBlockY)), 1};
    std::vector<std::unique_ptr<Kernel>> kernels;
    kernels.push_back(makeProgramKernel("syr2k_kernel", grid, {kBlockX, kBlockY, 1}, reg::kUsed, 0,
                                        [arr, n, m](const WarpThreads& t) { return syr2kWarp(t, arr, n, m); }));
    return std::make_unique<BasicWorkload>("syr2k", nlohmann::json(params), std::move(kernels));
}

} // namespace

WorkloadInfo syr2kWorkload() {
    return {"syr2k",
            "PolyBench/GPU SYR2K, C = alpha A B^T + alpha B A^T + beta C: two row-per-lane loads "
            "(32 lines each) and two broadcasts per iteration",
            {{"n", 96, 32, 4096, "rows and columns of C, rows of A and B (N; PolyBench/GPU default 2048)"},
             {"m", 96, 1, 4096, "columns of A and B (M; PolyBench/GPU default 2048)"}},
            makeSyr2k,
            "PolyBench/GPU 1.0, SYR2K (syr2k.cu)",
            WorkloadClass::MemoryDivergent};
}

} // namespace gpusim
