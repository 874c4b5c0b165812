// hotspot: Rodinia HotSpot (cuda/hotspot), transient thermal simulation of a chip on a
// rows x cols grid. One launch advances `pyramid_height` time steps inside a 16 x 16 block with
// shrinking valid regions (ghost zones), staging temperature and power in shared memory with
// __syncthreads between steps:
//
//     __global__ void calculate_temp(int iteration, float* power, float* temp_src, float* temp_dst,
//                                    int grid_cols, int grid_rows, int border_cols, int border_rows,
//                                    float Cap, float Rx, float Ry, float Rz, float step, float time_elapsed) {
//         __shared__ float temp_on_cuda[BLOCK_SIZE][BLOCK_SIZE], power_on_cuda[...][...], temp_t[...][...];
//         float amb_temp = 80.0;
//         step_div_Cap = step/Cap; Rx_1 = 1/Rx; Ry_1 = 1/Ry; Rz_1 = 1/Rz;
//         int small_block_rows = BLOCK_SIZE-iteration*2, small_block_cols = BLOCK_SIZE-iteration*2;
//         int blkY = small_block_rows*by-border_rows, blkX = small_block_cols*bx-border_cols;
//         int blkYmax = blkY+BLOCK_SIZE-1, blkXmax = blkX+BLOCK_SIZE-1;
//         int yidx = blkY+ty, xidx = blkX+tx;
//         int index = grid_cols*yidx+xidx;
//         if (IN_RANGE(yidx, 0, grid_rows-1) && IN_RANGE(xidx, 0, grid_cols-1)) {
//             temp_on_cuda[ty][tx] = temp_src[index]; power_on_cuda[ty][tx] = power[index];
//         }
//         __syncthreads();
//         validYmin, validYmax, validXmin, validXmax as pathfinder; N, S, W, E = ty-1, ty+1, tx-1, tx+1 clamped;
//         bool computed;
//         for (int i = 0; i < iteration; i++) {
//             computed = false;
//             if (IN_RANGE(tx, i+1, BLOCK_SIZE-i-2) && IN_RANGE(ty, i+1, BLOCK_SIZE-i-2) &&
//                 IN_RANGE(tx, validXmin, validXmax) && IN_RANGE(ty, validYmin, validYmax)) {
//                 computed = true;
//                 temp_t[ty][tx] = temp_on_cuda[ty][tx] + step_div_Cap * (power_on_cuda[ty][tx] +
//                     (temp_on_cuda[S][tx] + temp_on_cuda[N][tx] - 2.0*temp_on_cuda[ty][tx]) * Ry_1 +
//                     (temp_on_cuda[ty][E] + temp_on_cuda[ty][W] - 2.0*temp_on_cuda[ty][tx]) * Rx_1 +
//                     (amb_temp - temp_on_cuda[ty][tx]) * Rz_1);
//             }
//             __syncthreads();
//             if (i == iteration-1) break;
//             if (computed) temp_on_cuda[ty][tx] = temp_t[ty][tx];
//             __syncthreads();
//         }
//         if (computed) temp_dst[index] = temp_t[ty][tx];
//     }
//
// The host launches ceil(cols / (16 - 2 pyramid_height)) x ceil(rows / ...) blocks with border =
// pyramid_height, once per pyramid_height of the total iterations, alternating the temperature
// buffers. A warp holds two rows of a block; global accesses are 64-byte row segments.
//
// Modelled SASS per warp:
//
//   0x00 .. 0x30  S2R x4
//   0x40 .. 0x130 step/Cap, 1/Rx, 1/Ry, 1/Rz: 4 IEEE divisions (MUFU.RCP + 3 FFMA each)
//   0x140 .. 0x1c0 9 ALU (block bounds, yidx, xidx, index)   0x1d0 ISETP  0x1e0 ISETP (in range)
//   lanes in range: 0x1f0 LD temp_src[index]  0x200 STS  0x210 LD power[index]  0x220 STS
//   0x230 BAR   0x240 .. 0x330 16 ALU (valid ranges, N, S, W, E)
//   loop i = 0 .. iteration-1:
//     0x340 .. 0x370 ISETP x4 (computed condition)
//     computed lanes: 0x380 .. 0x3d0 LDS x6 (temp[ty][tx], power[ty][tx], temp[S][tx], temp[N][tx],
//                     temp[ty][E], temp[ty][W]);  0x3e0 .. 0x530 22 ALU (the update, partly in
//                     double: 2.0 is a double literal);  0x540 STS temp_t[ty][tx]
//     0x550 BAR   0x560 ISETP i == iteration-1 (the last iteration leaves here)
//     computed lanes: 0x570 LDS temp_t  0x580 STS temp_on_cuda
//     0x590 BAR   0x5a0 IADD  0x5b0 ISETP  0x5c0 BRA
//   lanes computed in the last step: 0x5d0 LDS temp_t  0x5e0 ST temp_dst[index]
//   0x5f0 EXIT
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinSupport.hpp"
#include "workloads/builtin/KernelBuilder.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"

