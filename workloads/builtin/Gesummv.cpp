// gesummv: PolyBench/GPU GESUMMV, y = alpha A x + beta B x, one kernel over two n x n matrices:
//
//     __global__ void gesummv_kernel(float* A, float* B, float* tmp, float* x, float* y) {
//         int i = blockIdx.x * blockDim.x + threadIdx.x;
//         if (i < N) {
//             for (int j = 0; j < N; j++) {
//                 tmp[i] += A[i * N + j] * x[j];
//                 y[i] += B[i * N + j] * x[j];
//             }
//             y[i] = alpha * tmp[i] + beta * y[i];
//         }
//     }
//
// A row of A and a row of B per thread: both matrix loads touch 32 lines per warp.
//
// Modelled SASS per warp. All five arrays are plain float*, so a store through one may change
// any other: after ST tmp[i], x[j] and y[i] must be reloaded, after ST y[i], tmp[i] must be (the
// value just stored stays in its register):
//
//   0x00  S2R   r0 <- SR_CTAID.X                       all existing lanes
//   0x10  S2R   r1 <- SR_TID.X
//   0x20  IMAD  r2 <- r0, r1                           i
//   0x30  ISETP r3 <- r2                               i < N
//   ---- lanes with i < N ----
//   loop j = 0 .. N-1:
//   0x40  LD    r4 <- A[i*N + j]          src r2, r10
//   0x50  LD    r5 <- x[j]                src r10      one address for the warp
//   0x60  LD    r6 <- tmp[i]              src r2
//   0x70  FFMA  r6 <- r4, r5, r6
//   0x80  ST    tmp[i] <- r6              src r2, r6
//   0x90  LD    r7 <- B[i*N + j]          src r2, r10
//   0xa0  LD    r8 <- x[j]                src r10      reloaded after the tmp store
//   0xb0  LD    r9 <- y[i]                src r2
//   0xc0  FFMA  r9 <- r7, r8, r9
//   0xd0  ST    y[i] <- r9                src r2, r9
//   0xe0  IADD  r10 <- r10                             j++
//   0xf0  ISETP r3 <- r10
//   0x100 BRA   src r3
//   0x110 LD    r6 <- tmp[i]              src r2       reloaded after the y store
//   0x120 FMUL  r11 <- r9                              beta * y[i]
//   0x130 FFMA  r11 <- r6, r11                         alpha * tmp[i] + ...
//   0x140 ST    y[i] <- r11               src r2, r11
//   ----
//   0x150 EXIT
//
// 13N + 9 instructions per warp with a lane in range, 5 without.
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

