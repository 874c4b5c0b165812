// pathfinder: Rodinia pathfinder (cuda/pathfinder), dynamic programming down a rows x cols grid of
// weights: each step a cell takes the cheapest of its three upper neighbours. One launch computes
// `pyramid_height` rows in shared memory (ghost zones of one column per step, shrinking
// blocks), with __syncthreads between steps; 256-thread blocks:
//
//     __global__ void dynproc_kernel(int iteration, int* gpuWall, int* gpuSrc, int* gpuResults,
//                                    int cols, int rows, int startStep, int border) {
//         __shared__ int prev[BLOCK_SIZE];
//         __shared__ int result[BLOCK_SIZE];
//         int bx = blockIdx.x, tx = threadIdx.x;
//         int small_block_cols = BLOCK_SIZE - iteration*HALO*2;
//         int blkX = small_block_cols*bx - border;
//         int blkXmax = blkX + BLOCK_SIZE - 1;
//         int xidx = blkX + tx;
//         int validXmin = (blkX < 0) ? -blkX : 0;
//         int validXmax = (blkXmax > cols-1) ? BLOCK_SIZE-1-(blkXmax-cols+1) : BLOCK_SIZE-1;
//         int W = tx-1, E = tx+1;
//         W = (W < validXmin) ? validXmin : W;  E = (E > validXmax) ? validXmax : E;
//         bool isValid = IN_RANGE(tx, validXmin, validXmax);
//         if (IN_RANGE(xidx, 0, cols-1)) prev[tx] = gpuSrc[xidx];
//         __syncthreads();
//         bool computed;
//         for (int i = 0; i < iteration; i++) {
//             computed = false;
//             if (IN_RANGE(tx, i+1, BLOCK_SIZE-i-2) && isValid) {
//                 computed = true;
//                 int left = prev[W], up = prev[tx], right = prev[E];
//                 int shortest = MIN(left, up); shortest = MIN(shortest, right);
//                 int index = cols*(startStep+i) + xidx;
//                 result[tx] = shortest + gpuWall[index];
//             }
//             __syncthreads();
//             if (i == iteration-1) break;
//             if (computed) prev[tx] = result[tx];
//             __syncthreads();
//         }
//         if (computed) gpuResults[xidx] = result[tx];
//     }
//
// The host launches blockCols = ceil(cols / (256 - 2 * pyramid_height)) blocks with border =
// pyramid_height for t = 0, pyramid_height, ... < rows - 1, iteration = min(pyramid_height,
// rows - t - 1), alternating the two result buffers. The active mask shrinks by one lane at each
// edge of the block per step.
//
// Modelled SASS per warp:
//
//   0x00 S2R CTAID.X  0x10 S2R TID.X  0x20 .. 0xf0 14 ALU (block bounds, xidx, valid range, W, E, isValid)
//   0x100 ISETP;  lanes with xidx in range: 0x110 LD gpuSrc[xidx]  0x120 STS prev[tx]
//   0x130 BAR
//   loop i = 0 .. iteration-1:
//     0x140 ISETP  0x150 ISETP                              computed condition
//     computed lanes: 0x160 LDS prev[W]  0x170 LDS prev[tx]  0x180 LDS prev[E]  0x190 IMNMX  0x1a0 IMNMX
//                     0x1b0 IMAD index  0x1c0 LD gpuWall[index]  0x1d0 IADD  0x1e0 STS result[tx]
//     0x1f0 BAR   0x200 ISETP i == iteration-1 (the last iteration leaves here)
//     computed lanes: 0x210 LDS result[tx]  0x220 STS prev[tx]
//     0x230 BAR   0x240 IADD  0x250 ISETP  0x260 BRA
//   lanes computed in the last step: 0x270 LDS result[tx]  0x280 ST gpuResults[xidx]
//   0x290 EXIT
#include <algorithm>
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

