// 3dconv: PolyBench/GPU 3DCONV, a 3 x 3 x 3 convolution of an n x n x n volume, launched once per
// interior i-plane (i = 1 .. n-2) with one thread per (j, k) in 32 x 8 blocks:
//
//     __global__ void convolution3D_kernel(float* A, float* B, int i) {
//         int k = blockIdx.x * blockDim.x + threadIdx.x;
//         int j = blockIdx.y * blockDim.y + threadIdx.y;
//         if ((i < NI-1) && (j < NJ-1) && (k < NK-1) && (i > 0) && (j > 0) && (k > 0))
//             B[i][j][k] = c11 * A[i-1][j-1][k-1] + c13 * A[i+1][j-1][k-1] + c21 * A[i-1][j-1][k-1]
//                        + c23 * A[i+1][j-1][k-1] + c31 * A[i-1][j-1][k-1] + c33 * A[i+1][j-1][k-1]
//                        + c12 * A[i][j-1][k]     + c22 * A[i][j][k]       + c32 * A[i][j+1][k]
//                        + c11 * A[i-1][j-1][k+1] + c13 * A[i+1][j-1][k+1] + c21 * A[i-1][j][k+1]
//                        + c23 * A[i+1][j][k+1]   + c31 * A[i-1][j+1][k+1] + c33 * A[i+1][j+1][k+1];
//     }
//
// (the source's 15 terms, written with A[i][j][k] for A[i*(NK*NJ) + j*NK + k]). Three terms
// repeat the same element: nvcc loads each distinct element once (no store in between), so 11
// loads, each a coalesced row segment of 32 consecutive k.
//
// Modelled SASS per warp:
//
//   0x00 .. 0x30  S2R CTAID.X, CTAID.Y, TID.X, TID.Y       all existing lanes
//   0x40  IMAD  k       0x50 IMAD j
//   0x60  ISETP         0x70 ISETP        0x80 ISETP       the six-way guard
//   ---- lanes with 0 < j < n-1 and 0 < k < n-1 ----
//   0x90 .. 0x130  LD r8..r18 <- the 11 distinct elements, in order of first use
//   0x140 FMUL  r19 <- r8                  c11 * first term
//   0x150 .. 0x220  FFMA r19 <- rX, r19    14 more terms, in source order
//   0x230 ST    B[i][j][k] <- r19
//   ----
//   0x240 EXIT
//
// 37 instructions per warp with a lane in range, 10 without.
#include <array>
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

namespace conv3d_kernel {

constexpr unsigned kBlockX = 32, kBlockY = 8;

namespace reg {
constexpr uint16_t kK = 4, kJ = 5, kPred = 6, kFirstLoad = 8,
                   kSum = 19;
constexpr unsigned kUsed = 20;
} // namespace reg

// The 11 distinct elements (di, dj, dk) in order of first appearance in the expression.
struct Offset {
    int di, dj, dk;
};
constexpr std::array<Offset, 11> kLoads{{{-1, -1, -1}, {1, -1, -1}, {0, -1, 0}, {0, 0, 0}, {0, 1, 0},
                                         {-1, -1, 1}, {1, -1, 1}, {-1, 0, 1}, {1, 0, 1}, {-1, 1, 1},
                                         {1, 1, 1}}};
// The 15 terms of the sum as indices into kLoads.
constexpr std::array<unsigned, 15> kTerms{0, 1, 0, 1, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

constexpr unsigned kGuardSlots = 3;
enum Slot : unsigned {
    kGuard = kIndex2dSlots,
    kFirstLd = kGuard + kGuardSlots,
    kFmul = kFirstLd + kLoads.size(),
    kFirstFfma,
    kSt = kFirstFfma + kTerms.size() - 1,
    kExit
};

WarpProgram conv3dWarp(WarpThreads t, uint64_t a, uint64_t b, uint64_t n, uint64_t i) {
    const uint32_t all = t.existMask();
    for (const auto& op : globalIndex2d(all, {.x = reg::kK, .y = reg::kJ})) co_yield op;
    co_yield inst::alu(sassPc(kGuard), all, {reg::kPred}, {reg::kK});
    co_yield inst::alu(sassPc(kGuard + 1), all, {reg::kPred}, {reg::kJ, reg::kPred});
    co_yield inst::alu(sassPc(kGuard + 2), all, {reg::kPred}, {reg::kK, reg::kJ, reg::kPred});

    const uint32_t in = t.lanesWhere([&](unsigned l) {
        const uint64_t k = t.globalX(l), j = t.globalY(l);
        return j > 0 && j + 1 < n && k > 0 && k + 1 < n;
    });
    if (in != 0) {
        for (unsigned q = 0; q < kLoads.size(); ++q) {
            const Offset o = kLoads[q];
            co_yield inst::load(sassPc(kFirstLd + q), in, {uint16_t(reg::kFirstLoad + q)}, {reg::kK, reg::kJ},
                                kFloatBytes, [&](unsigned l) {
                                    const uint64_t e = ((i + o.di) * n + t.globalY(l) + o.dj) * n + t.globalX(l) + o.dk;
                                    return a + e * kFloatBytes;
                                });
        }
        co_yield inst::alu(sassPc(kFmul), in, {reg::kSum}, {uint16_t(reg::kFirstLoad + kTerms[0])});
        for (unsigned q = 1; q < kTerms.size(); ++q)
            co_yield inst::alu(sassPc(kFirstFfma + q - 1), in, {reg::kSum},
                               {uint16_t(reg::kFirstLoad + kTerms[q]), reg::kSum});
        co_yield inst::store(sassPc(kSt), in, {reg::kK, reg::kJ, reg::kSum}, kFloatBytes, [&](unsigned l) {
            return b + ((i * n + t.globalY(l)) * n + t.globalX(l)) * kFloatBytes;
        });
    }
    co_yield inst::exit(sassPc(kExit), all);
}

std::unique_ptr<Workload> makeConv3d(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t n = param(params, "n");
    // convolution3DCuda's cudaMalloc order.
    DeviceAllocator mem;
    const uint64_t a = mem.allocateFloats(n * n * n);
    const uint64_t b = mem.allocateFloats(n * n * n);
    const Dim3 grid{static_cast<unsigned>(ceilDiv(n, kBlockX)), static_cast<unsigned>(ceilDiv(n, kBlockY)), 1};
    std::vector<std::unique_ptr<Kernel>> kernels;
    // The host loop launches one kernel per interior plane: for (i = 1; i < NI - 1; ++i).
    for (uint64_t i = 1; i + 1 < n; ++i)
        kernels.push_back(makeProgramKernel("convolution3D_kernel", grid, {kBlockX, kBlockY, 1}, reg::kUsed, 0,
                                            [a, b, n, i](const WarpThreads& t) { return conv3dWarp(t, a, b, n, i); }));
    return std::make_unique<BasicWorkload>("3dconv", nlohmann::json(params), std::move(kernels));
}

} // namespace conv3d_kernel

WorkloadInfo conv3dWorkload() {
    using namespace conv3d_kernel;
    return {"3dconv",
            "PolyBench/GPU 3DCONV, 3x3x3 convolution, one launch per interior plane: 11 coalesced loads per thread",
            {{"n", 64, 4, 1024, "volume edge NI = NJ = NK (PolyBench/GPU default 256); n-2 launches"}},
            makeConv3d,
            "PolyBench/GPU 1.0, 3DCONV (3DConvolution.cu)",
            WorkloadClass::Coherent};
}

} // namespace gpusim