namespace gpusim {

namespace hotspot_kernel {

constexpr int64_t kBlock = 16;  // BLOCK_SIZE
constexpr unsigned kTileBytes = kBlock * kBlock * kFloatBytes;
constexpr unsigned kIndexAlu = 9, kBoundsAlu = 16, kUpdateAlu = 22;
constexpr unsigned kDivisions = 4;

namespace reg {
constexpr uint16_t kCtaX = 0, kCtaY = 1, kTidX = 2, kTidY = 3, kConst = 4, kIndex = 5, kPred = 6, kV = 7,
                   kBounds = 8, kC = 9, kP = 10, kS = 11, kN = 12, kE = 13, kW = 14, kAcc = 15, kI = 16;
constexpr unsigned kUsed = 17;
} // namespace reg

enum Tile : unsigned { kTemp, kPower, kTempT };

enum Slot : unsigned {
    kS2rCtaX, kS2rCtaY, kS2rTidX, kS2rTidY, kDiv,
    kIndexMath = kDiv + kDivisions * kFloatDiv.size(), kIsetpY = kIndexMath + kIndexAlu, kIsetpX,
    kLdTemp, kStsTemp, kLdPower, kStsPower, kBar1, kBounds,
    kIsetpC = kBounds + kBoundsAlu, kLds = kIsetpC + 4, kUpdate = kLds + 6, kStsT = kUpdate + kUpdateAlu,
    kBar2, kIsetpLast, kLdsT, kStsBack, kBar3, kIaddI, kIsetpLoop, kBra, kLdsOut, kStOut, kExit
};

struct Launch {
    uint64_t power, src, dst;
    int64_t rows, cols, iteration, border;
};

WarpProgram calculateTempWarp(WarpThreads t, Launch p) {
    const uint32_t all = t.existMask();
    const int64_t small = kBlock - p.iteration * 2;
    const int64_t blkY = small * int64_t(t.blockIdx().y) - p.border;
    const int64_t blkX = small * int64_t(t.blockIdx().x) - p.border;
    const int64_t blkYmax = blkY + kBlock - 1, blkXmax = blkX + kBlock - 1;
    const int64_t validYmin = blkY < 0 ? -blkY : 0;
    const int64_t validYmax = blkYmax > p.rows - 1 ? kBlock - 1 - (blkYmax - p.rows + 1) : kBlock - 1;
    const int64_t validXmin = blkX < 0 ? -blkX : 0;
    const int64_t validXmax = blkXmax > p.cols - 1 ? kBlock - 1 - (blkXmax - p.cols + 1) : kBlock - 1;
    auto tx = [&](unsigned l) { return int64_t(t.threadIdx(l).x); };
    auto ty = [&](unsigned l) { return int64_t(t.threadIdx(l).y); };
    auto index = [&](unsigned l) { return p.cols * (blkY + ty(l)) + blkX + tx(l); };
    auto tile = [](unsigned which, int64_t row, int64_t col) {
        return which * kTileBytes + uint64_t(row * kBlock + col) * kFloatBytes;
    };
    auto own = [&](unsigned which) { return [&, which](unsigned l) { return tile(which, ty(l), tx(l)); }; };

    co_yield inst::alu(sassPc(kS2rCtaX), all, {reg::kCtaX}, {});
    co_yield inst::alu(sassPc(kS2rCtaY), all, {reg::kCtaY}, {});
    co_yield inst::alu(sassPc(kS2rTidX), all, {reg::kTidX}, {});
    co_yield inst::alu(sassPc(kS2rTidY), all, {reg::kTidY}, {});
    for (unsigned q = 0; q < kDivisions * kFloatDiv.size(); ++q)
        co_yield inst::Plain{sassPc(kDiv + q), arithOp(kFloatDiv[q % kFloatDiv.size()]), all, {reg::kConst}, {reg::kConst}};
    for (unsigned q = 0; q < kIndexAlu; ++q)
        co_yield inst::alu(sassPc(kIndexMath + q), all, {reg::kIndex}, {reg::kIndex, reg::kCtaX, reg::kCtaY, reg::kTidY});
    co_yield inst::alu(sassPc(kIsetpY), all, {reg::kPred}, {reg::kIndex});
    co_yield inst::alu(sassPc(kIsetpX), all, {reg::kPred}, {reg::kIndex, reg::kPred});
    const uint32_t load = t.lanesWhere([&](unsigned l) {
        const int64_t y = blkY + ty(l), x = blkX + tx(l);
        return y >= 0 && y <= p.rows - 1 && x >= 0 && x <= p.cols - 1;
    });
    if (load != 0) {
        auto global = [&](uint64_t base) { return [&, base](unsigned l) { return base + uint64_t(index(l)) * kFloatBytes; }; };
        co_yield inst::load(sassPc(kLdTemp), load, {reg::kV}, {reg::kIndex}, kFloatBytes, global(p.src));
        co_yield inst::store(sassPc(kStsTemp), load, {reg::kTidX, reg::kV}, kFloatBytes, own(kTemp), MemSpace::Shared);
        co_yield inst::load(sassPc(kLdPower), load, {reg::kP}, {reg::kIndex}, kFloatBytes, global(p.power));
        co_yield inst::store(sassPc(kStsPower), load, {reg::kTidX, reg::kP}, kFloatBytes, own(kPower), MemSpace::Shared);
    }
    co_yield inst::barrier(sassPc(kBar1), all);
    for (unsigned q = 0; q < kBoundsAlu; ++q)
        co_yield inst::alu(sassPc(kBounds + q), all, {reg::kBounds}, {reg::kBounds, reg::kTidX, reg::kTidY});
    uint32_t computed = 0;
    for (int64_t i = 0; i < p.iteration; ++i) {
        for (unsigned q = 0; q < 4; ++q)
            co_yield inst::alu(sassPc(kIsetpC + q), all, {reg::kPred}, {reg::kTidX, reg::kTidY, reg::kBounds, reg::kI});
        computed = t.lanesWhere([&](unsigned l) {
            return tx(l) >= i + 1 && tx(l) <= kBlock - i - 2 && ty(l) >= i + 1 && ty(l) <= kBlock - i - 2 &&
                   tx(l) >= validXmin && tx(l) <= validXmax && ty(l) >= validYmin && ty(l) <= validYmax;
        });
        if (computed != 0) {
            // temp[ty][tx], power[ty][tx], temp[S][tx], temp[N][tx], temp[ty][E], temp[ty][W]
            const uint16_t dst[6] = {reg::kC, reg::kP, reg::kS, reg::kN, reg::kE, reg::kW};
            for (unsigned q = 0; q < 6; ++q)
                co_yield inst::load(sassPc(kLds + q), computed, {dst[q]}, {reg::kTidX, reg::kBounds}, kFloatBytes,
                                    [&, q](unsigned l) {
                                        switch (q) {
                                        case 1: return tile(kPower, ty(l), tx(l));
                                        case 2: return tile(kTemp, std::min(ty(l) + 1, validYmax), tx(l));
                                        case 3: return tile(kTemp, std::max(ty(l) - 1, validYmin), tx(l));
                                        case 4: return tile(kTemp, ty(l), std::min(tx(l) + 1, validXmax));
                                        case 5: return tile(kTemp, ty(l), std::max(tx(l) - 1, validXmin));
                                        default: return tile(kTemp, ty(l), tx(l));
                                        }
                                    },
                                    MemSpace::Shared);
            for (unsigned q = 0; q < kUpdateAlu; ++q)
                co_yield inst::alu(sassPc(kUpdate + q), computed, {reg::kAcc},
                                   {reg::kAcc, uint16_t(reg::kC + q % 6), reg::kConst});
            co_yield inst::store(sassPc(kStsT), computed, {reg::kTidX, reg::kAcc}, kFloatBytes, own(kTempT),
                                 MemSpace::Shared);
        }
        co_yield inst::barrier(sassPc(kBar2), all);
        co_yield inst::alu(sassPc(kIsetpLast), all, {reg::kPred}, {reg::kI});
        if (i == p.iteration - 1) break;
        if (computed != 0) {
            co_yield inst::load(sassPc(kLdsT), computed, {reg::kV}, {reg::kTidX}, kFloatBytes, own(kTempT), MemSpace::Shared);
            co_yield inst::store(sassPc(kStsBack), computed, {reg::kTidX, reg::kV}, kFloatBytes, own(kTemp), MemSpace::Shared);
        }
        co_yield inst::barrier(sassPc(kBar3), all);
        for (const auto& op : backEdge(all, kIaddI, reg::kI, reg::kPred)) co_yield op;
    }
    if (computed != 0) {
        co_yield inst::load(sassPc(kLdsOut), computed, {reg::kV}, {reg::kTidX}, kFloatBytes, own(kTempT), MemSpace::Shared);
        co_yield inst::store(sassPc(kStOut), computed, {reg::kIndex, reg::kV}, kFloatBytes,
                             [&](unsigned l) { return p.dst + uint64_t(index(l)) * kFloatBytes; });
    }
    co_yield inst::exit(sassPc(kExit), all);
}

std::unique_ptr<Workload> makeHotspot(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const int64_t n = int64_t(param(params, "grid")), pyramid = int64_t(param(params, "pyramid_height")),
                  total = int64_t(param(params, "iterations"));
    // main()'s cudaMalloc order.
    DeviceAllocator mem;
    const uint64_t temp[2] = {mem.allocateFloats(uint64_t(n * n)), mem.allocateFloats(uint64_t(n * n))};
    const uint64_t power = mem.allocateFloats(uint64_t(n * n));
    const int64_t smallBlock = kBlock - pyramid * 2;  // EXPAND_RATE = 2
    const unsigned blocks = static_cast<unsigned>(ceilDiv(uint64_t(n), uint64_t(smallBlock)));
    std::vector<std::unique_ptr<Kernel>> kernels;
    int src = 1, dst = 0;
    for (int64_t t = 0; t < total; t += pyramid) {
        std::swap(src, dst);
        const Launch launch{power, temp[src], temp[dst], n, n, std::min(pyramid, total - t), pyramid};
        kernels.push_back(makeProgramKernel("calculate_temp", {blocks, blocks, 1}, {unsigned(kBlock), unsigned(kBlock), 1},
                                            reg::kUsed, 3 * kTileBytes,
                                            [launch](const WarpThreads& w) { return calculateTempWarp(w, launch); }));
    }
    return std::make_unique<BasicWorkload>("hotspot", nlohmann::json(params), std::move(kernels));
}

} // namespace hotspot_kernel

WorkloadInfo hotspotWorkload() {
    using namespace hotspot_kernel;
    return {"hotspot",
            "Rodinia HotSpot: 16x16 blocks computing pyramid_height steps in shared memory with two barriers "
            "per step and shrinking ghost zones",
            {{"grid", 256, 16, 16384, "grid rows = columns (Rodinia run: 512)"},
             {"pyramid_height", 2, 1, 7, "time steps per launch (Rodinia run: 2)"},
             {"iterations", 2, 1, 100000, "total time steps (Rodinia run: 2)"}},
            makeHotspot,
            "Rodinia 3.1, hotspot (cuda/hotspot: hotspot.cu)",
            WorkloadClass::BarrierHeavy};
}

} // namespace gpusim