namespace pathfinder_kernel {

constexpr int64_t kBlock = 256;  // BLOCK_SIZE
constexpr int64_t kHalo = 1;
constexpr unsigned kSetupAlu = 14;

namespace reg {
constexpr uint16_t kCta = 0, kTid = 1, kX = 2, kW = 3, kE = 4, kValid = 5, kPred = 6, kV = 7, kLeft = 8, kUp = 9,
                   kRight = 10, kIndex = 11, kI = 12, kSetup = 13;
constexpr unsigned kUsed = 14;
} // namespace reg

enum Slot : unsigned {
    kS2rCta, kS2rTid, kSetup, kIsetpX = kSetup + kSetupAlu, kLdSrc, kStsPrev, kBar1,
    kIsetpC1, kIsetpC2, kLdsW, kLdsTx, kLdsE, kMin1, kMin2, kImadIndex, kLdWall, kIadd, kStsResult,
    kBar2, kIsetpLast, kLdsResult, kStsPrev2, kBar3, kIaddI, kIsetpLoop, kBra,
    kLdsOut, kStOut, kExit
};

struct Launch {
    uint64_t wall, src, dst;
    int64_t cols, iteration, startStep, border;
};

WarpProgram dynprocWarp(WarpThreads t, Launch p) {
    const uint32_t all = t.existMask();
    const int64_t small = kBlock - p.iteration * kHalo * 2;
    const int64_t blkX = small * int64_t(t.blockIdx().x) - p.border;
    const int64_t blkXmax = blkX + kBlock - 1;
    const int64_t validXmin = blkX < 0 ? -blkX : 0;
    const int64_t validXmax = blkXmax > p.cols - 1 ? kBlock - 1 - (blkXmax - p.cols + 1) : kBlock - 1;
    auto tx = [&](unsigned l) { return int64_t(t.threadIdx(l).x); };
    auto xidx = [&](unsigned l) { return blkX + tx(l); };
    auto prev = [](int64_t i) { return uint64_t(i) * kIntBytes; };
    auto result = [](int64_t i) { return uint64_t(kBlock + i) * kIntBytes; };

    co_yield inst::alu(sassPc(kS2rCta), all, {reg::kCta}, {});
    co_yield inst::alu(sassPc(kS2rTid), all, {reg::kTid}, {});
    for (unsigned q = 0; q < kSetupAlu; ++q)
        co_yield inst::alu(sassPc(kSetup + q), all, {uint16_t(q % 2 ? reg::kSetup : reg::kX)}, {reg::kCta, reg::kTid});
    co_yield inst::alu(sassPc(kIsetpX), all, {reg::kPred}, {reg::kX});
    const uint32_t load = t.lanesWhere([&](unsigned l) { return xidx(l) >= 0 && xidx(l) <= p.cols - 1; });
    if (load != 0) {
        co_yield inst::load(sassPc(kLdSrc), load, {reg::kV}, {reg::kX}, kIntBytes,
                            [&](unsigned l) { return p.src + uint64_t(xidx(l)) * kIntBytes; });
        co_yield inst::store(sassPc(kStsPrev), load, {reg::kTid, reg::kV}, kIntBytes,
                             [&](unsigned l) { return prev(tx(l)); }, MemSpace::Shared);
    }
    co_yield inst::barrier(sassPc(kBar1), all);
    uint32_t computed = 0;
    for (int64_t i = 0; i < p.iteration; ++i) {
        co_yield inst::alu(sassPc(kIsetpC1), all, {reg::kPred}, {reg::kTid, reg::kI});
        co_yield inst::alu(sassPc(kIsetpC2), all, {reg::kPred}, {reg::kValid, reg::kPred});
        computed = t.lanesWhere([&](unsigned l) {
            return tx(l) >= i + 1 && tx(l) <= kBlock - i - 2 && tx(l) >= validXmin && tx(l) <= validXmax;
        });
        if (computed != 0) {
            co_yield inst::load(sassPc(kLdsW), computed, {reg::kLeft}, {reg::kW}, kIntBytes,
                                [&](unsigned l) { return prev(std::max(tx(l) - 1, validXmin)); }, MemSpace::Shared);
            co_yield inst::load(sassPc(kLdsTx), computed, {reg::kUp}, {reg::kTid}, kIntBytes,
                                [&](unsigned l) { return prev(tx(l)); }, MemSpace::Shared);
            co_yield inst::load(sassPc(kLdsE), computed, {reg::kRight}, {reg::kE}, kIntBytes,
                                [&](unsigned l) { return prev(std::min(tx(l) + 1, validXmax)); }, MemSpace::Shared);
            co_yield inst::alu(sassPc(kMin1), computed, {reg::kLeft}, {reg::kLeft, reg::kUp});
            co_yield inst::alu(sassPc(kMin2), computed, {reg::kLeft}, {reg::kLeft, reg::kRight});
            co_yield inst::alu(sassPc(kImadIndex), computed, {reg::kIndex}, {reg::kI, reg::kX});
            co_yield inst::load(sassPc(kLdWall), computed, {reg::kV}, {reg::kIndex}, kIntBytes, [&](unsigned l) {
                return p.wall + uint64_t(p.cols * (p.startStep + i) + xidx(l)) * kIntBytes;
            });
            co_yield inst::alu(sassPc(kIadd), computed, {reg::kV}, {reg::kV, reg::kLeft});
            co_yield inst::store(sassPc(kStsResult), computed, {reg::kTid, reg::kV}, kIntBytes,
                                 [&](unsigned l) { return result(tx(l)); }, MemSpace::Shared);
        }
        co_yield inst::barrier(sassPc(kBar2), all);
        co_yield inst::alu(sassPc(kIsetpLast), all, {reg::kPred}, {reg::kI});
        if (i == p.iteration - 1) break;
        if (computed != 0) {
            co_yield inst::load(sassPc(kLdsResult), computed, {reg::kV}, {reg::kTid}, kIntBytes,
                                [&](unsigned l) { return result(tx(l)); }, MemSpace::Shared);
            co_yield inst::store(sassPc(kStsPrev2), computed, {reg::kTid, reg::kV}, kIntBytes,
                                 [&](unsigned l) { return prev(tx(l)); }, MemSpace::Shared);
        }
        co_yield inst::barrier(sassPc(kBar3), all);
        for (const auto& op : backEdge(all, kIaddI, reg::kI, reg::kPred)) co_yield op;
    }
    if (computed != 0) {
        co_yield inst::load(sassPc(kLdsOut), computed, {reg::kV}, {reg::kTid}, kIntBytes,
                            [&](unsigned l) { return result(tx(l)); }, MemSpace::Shared);
        co_yield inst::store(sassPc(kStOut), computed, {reg::kX, reg::kV}, kIntBytes,
                             [&](unsigned l) { return p.dst + uint64_t(xidx(l)) * kIntBytes; });
    }
    co_yield inst::exit(sassPc(kExit), all);
}

std::unique_ptr<Workload> makePathfinder(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const int64_t cols = int64_t(param(params, "cols")), rows = int64_t(param(params, "rows")),
                  pyramid = int64_t(param(params, "pyramid_height"));
    // main()'s cudaMalloc order: the two result rows, then the wall below the first row.
    DeviceAllocator mem;
    const uint64_t result[2] = {mem.allocate(uint64_t(cols) * kIntBytes), mem.allocate(uint64_t(cols) * kIntBytes)};
    const uint64_t wall = mem.allocate(uint64_t((rows - 1) * cols) * kIntBytes);
    const int64_t smallBlockCol = kBlock - pyramid * kHalo * 2;
    const Dim3 grid{static_cast<unsigned>(ceilDiv(uint64_t(cols), uint64_t(smallBlockCol))), 1, 1};
    std::vector<std::unique_ptr<Kernel>> kernels;
    int src = 1, dst = 0;
    for (int64_t t = 0; t < rows - 1; t += pyramid) {
        std::swap(src, dst);
        const Launch launch{wall, result[src], result[dst], cols, std::min(pyramid, rows - t - 1), t, pyramid * kHalo};
        kernels.push_back(makeProgramKernel("dynproc_kernel", grid, {unsigned(kBlock), 1, 1}, reg::kUsed,
                                            2 * kBlock * kIntBytes,
                                            [launch](const WarpThreads& w) { return dynprocWarp(w, launch); }));
    }
    return std::make_unique<BasicWorkload>("pathfinder", nlohmann::json(params), std::move(kernels));
}

} // namespace pathfinder_kernel

WorkloadInfo pathfinderWorkload() {
    using namespace pathfinder_kernel;
    return {"pathfinder",
            "Rodinia pathfinder: dynamic programming in shared memory, two barriers per row, active lanes "
            "shrinking at the block edges",
            {{"cols", 16384, 256, 1 << 24, "grid columns (Rodinia run: 100000)"},
             {"rows", 41, 2, 100000, "grid rows; ceil((rows-1)/pyramid_height) launches (Rodinia run: 100)"},
             {"pyramid_height", 20, 1, 127, "rows per launch (Rodinia run: 20)"}},
            makePathfinder,
            "Rodinia 3.1, pathfinder (cuda/pathfinder: pathfinder.cu)",
            WorkloadClass::BarrierHeavy};
}

} // namespace gpusim
