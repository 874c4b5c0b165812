// atax: PolyBench/GPU ATAX, y = A^T (A x), as two kernels over an n x n matrix (NX = NY = n).
//
//     __global__ void atax_kernel1(float* A, float* x, float* tmp) {   // tmp = A x
//         int i = blockIdx.x * blockDim.x + threadIdx.x;
//         if (i < NX) for (int j = 0; j < NY; j++) tmp[i] += A[i * NY + j] * x[j];
//     }
//     __global__ void atax_kernel2(float* A, float* y, float* tmp) {   // y = A^T tmp
//         int j = blockIdx.x * blockDim.x + threadIdx.x;
//         if (j < NY) for (int i = 0; i < NX; i++) y[j] += A[i * NY + j] * tmp[i];
//     }
//
// Both kernels have the same shape: thread index t, loop index u, an accumulator acc[t] and a
// vector vec[u]. They differ only in how A is walked: kernel 1 reads along a row per thread
// (lanes 4n bytes apart: 32 lines per warp access, the cache-thrashing pattern the scheduling
// papers use ATAX for), kernel 2 down a column (lanes adjacent: one coalesced line).
//
// Modelled SASS per warp (a model of nvcc's output, not a disassembly: address arithmetic is
// folded into the memory instructions, the loop is not unrolled):
//
//   0x00  S2R   r0 <- SR_CTAID.X                       all existing lanes
//   0x10  S2R   r1 <- SR_TID.X                         all existing lanes
//   0x20  IMAD  r2 <- r0, r1                           t = blockIdx.x * blockDim.x + threadIdx.x
//   0x30  ISETP r3 <- r2                               p = t < n (predicate modelled as r3)
//   ---- lanes with t < n only; skipped when no lane has t < n ----
//   0x40  LD    r4 <- [acc + 4*t]         src r2       accumulator (tmp[i] / y[j])
//   loop u = 0 .. n-1, same PCs every iteration:
//   0x50  LD    r5 <- [A + 4*elem(t,u)]   src r2, r7   kernel 1: elem = t*n+u; kernel 2: u*n+t
//   0x60  LD    r6 <- [vec + 4*u]         src r7       x[j] / tmp[i]: one address for the warp
//   0x70  FFMA  r4 <- r5, r6, r4
//   0x80  ST    [acc + 4*t] <- r4         src r2, r4   stored every iteration: A, x and tmp
//                                                      may alias, so nvcc cannot sink it
//   0x90  IADD  r7 <- r7                               u++
//   0xa0  ISETP r3 <- r7                               u < n
//   0xb0  BRA   src r3                                 back edge (falls through after the last)
//   ----
//   0xc0  EXIT                                         all existing lanes
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/InstructionFactory.hpp"
#include "workloads/ProgramKernel.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"

