// 2mm: PolyBench/GPU 2MM, E = (A B) D as two matrix products with one thread per output element
// in 32 x 8 blocks (all matrices n x n here: NI = NJ = NK = NL = n):
//
//     __global__ void mm2_kernel1(float* A, float* B, float* C) {
//         int j = blockIdx.x * blockDim.x + threadIdx.x;
//         int i = blockIdx.y * blockDim.y + threadIdx.y;
//         if ((i < NI) && (j < NJ)) for (int k = 0; k < NK; k++) C[i * NJ + j] += A[i * NK + k] * B[k * NJ + j];
//     }
//     __global__ void mm2_kernel2(float* C, float* D, float* E) {
//         ... if ((i < NI) && (j < NL)) for (int k = 0; k < NJ; k++) E[i * NL + j] += C[i * NJ + k] * D[k * NL + j];
//     }
//
// A warp is one row i: the left operand is one address per warp, the right operand a coalesced
// row segment (one line when n is a multiple of 32).
//
// Modelled SASS per warp (the same listing for both kernels, X = left, Y = right, Z = output):
//
//   0x00 .. 0x70  S2R x4, IMAD j, IMAD i, ISETP, ISETP    (all existing lanes)
//   ---- lanes with i < n and j < n ----
//   0x80  LD    r7 <- Z[i*n + j]                          accumulate onto Z
//   loop k = 0 .. n-1:
//   0x90  LD    r8 <- X[i*n + k]          broadcast
//   0xa0  LD    r9 <- Y[k*n + j]          coalesced
//   0xb0  FFMA  r7 <- r8, r9, r7
//   0xc0  ST    Z[i*n + j] <- r7          stored every iteration (may alias X, Y)
//   0xd0  IADD r10   0xe0 ISETP r6   0xf0 BRA
//   ----
//   0x100 EXIT
//
// 7n + 10 instructions per warp with a lane in range, 9 without.
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

namespace two_mm_kernel {

constexpr unsigned kBlockX = 32, kBlockY = 8;

namespace reg {
constexpr uint16_t kJ = 4, kI = 5, kPred = 6, kZ = 7, kX = 8, kY = 9,
                   kK = 10;
constexpr unsigned kUsed = 11;
} // namespace reg

enum Slot : unsigned {
    kLdZ = kIndex2dSlots + kBoundsCheck2dSlots, kLdX, kLdY, kFfma, kStZ, kIadd, kIsetpLoop, kBra,
    kExit
};

struct Product {
    uint64_t x, y, z;
};

WarpProgram mmWarp(WarpThreads t, Product p, uint64_t n) {
    const uint32_t all = t.existMask();
    for (const auto& op : globalIndex2d(all, {.x = reg::kJ, .y = reg::kI})) co_yield op;
    for (const auto& op : boundsCheck2d(all, reg::kPred, {.x = reg::kJ, .y = reg::kI})) co_yield op;

    const uint32_t in = t.lanesWhere([&](unsigned l) { return t.globalY(l) < n && t.globalX(l) < n; });
    if (in != 0) {
        auto zAddr = [&](unsigned l) { return p.z + (t.globalY(l) * n + t.globalX(l)) * kFloatBytes; };
        co_yield inst::load(sassPc(kLdZ), in, {reg::kZ}, {reg::kJ, reg::kI}, kFloatBytes, zAddr);
        for (uint64_t k = 0; k < n; ++k) {
            co_yield inst::load(sassPc(kLdX), in, {reg::kX}, {reg::kI, reg::kK}, kFloatBytes,
                                [&](unsigned l) { return p.x + (t.globalY(l) * n + k) * kFloatBytes; });
            co_yield inst::load(sassPc(kLdY), in, {reg::kY}, {reg::kJ, reg::kK}, kFloatBytes,
                                [&](unsigned l) { return p.y + (k * n + t.globalX(l)) * kFloatBytes; });
            co_yield inst::alu(sassPc(kFfma), in, {reg::kZ}, {reg::kX, reg::kY, reg::kZ});
            co_yield inst::store(sassPc(kStZ), in, {reg::kJ, reg::kI, reg::kZ}, kFloatBytes, zAddr);
            for (const auto& op : backEdge(in, kIadd, reg::kK, reg::kPred)) co_yield op;
        }
    }
    co_yield inst::exit(sassPc(kExit), all);
}

std::unique_ptr<Workload> makeTwoMm(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t n = param(params, "n");
    // mm2Cuda's cudaMalloc order.
    DeviceAllocator mem;
    const uint64_t a = mem.allocateFloats(n * n);
    const uint64_t b = mem.allocateFloats(n * n);
    const uint64_t c = mem.allocateFloats(n * n);
    const uint64_t d = mem.allocateFloats(n * n);
    const uint64_t e = mem.allocateFloats(n * n);
    const Dim3 grid{static_cast<unsigned>(ceilDiv(n, kBlockX)), static_cast<unsigned>(ceilDiv(n, kBlockY)), 1};
    std::vector<std::unique_ptr<Kernel>> kernels;
    for (const auto& [name, prod] : {std::pair<const char*, Product>{"mm2_kernel1", {a, b, c}},
                                     std::pair<const char*, Product>{"mm2_kernel2", {c, d, e}}}) {
        const Product pr = prod;
        kernels.push_back(makeProgramKernel(name, grid, {kBlockX, kBlockY, 1}, reg::kUsed, 0,
                                            [pr, n](const WarpThreads& t) { return mmWarp(t, pr, n); }));
    }
    return std::make_unique<BasicWorkload>("2mm", nlohmann::json(params), std::move(kernels));
}

} // namespace two_mm_kernel

WorkloadInfo twoMmWorkload() {
    using namespace two_mm_kernel;
    return {"2mm",
            "PolyBench/GPU 2MM, E = (A B) D as two naive matrix products: broadcast left operand, "
            "coalesced right operand",
            {{"n", 96, 32, 4096, "matrix dimension NI = NJ = NK = NL (PolyBench/GPU default 2048)"}},
            makeTwoMm,
            "PolyBench/GPU 1.0, 2MM (2mm.cu)",
            WorkloadClass::Coherent};
}

} // namespace gpusim