namespace gesummv_kernel {

constexpr unsigned kBlockThreads = 256;  // DIM_THREAD_BLOCK_X

namespace reg {
constexpr uint16_t kI = 2, kPred = 3, kA = 4, kX = 5, kTmp = 6, kB = 7, kX2 = 8, kY = 9,
                   kJ = 10, kOut = 11;
constexpr unsigned kUsed = 12;
} // namespace reg

enum Slot : unsigned {
    kLdA = kIndex1dSlots, kLdX, kLdTmp, kFfmaTmp, kStTmp, kLdB, kLdX2, kLdY, kFfmaY, kStY, kBackEdge,
    kLdTmpAfter = kBackEdge + kBackEdgeSlots, kFmul, kFfmaOut, kStOut, kExit
};

struct Arrays {
    uint64_t a, b, x, y, tmp;
};

WarpProgram gesummvWarp(WarpThreads t, Arrays arr, uint64_t n) {
    const uint32_t all = t.existMask();
    for (const auto& op : globalIndex1d(all, {.index = reg::kI, .pred = reg::kPred})) co_yield op;

    const uint32_t m = t.lanesWhere([&](unsigned lane) { return t.globalX(lane) < n; });
    if (m != 0) {
        auto row = [&](uint64_t base) {
            return [&t, base](unsigned lane) { return base + t.globalX(lane) * kFloatBytes; };
        };
        for (uint64_t j = 0; j < n; ++j) {
            auto matrix = [&](uint64_t base) {
                return [&t, base, n, j](unsigned lane) { return base + (t.globalX(lane) * n + j) * kFloatBytes; };
            };
            auto xj = [&](unsigned) { return arr.x + j * kFloatBytes; };
            co_yield inst::load(sassPc(kLdA), m, {reg::kA}, {reg::kI, reg::kJ}, kFloatBytes, matrix(arr.a));
            co_yield inst::load(sassPc(kLdX), m, {reg::kX}, {reg::kJ}, kFloatBytes, xj);
            co_yield inst::load(sassPc(kLdTmp), m, {reg::kTmp}, {reg::kI}, kFloatBytes, row(arr.tmp));
            co_yield inst::alu(sassPc(kFfmaTmp), m, {reg::kTmp}, {reg::kA, reg::kX, reg::kTmp});
            co_yield inst::store(sassPc(kStTmp), m, {reg::kI, reg::kTmp}, kFloatBytes, row(arr.tmp));
            co_yield inst::load(sassPc(kLdB), m, {reg::kB}, {reg::kI, reg::kJ}, kFloatBytes, matrix(arr.b));
            co_yield inst::load(sassPc(kLdX2), m, {reg::kX2}, {reg::kJ}, kFloatBytes, xj);
            co_yield inst::load(sassPc(kLdY), m, {reg::kY}, {reg::kI}, kFloatBytes, row(arr.y));
            co_yield inst::alu(sassPc(kFfmaY), m, {reg::kY}, {reg::kB, reg::kX2, reg::kY});
            co_yield inst::store(sassPc(kStY), m, {reg::kI, reg::kY}, kFloatBytes, row(arr.y));
            for (const auto& op : backEdge(m, kBackEdge, reg::kJ, reg::kPred)) co_yield op;
        }
        co_yield inst::load(sassPc(kLdTmpAfter), m, {reg::kTmp}, {reg::kI}, kFloatBytes, row(arr.tmp));
        co_yield inst::alu(sassPc(kFmul), m, {reg::kOut}, {reg::kY});
        co_yield inst::alu(sassPc(kFfmaOut), m, {reg::kOut}, {reg::kTmp, reg::kOut});
        co_yield inst::store(sassPc(kStOut), m, {reg::kI, reg::kOut}, kFloatBytes, row(arr.y));
    }
    co_yield inst::exit(sassPc(kExit), all);
}

std::unique_ptr<Workload> makeGesummv(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t n = param(params, "n");
    // gesummvCuda's cudaMalloc order.
    DeviceAllocator mem;
    Arrays arr;
    arr.a = mem.allocateFloats(n * n);
    arr.b = mem.allocateFloats(n * n);
    arr.x = mem.allocateFloats(n);
    arr.y = mem.allocateFloats(n);
    arr.tmp = mem.allocateFloats(n);

    std::vector<std::unique_ptr<Kernel>> kernels;
    kernels.push_back(makeProgramKernel("gesummv_kernel", {static_cast<unsigned>(ceilDiv(n, kBlockThreads)), 1, 1},
                                        {kBlockThreads, 1, 1}, reg::kUsed, 0,
                                        [arr, n](const WarpThreads& t) { return gesummvWarp(t, arr, n); }));
    return std::make_unique<BasicWorkload>("gesummv", nlohmann::json(params), std::move(kernels));
}

} // namespace gesummv_kernel

WorkloadInfo gesummvWorkload() {
    using namespace gesummv_kernel;
    return {"gesummv",
            "PolyBench/GPU GESUMMV, y = alpha A x + beta B x: two row-per-thread matrices (uncoalesced)",
            {{"n", 512, 32, 16384, "matrix dimension N (PolyBench/GPU default 4096)"}},
            makeGesummv,
            "PolyBench/GPU 1.0, GESUMMV (gesummv.cu)",
            WorkloadClass::MemoryDivergent};
}

} // namespace gpusim