namespace gpusim {

namespace {

// Small enough that the default runs in seconds; PolyBench's own default is 4096.
constexpr int64_t kDefaultN = 1024;
// Below one warp of rows kernel 1 no longer shows its 32-lines-per-access pattern.
constexpr int64_t kMinN = 32;
constexpr int64_t kMaxN = 16384;
constexpr unsigned kBlockThreads = 256;  // PolyBench/GPU DIM_THREAD_BLOCK_X = 256, Y = 1

namespace reg {
constexpr uint16_t kCtaid = 0, kTid = 1, kThread = 2, kPred = 3, kAcc = 4, kMatrix = 5, kVector = 6,
                   kLoop = 7;
constexpr unsigned kUsed = 8;
} // namespace reg

enum Slot : unsigned {
    kS2rCtaid, kS2rTid, kImad, kIsetp, kLdAcc, kLdMatrix, kLdVector, kFfma, kStAcc, kIadd,
    kIsetpLoop, kBra, kExit
};

// What distinguishes the two kernels: where the accumulator and vector live and how element
// (t, u) of A is indexed (index = t * strideT + u * strideU).
struct AtaxPass {
    uint64_t matrix, acc, vec;
    uint64_t strideT, strideU;
};

WarpProgram ataxWarp(WarpThreads t, AtaxPass pass, uint64_t n) {
    const uint32_t all = t.existMask();
    co_yield inst::alu(sassPc(kS2rCtaid), all, {reg::kCtaid}, {});
    co_yield inst::alu(sassPc(kS2rTid), all, {reg::kTid}, {});
    co_yield inst::alu(sassPc(kImad), all, {reg::kThread}, {reg::kCtaid, reg::kTid});
    co_yield inst::alu(sassPc(kIsetp), all, {reg::kPred}, {reg::kThread});

    const uint32_t inRange = t.lanesWhere([&](unsigned lane) { return t.globalX(lane) < n; });
    if (inRange != 0) {
        auto accAddr = [&](unsigned lane) { return pass.acc + t.globalX(lane) * kFloatBytes; };
        co_yield inst::load(sassPc(kLdAcc), inRange, {reg::kAcc}, {reg::kThread}, kFloatBytes, accAddr);
        for (uint64_t u = 0; u < n; ++u) {
            auto matrixAddr = [&](unsigned lane) {
                return pass.matrix + (t.globalX(lane) * pass.strideT + u * pass.strideU) * kFloatBytes;
            };
            auto vectorAddr = [&](unsigned) { return pass.vec + u * kFloatBytes; };
            co_yield inst::load(sassPc(kLdMatrix), inRange, {reg::kMatrix}, {reg::kThread, reg::kLoop},
                                kFloatBytes, matrixAddr);
            co_yield inst::load(sassPc(kLdVector), inRange, {reg::kVector}, {reg::kLoop}, kFloatBytes,
                                vectorAddr);
            co_yield inst::alu(sassPc(kFfma), inRange, {reg::kAcc}, {reg::kMatrix, reg::kVector, reg::kAcc});
            co_yield inst::store(sassPc(kStAcc), inRange, {reg::kThread, reg::kAcc}, kFloatBytes, accAddr);
            co_yield inst::alu(sassPc(kIadd), inRange, {reg::kLoop}, {reg::kLoop});
            co_yield inst::alu(sassPc(kIsetpLoop), inRange, {reg::kPred}, {reg::kLoop});
            co_yield inst::alu(sassPc(kBra), inRange, {}, {reg::kPred});
        }
    }
    co_yield inst::exit(sassPc(kExit), all);
}

std::unique_ptr<Kernel> ataxKernel(const std::string& name, AtaxPass pass, uint64_t n) {
    KernelInfo info;
    info.name = name;
    info.block.x = kBlockThreads;
    info.grid.x = static_cast<unsigned>((n + kBlockThreads - 1) / kBlockThreads);
    info.regsPerThread = allocatedRegisters(reg::kUsed);
    return std::make_unique<ProgramKernel>(
        info, [pass, n](const WarpThreads& t) { return ataxWarp(t, pass, n); });
}

std::unique_ptr<Workload> makeAtax(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t n = static_cast<uint64_t>(params.at("n"));
    // PolyBench/GPU's host code allocates in this order.
    DeviceAllocator mem;
    const uint64_t a = mem.allocateFloats(n * n);
    const uint64_t x = mem.allocateFloats(n);
    const uint64_t y = mem.allocateFloats(n);
    const uint64_t tmp = mem.allocateFloats(n);

    std::vector<std::unique_ptr<Kernel>> kernels;
    kernels.push_back(ataxKernel("atax_kernel1", {a, tmp, x, /*strideT=*/n, /*strideU=*/1}, n));
    kernels.push_back(ataxKernel("atax_kernel2", {a, y, tmp, /*strideT=*/1, /*strideU=*/n}, n));
    return std::make_unique<BasicWorkload>("atax", nlohmann::json(params), std::move(kernels));
}

} // namespace

WorkloadInfo ataxWorkload() {
    return {"atax",
            "PolyBench/GPU ATAX, y = A^T (A x): kernel 1 row-per-thread (uncoalesced A), "
            "kernel 2 column-per-thread (coalesced A)",
            {{"n", kDefaultN, kMinN, kMaxN, "matrix dimension (NX = NY = n)"}},
            makeAtax};
}

} // namespace gpusim
