#pragma once
// The PolyBench/GPU matrix-vector kernel shape shared by ATAX, BICG and MVT: one thread per output
// element t, a loop over u accumulating A(t, u) * vec[u] into acc[t]:
//
//     int t = blockIdx.x * blockDim.x + threadIdx.x;
//     if (t < T) { [acc[t] = 0;]  for (u = 0; u < U; u++) acc[t] += A[elem(t, u)] * vec[u]; }
//
// The kernels differ in how A is walked (row per thread: lanes 4n bytes apart, 32 lines per warp
// access; column per thread: one coalesced line), in whether acc is zeroed first (BICG) or
// accumulated onto (ATAX, MVT), and in which operand the source names first.
//
// Modelled SASS per warp (a model of nvcc's output, not a disassembly: address arithmetic is
// folded into the memory instructions, the loop is not unrolled):
//
//   0x00  S2R   r0 <- SR_CTAID.X                       all existing lanes
//   0x10  S2R   r1 <- SR_TID.X                         all existing lanes
//   0x20  IMAD  r2 <- r0, r1                           t = blockIdx.x * blockDim.x + threadIdx.x
//   0x30  ISETP r3 <- r2                               p = t < T (predicate modelled as r3)
//   ---- lanes with t < T only; skipped when no lane has t < T ----
//   0x40  LD    r4 <- [acc + 4*t]         src r2       accumulate onto acc[t] (ATAX, MVT), or
//         ST    [acc + 4*t] <- RZ         src r2       acc[t] = 0 (BICG)
//   loop u = 0 .. U-1, same PCs every iteration:
//   0x50  LD    r5 <- [A + 4*elem(t,u)]   src r2, r7   (0x50/0x60 swapped when the source names
//   0x60  LD    r6 <- [vec + 4*u]         src r7        the vector first: one address per warp)
//   0x70  FFMA  r4 <- r5, r6, r4
//   0x80  ST    [acc + 4*t] <- r4         src r2, r4   stored every iteration: A, vec and acc
//                                                      may alias, so nvcc cannot sink it
//   0x90  IADD  r7 <- r7                               u++
//   0xa0  ISETP r3 <- r7                               u < U
//   0xb0  BRA   src r3                                 back edge (falls through after the last)
//   ----
//   0xc0  EXIT                                         all existing lanes
//
// The accumulator is loaded once: nvcc keeps the value it just stored in a register, since the
// loads in between cannot change it (only a store could).
#include <cstdint>
#include <memory>
#include <string>

#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinSupport.hpp"
#include "workloads/builtin/KernelBuilder.hpp"

namespace gpusim {

struct MatVecPass {
    uint64_t matrix, acc, vec;
    uint64_t strideT, strideU;  // A(t, u) is element t * strideT + u * strideU
    uint64_t threads;           // T: threads with t < T run the loop
    uint64_t loop;              // U: iterations
    bool zeroInit = false;      // acc[t] = 0 stored before the loop instead of loaded
    bool vecFirst = false;      // the vector element is loaded before the matrix element
};

namespace matvec {

inline constexpr unsigned kBlockThreads = 256;  // PolyBench/GPU DIM_THREAD_BLOCK_X = 256, Y = 1

namespace reg {
inline constexpr uint16_t kThread = 2, kPred = 3, kAcc = 4, kMatrix = 5, kVector = 6,
                          kLoop = 7;
inline constexpr unsigned kUsed = 8;
} // namespace reg

enum Slot : unsigned {
    kInit = kIndex1dSlots, kLdFirst, kLdSecond, kFfma, kStAcc, kBackEdge, kExit = kBackEdge + kBackEdgeSlots
};

inline WarpProgram warp(WarpThreads t, MatVecPass pass) {
    const uint32_t all = t.existMask();
    for (const auto& op : globalIndex1d(all, {.index = reg::kThread, .pred = reg::kPred})) co_yield op;

    const uint32_t inRange = t.lanesWhere([&](unsigned lane) { return t.globalX(lane) < pass.threads; });
    if (inRange != 0) {
        auto accAddr = [&](unsigned lane) { return pass.acc + t.globalX(lane) * kFloatBytes; };
        if (pass.zeroInit)
            co_yield inst::store(sassPc(kInit), inRange, {reg::kThread, kRz}, kFloatBytes, accAddr);
        else
            co_yield inst::load(sassPc(kInit), inRange, {reg::kAcc}, {reg::kThread}, kFloatBytes, accAddr);
        const unsigned matrixSlot = pass.vecFirst ? kLdSecond : kLdFirst;
        const unsigned vectorSlot = pass.vecFirst ? kLdFirst : kLdSecond;
        for (uint64_t u = 0; u < pass.loop; ++u) {
            auto matrixAddr = [&](unsigned lane) {
                return pass.matrix + (t.globalX(lane) * pass.strideT + u * pass.strideU) * kFloatBytes;
            };
            auto vectorAddr = [&](unsigned) { return pass.vec + u * kFloatBytes; };
            if (pass.vecFirst)
                co_yield inst::load(sassPc(vectorSlot), inRange, {reg::kVector}, {reg::kLoop}, kFloatBytes,
                                    vectorAddr);
            co_yield inst::load(sassPc(matrixSlot), inRange, {reg::kMatrix}, {reg::kThread, reg::kLoop},
                                kFloatBytes, matrixAddr);
            if (!pass.vecFirst)
                co_yield inst::load(sassPc(vectorSlot), inRange, {reg::kVector}, {reg::kLoop}, kFloatBytes,
                                    vectorAddr);
            co_yield inst::alu(sassPc(kFfma), inRange, {reg::kAcc}, {reg::kMatrix, reg::kVector, reg::kAcc});
            co_yield inst::store(sassPc(kStAcc), inRange, {reg::kThread, reg::kAcc}, kFloatBytes, accAddr);
            for (const auto& op : backEdge(inRange, kBackEdge, reg::kLoop, reg::kPred)) co_yield op;
        }
    }
    co_yield inst::exit(sassPc(kExit), all);
}

} // namespace matvec

inline std::unique_ptr<Kernel> matVecKernel(const std::string& name, MatVecPass pass) {
    const Dim3 grid{static_cast<unsigned>(ceilDiv(pass.threads, matvec::kBlockThreads)), 1, 1};
    return makeProgramKernel(name, grid, {matvec::kBlockThreads, 1, 1}, matvec::reg::kUsed, 0,
                             [pass](const WarpThreads& t) { return matvec::warp(t, pass); });
}

} // namespace gpusim
