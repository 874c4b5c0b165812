// vectoradd: the CUDA SDK's vectorAdd, c[i] = a[i] + b[i] over n floats.
//
//     __global__ void vectorAdd(const float* a, const float* b, float* c, int n) {
//         int i = blockIdx.x * blockDim.x + threadIdx.x;
//         if (i < n) c[i] = a[i] + b[i];
//     }
//
// Modelled SASS per warp (a model of what nvcc emits, not a disassembly: address arithmetic
// and the 64-bit pointer halves are folded into the memory instructions):
//
//   0x00  S2R   r0 <- SR_CTAID.X                all existing lanes
//   0x10  S2R   r1 <- SR_TID.X                  all existing lanes
//   0x20  IMAD  r2 <- r0, r1                    i = blockIdx.x * blockDim.x + threadIdx.x
//   0x30  ISETP r3 <- r2                        p = i < n (predicate modelled as r3)
//   ---- lanes with i < n only; skipped when no lane has i < n ----
//   0x40  LD    r4 <- [a + 4*i]     src r2
//   0x50  LD    r5 <- [b + 4*i]     src r2
//   0x60  FADD  r6 <- r4, r5
//   0x70  ST    [c + 4*i] <- r6     src r2, r6
//   ----
//   0x80  EXIT                                  all existing lanes
#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/InstructionFactory.hpp"
#include "workloads/ProgramKernel.hpp"
#include "workloads/builtin/KernelBuilder.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"

namespace gpusim {

namespace vector_add_kernel {

constexpr int64_t kDefaultN = int64_t(1) << 16;
constexpr int64_t kMaxN = int64_t(1) << 26;
constexpr unsigned kBlockThreads = 256;

namespace reg {
constexpr uint16_t kIndex = 2, kPred = 3, kA = 4, kB = 5, kSum = 6;
constexpr unsigned kUsed = 7;
} // namespace reg

enum Slot : unsigned { kLdA = kIndex1dSlots, kLdB, kFadd, kStC, kExit };

struct Arrays {
    uint64_t a, b, c;
};

WarpProgram vectorAddWarp(WarpThreads t, Arrays arr, uint64_t n) {
    const uint32_t all = t.existMask();
    for (const auto& op : globalIndex1d(all, {.index = reg::kIndex, .pred = reg::kPred})) co_yield op;

    const uint32_t inRange = t.lanesWhere([&](unsigned lane) { return t.globalX(lane) < n; });
    if (inRange != 0) {
        auto element = [&t](uint64_t base) {
            return [&t, base](unsigned lane) { return base + t.globalX(lane) * kFloatBytes; };
        };
        co_yield inst::load(sassPc(kLdA), inRange, {reg::kA}, {reg::kIndex}, kFloatBytes, element(arr.a));
        co_yield inst::load(sassPc(kLdB), inRange, {reg::kB}, {reg::kIndex}, kFloatBytes, element(arr.b));
        co_yield inst::alu(sassPc(kFadd), inRange, {reg::kSum}, {reg::kA, reg::kB});
        co_yield inst::store(sassPc(kStC), inRange, {reg::kIndex, reg::kSum}, kFloatBytes, element(arr.c));
    }
    co_yield inst::exit(sassPc(kExit), all);
}

std::unique_ptr<Workload> makeVectorAdd(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t n = static_cast<uint64_t>(params.at("n"));
    DeviceAllocator mem;
    Arrays arr;
    arr.a = mem.allocateFloats(n);
    arr.b = mem.allocateFloats(n);
    arr.c = mem.allocateFloats(n);

    KernelInfo info;
    info.name = "vectorAdd";
    info.block.x = kBlockThreads;
    info.grid.x = static_cast<unsigned>((n + kBlockThreads - 1) / kBlockThreads);
    info.regsPerThread = allocatedRegisters(reg::kUsed);

    std::vector<std::unique_ptr<Kernel>> kernels;
    kernels.push_back(std::make_unique<ProgramKernel>(
        info, [arr, n](const WarpThreads& t) { return vectorAddWarp(t, arr, n); }));
    return std::make_unique<BasicWorkload>("vectoradd", nlohmann::json(params), std::move(kernels));
}

} // namespace vector_add_kernel

WorkloadInfo vectorAddWorkload() {
    using namespace vector_add_kernel;
    return {"vectoradd",
            "CUDA SDK vectorAdd: c[i] = a[i] + b[i], fully coalesced streaming, one kernel",
            {{"n", kDefaultN, 1, kMaxN, "number of float elements"}},
            makeVectorAdd,
            "CUDA SDK, vectorAdd (vectorAdd.cu)",
            WorkloadClass::Coherent};
}

} // namespace gpusim
