// backprop: Rodinia back-propagation (cuda/backprop), one training step of a 2-layer network with
// `in` input units and 16 hidden units, as its two kernels on a grid of (1, in / 16) blocks of
// 16 x 16 threads:
//
//     __global__ void bpnn_layerforward_CUDA(float* input_cuda, float* output_hidden_cuda,
//                                            float* input_hidden_cuda, float* hidden_partial_sum, int in, int hid) {
//         int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
//         int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
//         int index_in = HEIGHT * by + ty + 1;
//         __shared__ float input_node[HEIGHT];
//         __shared__ float weight_matrix[HEIGHT][WIDTH];
//         if (tx == 0) input_node[ty] = input_cuda[index_in];
//         __syncthreads();
//         weight_matrix[ty][tx] = input_hidden_cuda[index];
//         __syncthreads();
//         weight_matrix[ty][tx] = weight_matrix[ty][tx] * input_node[ty];
//         __syncthreads();
//         for (int i = 1; i <= __log2f(HEIGHT); i++) {
//             int power_two = __powf(2, i);
//             if (ty % power_two == 0) weight_matrix[ty][tx] = weight_matrix[ty][tx] + weight_matrix[ty + power_two/2][tx];
//             __syncthreads();
//         }
//         __syncthreads();
//         if (tx == 0) hidden_partial_sum[by * hid + ty] = weight_matrix[tx][ty];
//     }
//     __global__ void bpnn_adjust_weights_cuda(float* delta, int hid, float* ly, int in, float* w, float* oldw) {
//         int by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
//         int index = (hid + 1) * HEIGHT * by + (hid + 1) * ty + tx + 1 + (hid + 1);
//         int index_y = HEIGHT * by + ty + 1, index_x = tx + 1;
//         w[index] += ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));
//         oldw[index] = ((ETA * delta[index_x] * ly[index_y]) + (MOMENTUM * oldw[index]));
//         __syncthreads();
//         if (ty == 0 && by == 0) {
//             w[index_x] += ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
//             oldw[index_x] = ((ETA * delta[index_x]) + (MOMENTUM * oldw[index_x]));
//         }
//     }
//
// HEIGHT = WIDTH = 16, hid = 16, ETA = MOMENTUM = 0.3 (double constants: the update is double
// arithmetic). A warp holds rows ty = 2w, 2w + 1; weight rows are hid + 1 = 17 floats long, so a
// warp's weight access is two 64-byte segments at an odd offset. The reduction halves its active
// rows each step: ty % 2, % 4, % 8, % 16.
//
// Modelled SASS per warp, bpnn_layerforward_CUDA:
//
//   0x00 S2R CTAID.Y  0x10 S2R TID.X  0x20 S2R TID.Y  0x30 IMAD  0x40 IMAD (index)  0x50 IMAD (index_in)
//   0x60 ISETP tx == 0;  lanes tx == 0: 0x70 LD input[index_in]  0x80 STS input_node[ty]
//   0x90 BAR   0xa0 LD input_hidden[index]  0xb0 STS weight_matrix[ty][tx]  0xc0 BAR
//   0xd0 LDS weight_matrix[ty][tx]  0xe0 LDS input_node[ty]  0xf0 FMUL  0x100 STS  0x110 BAR
//   loop i = 1 .. 4 (and the failing check for i = 5):
//     0x120 I2F  0x130 MUFU.LG2  0x140 FSETP          i <= __log2f(HEIGHT), evaluated every time
//     0x150 MUFU.LG2  0x160 FMUL  0x170 MUFU.EX2  0x180 F2I        __powf(2, i)
//     0x190 I2F  0x1a0 MUFU.RCP  0x1b0 F2I  0x1c0 IMAD  0x1d0 IADD  ty % power_two (variable divisor)
//     0x1e0 ISETP == 0;  lanes with ty % power_two == 0: 0x1f0 LDS  0x200 LDS  0x210 FADD  0x220 STS
//     0x230 BAR   0x240 IADD i   0x250 BRA
//   0x260 BAR;  lanes tx == 0: 0x270 LDS weight_matrix[0][ty]  0x280 ST hidden_partial_sum[by*hid + ty]
//   0x290 EXIT
//
// bpnn_adjust_weights_cuda:
//
//   0x00 .. 0x60  S2R x3, IMAD x3, IADD (index, index_y, index_x)
//   0x70 LD delta[index_x]  0x80 LD ly[index_y]  0x90 LD oldw[index]  0xa0 LD w[index]
//   0xb0 .. 0x130  9 double-precision steps (F2F, DMUL, F2F, DMUL, F2F, DFMA, F2F, DADD, F2F)
//   0x140 ST w[index]
//   0x150 LD delta  0x160 LD ly  0x170 LD oldw       reloaded: the store to w may alias them
//   0x180 .. 0x1e0  7 double-precision steps     0x1f0 ST oldw[index]
//   0x200 BAR   0x210 ISETP ty == 0   0x220 ISETP by == 0
//   lanes ty == 0 in block 0: 0x230 LD delta[index_x]  0x240 LD oldw[index_x]  0x250 LD w[index_x]
//     0x260 .. 0x2c0  7 steps  0x2d0 ST w[index_x]  0x2e0 LD delta  0x2f0 LD oldw  0x300 .. 0x340 5 steps
//     0x350 ST oldw[index_x]
//   0x360 EXIT
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinSupport.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"

namespace gpusim {

namespace backprop_kernel {

constexpr unsigned kHeight = 16, kWidth = 16, kHid = 16;
constexpr unsigned kReductionSteps = 4;  // log2(HEIGHT)
constexpr unsigned kInputNodeBytes = kHeight * kFloatBytes;
constexpr unsigned kSmemBytes = kInputNodeBytes + kHeight * kWidth * kFloatBytes;

constexpr std::string_view kLoopCheck = "ASA";  // I2F, MUFU.LG2, FSETP
constexpr std::string_view kPowf = "SASA";      // MUFU.LG2, FMUL, MUFU.EX2, F2I
constexpr std::string_view kModulo = "ASAAA";   // I2F, MUFU.RCP, F2I, IMAD, IADD
constexpr std::string_view kUpdate1 = "AAAAAAAAA", kUpdate2 = "AAAAAAA", kBias1 = "AAAAAAA", kBias2 = "AAAAA";

namespace reg {
constexpr uint16_t kCtaY = 0, kTidX = 1, kTidY = 2, kIndex = 3, kIndex2 = 4, kIndexIn = 5, kPred = 6, kV = 7,
                   kW = 8, kI = 9, kPow = 10, kMod = 11, kA = 12, kB = 13, kDelta = 14, kLy = 15, kOld = 16;
constexpr unsigned kUsed = 17;
} // namespace reg

struct Net {
    uint64_t input, outputHidden, inputHidden, partialSum, hiddenDelta, prevWeights;
};

// Layer-forward static layout.
enum Fwd : unsigned {
    fS2rCtaY, fS2rTidX, fS2rTidY, fImad1, fImad2, fImadIn, fIsetpTx, fLdInput, fStsInput, fBar1,
    fLdWeight, fStsWeight, fBar2, fLdsW, fLdsIn, fFmul, fStsW, fBar3, fCheck,
    fPow = fCheck + kLoopCheck.size(), fMod = fPow + kPowf.size(), fIsetpMod = fMod + kModulo.size(),
    fLdsA, fLdsB, fFadd, fStsSum, fBar4, fIadd, fBra, fBar5, fLdsOut, fStOut, fExit
};

uint64_t weightIndex(uint64_t by, uint64_t ty, uint64_t tx) {
    return (kHid + 1) * kHeight * by + (kHid + 1) * ty + tx + 1 + (kHid + 1);
}

WarpProgram forwardWarp(WarpThreads t, Net net) {
    const uint32_t all = t.existMask();
    const uint64_t by = t.blockIdx().y;
    auto tx = [&](unsigned l) { return uint64_t(t.threadIdx(l).x); };
    auto ty = [&](unsigned l) { return uint64_t(t.threadIdx(l).y); };
    auto wm = [](uint64_t row, uint64_t col) { return kInputNodeBytes + (row * kWidth + col) * kFloatBytes; };
    co_yield inst::alu(sassPc(fS2rCtaY), all, {reg::kCtaY}, {});
    co_yield inst::alu(sassPc(fS2rTidX), all, {reg::kTidX}, {});
    co_yield inst::alu(sassPc(fS2rTidY), all, {reg::kTidY}, {});
    co_yield inst::alu(sassPc(fImad1), all, {reg::kIndex}, {reg::kCtaY, reg::kTidY});
    co_yield inst::alu(sassPc(fImad2), all, {reg::kIndex2}, {reg::kIndex, reg::kTidX});
    co_yield inst::alu(sassPc(fImadIn), all, {reg::kIndexIn}, {reg::kCtaY, reg::kTidY});
    co_yield inst::alu(sassPc(fIsetpTx), all, {reg::kPred}, {reg::kTidX});
    const uint32_t first = t.lanesWhere([&](unsigned l) { return tx(l) == 0; });
    if (first != 0) {
        co_yield inst::load(sassPc(fLdInput), first, {reg::kV}, {reg::kIndexIn}, kFloatBytes,
                            [&](unsigned l) { return net.input + (kHeight * by + ty(l) + 1) * kFloatBytes; });
        co_yield inst::store(sassPc(fStsInput), first, {reg::kTidY, reg::kV}, kFloatBytes,
                             [&](unsigned l) { return ty(l) * kFloatBytes; }, MemSpace::Shared);
    }
    co_yield inst::barrier(sassPc(fBar1), all);
    co_yield inst::load(sassPc(fLdWeight), all, {reg::kW}, {reg::kIndex2}, kFloatBytes,
                        [&](unsigned l) { return net.inputHidden + weightIndex(by, ty(l), tx(l)) * kFloatBytes; });
    auto own = [&](unsigned l) { return wm(ty(l), tx(l)); };
    co_yield inst::store(sassPc(fStsWeight), all, {reg::kTidX, reg::kW}, kFloatBytes, own, MemSpace::Shared);
    co_yield inst::barrier(sassPc(fBar2), all);
    co_yield inst::load(sassPc(fLdsW), all, {reg::kA}, {reg::kTidX}, kFloatBytes, own, MemSpace::Shared);
    co_yield inst::load(sassPc(fLdsIn), all, {reg::kB}, {reg::kTidY}, kFloatBytes,
                        [&](unsigned l) { return ty(l) * kFloatBytes; }, MemSpace::Shared);
    co_yield inst::alu(sassPc(fFmul), all, {reg::kA}, {reg::kA, reg::kB});
    co_yield inst::store(sassPc(fStsW), all, {reg::kTidX, reg::kA}, kFloatBytes, own, MemSpace::Shared);
    co_yield inst::barrier(sassPc(fBar3), all);
    for (unsigned i = 1; i <= kReductionSteps + 1; ++i) {
        for (unsigned q = 0; q < kLoopCheck.size(); ++q)
            co_yield inst::Plain{sassPc(fCheck + q), arithOp(kLoopCheck[q]), all, {reg::kPred}, {reg::kI, reg::kPred}};
        if (i > kReductionSteps) break;
        for (unsigned q = 0; q < kPowf.size(); ++q)
            co_yield inst::Plain{sassPc(fPow + q), arithOp(kPowf[q]), all, {reg::kPow}, {reg::kI, reg::kPow}};
        for (unsigned q = 0; q < kModulo.size(); ++q)
            co_yield inst::Plain{sassPc(fMod + q), arithOp(kModulo[q]), all, {reg::kMod}, {reg::kTidY, reg::kPow, reg::kMod}};
        co_yield inst::alu(sassPc(fIsetpMod), all, {reg::kPred}, {reg::kMod});
        const uint64_t power = uint64_t(1) << i;
        const uint32_t sum = t.lanesWhere([&](unsigned l) { return ty(l) % power == 0; });
        if (sum != 0) {
            co_yield inst::load(sassPc(fLdsA), sum, {reg::kA}, {reg::kTidX}, kFloatBytes, own, MemSpace::Shared);
            co_yield inst::load(sassPc(fLdsB), sum, {reg::kB}, {reg::kTidX, reg::kPow}, kFloatBytes,
                                [&](unsigned l) { return wm(ty(l) + power / 2, tx(l)); }, MemSpace::Shared);
            co_yield inst::alu(sassPc(fFadd), sum, {reg::kA}, {reg::kA, reg::kB});
            co_yield inst::store(sassPc(fStsSum), sum, {reg::kTidX, reg::kA}, kFloatBytes, own, MemSpace::Shared);
        }
        co_yield inst::barrier(sassPc(fBar4), all);
        co_yield inst::alu(sassPc(fIadd), all, {reg::kI}, {reg::kI});
        co_yield inst::alu(sassPc(fBra), all, {}, {reg::kPred});
    }
    co_yield inst::barrier(sassPc(fBar5), all);
    if (first != 0) {
        co_yield inst::load(sassPc(fLdsOut), first, {reg::kA}, {reg::kTidY}, kFloatBytes,
                            [&](unsigned l) { return wm(tx(l), ty(l)); }, MemSpace::Shared);
        co_yield inst::store(sassPc(fStOut), first, {reg::kCtaY, reg::kTidY, reg::kA}, kFloatBytes,
                             [&](unsigned l) { return net.partialSum + (by * kHid + ty(l)) * kFloatBytes; });
    }
    co_yield inst::exit(sassPc(fExit), all);
}

// Adjust-weights static layout.
enum Adj : unsigned {
    aS2rCtaY, aS2rTidX, aS2rTidY, aImad1, aImad2, aImadY, aIaddX,
    aLdDelta, aLdLy, aLdOld, aLdW, aMath1, aStW = aMath1 + kUpdate1.size(),
    aLdDelta2, aLdLy2, aLdOld2, aMath2, aStOld = aMath2 + kUpdate2.size(), aBar,
    aIsetpTy, aIsetpBy, aLdDeltaX, aLdOldX, aLdWX, aMath3, aStWX = aMath3 + kBias1.size(),
    aLdDeltaX2, aLdOldX2, aMath4, aStOldX = aMath4 + kBias2.size(), aExit
};

WarpProgram adjustWarp(WarpThreads t, Net net) {
    const uint32_t all = t.existMask();
    const uint64_t by = t.blockIdx().y;
    auto tx = [&](unsigned l) { return uint64_t(t.threadIdx(l).x); };
    auto ty = [&](unsigned l) { return uint64_t(t.threadIdx(l).y); };
    co_yield inst::alu(sassPc(aS2rCtaY), all, {reg::kCtaY}, {});
    co_yield inst::alu(sassPc(aS2rTidX), all, {reg::kTidX}, {});
    co_yield inst::alu(sassPc(aS2rTidY), all, {reg::kTidY}, {});
    co_yield inst::alu(sassPc(aImad1), all, {reg::kIndex}, {reg::kCtaY, reg::kTidY});
    co_yield inst::alu(sassPc(aImad2), all, {reg::kIndex2}, {reg::kIndex, reg::kTidX});
    co_yield inst::alu(sassPc(aImadY), all, {reg::kIndexIn}, {reg::kCtaY, reg::kTidY});
    co_yield inst::alu(sassPc(aIaddX), all, {reg::kIndex}, {reg::kTidX});
    auto deltaX = [&](unsigned l) { return net.hiddenDelta + (tx(l) + 1) * kFloatBytes; };
    auto lyY = [&](unsigned l) { return net.input + (kHeight * by + ty(l) + 1) * kFloatBytes; };
    auto at = [&](uint64_t base) {
        return [&tx, &ty, base, by](unsigned l) { return base + weightIndex(by, ty(l), tx(l)) * kFloatBytes; };
    };
    auto math = [&](unsigned slot, std::string_view run, unsigned q, uint32_t mask) {
        return inst::Plain{sassPc(slot + q), arithOp(run[q]), mask, {reg::kA}, {reg::kA, reg::kDelta, reg::kOld}};
    };
    co_yield inst::load(sassPc(aLdDelta), all, {reg::kDelta}, {reg::kIndex}, kFloatBytes, deltaX);
    co_yield inst::load(sassPc(aLdLy), all, {reg::kLy}, {reg::kIndexIn}, kFloatBytes, lyY);
    co_yield inst::load(sassPc(aLdOld), all, {reg::kOld}, {reg::kIndex2}, kFloatBytes, at(net.prevWeights));
    co_yield inst::load(sassPc(aLdW), all, {reg::kW}, {reg::kIndex2}, kFloatBytes, at(net.inputHidden));
    for (unsigned q = 0; q < kUpdate1.size(); ++q) co_yield math(aMath1, kUpdate1, q, all);
    co_yield inst::store(sassPc(aStW), all, {reg::kIndex2, reg::kA}, kFloatBytes, at(net.inputHidden));
    co_yield inst::load(sassPc(aLdDelta2), all, {reg::kDelta}, {reg::kIndex}, kFloatBytes, deltaX);
    co_yield inst::load(sassPc(aLdLy2), all, {reg::kLy}, {reg::kIndexIn}, kFloatBytes, lyY);
    co_yield inst::load(sassPc(aLdOld2), all, {reg::kOld}, {reg::kIndex2}, kFloatBytes, at(net.prevWeights));
    for (unsigned q = 0; q < kUpdate2.size(); ++q) co_yield math(aMath2, kUpdate2, q, all);
    co_yield inst::store(sassPc(aStOld), all, {reg::kIndex2, reg::kA}, kFloatBytes, at(net.prevWeights));
    co_yield inst::barrier(sassPc(aBar), all);
    co_yield inst::alu(sassPc(aIsetpTy), all, {reg::kPred}, {reg::kTidY});
    co_yield inst::alu(sassPc(aIsetpBy), all, {reg::kPred}, {reg::kCtaY, reg::kPred});
    const uint32_t bias = by == 0 ? t.lanesWhere([&](unsigned l) { return ty(l) == 0; }) : 0;
    if (bias != 0) {
        auto x = [&](uint64_t base) { return [&tx, base](unsigned l) { return base + (tx(l) + 1) * kFloatBytes; }; };
        co_yield inst::load(sassPc(aLdDeltaX), bias, {reg::kDelta}, {reg::kIndex}, kFloatBytes, deltaX);
        co_yield inst::load(sassPc(aLdOldX), bias, {reg::kOld}, {reg::kIndex}, kFloatBytes, x(net.prevWeights));
        co_yield inst::load(sassPc(aLdWX), bias, {reg::kW}, {reg::kIndex}, kFloatBytes, x(net.inputHidden));
        for (unsigned q = 0; q < kBias1.size(); ++q) co_yield math(aMath3, kBias1, q, bias);
        co_yield inst::store(sassPc(aStWX), bias, {reg::kIndex, reg::kA}, kFloatBytes, x(net.inputHidden));
        co_yield inst::load(sassPc(aLdDeltaX2), bias, {reg::kDelta}, {reg::kIndex}, kFloatBytes, deltaX);
        co_yield inst::load(sassPc(aLdOldX2), bias, {reg::kOld}, {reg::kIndex}, kFloatBytes, x(net.prevWeights));
        for (unsigned q = 0; q < kBias2.size(); ++q) co_yield math(aMath4, kBias2, q, bias);
        co_yield inst::store(sassPc(aStOldX), bias, {reg::kIndex, reg::kA}, kFloatBytes, x(net.prevWeights));
    }
    co_yield inst::exit(sassPc(aExit), all);
}

std::unique_ptr<Workload> makeBackprop(const std::map<std::string, int64_t>& params, uint64_t /*seed*/) {
    const uint64_t in = param(params, "in");
    requireParam(in % kHeight == 0, "backprop", "in must be a multiple of 16, got " + std::to_string(in));
    const uint64_t blocks = in / kHeight;
    // bpnn_train_cuda's cudaMalloc order (the last two after the forward kernel).
    DeviceAllocator mem;
    Net net;
    net.input = mem.allocateFloats(in + 1);
    net.outputHidden = mem.allocateFloats(kHid + 1);
    net.inputHidden = mem.allocateFloats((in + 1) * (kHid + 1));
    net.partialSum = mem.allocateFloats(blocks * kWidth);
    net.hiddenDelta = mem.allocateFloats(kHid + 1);
    net.prevWeights = mem.allocateFloats((in + 1) * (kHid + 1));
    const Dim3 grid{1, static_cast<unsigned>(blocks), 1};
    std::vector<std::unique_ptr<Kernel>> kernels;
    kernels.push_back(makeProgramKernel("bpnn_layerforward_CUDA", grid, {kWidth, kHeight, 1}, reg::kUsed, kSmemBytes,
                                        [net](const WarpThreads& t) { return forwardWarp(t, net); }));
    kernels.push_back(makeProgramKernel("bpnn_adjust_weights_cuda", grid, {kWidth, kHeight, 1}, reg::kUsed, 0,
                                        [net](const WarpThreads& t) { return adjustWarp(t, net); }));
    return std::make_unique<BasicWorkload>("backprop", nlohmann::json(params), std::move(kernels));
}

} // namespace backprop_kernel

WorkloadInfo backpropWorkload() {
    using namespace backprop_kernel;
    return {"backprop",
            "Rodinia backprop: layer-forward (shared-memory tree reduction, 8 barriers) and adjust-weights "
            "(double-precision update) kernels",
            {{"in", 8192, 16, 1 << 22, "input units, a multiple of 16; in/16 blocks (Rodinia run: 65536)"}},
            makeBackprop,
            "Rodinia 3.1, backprop (cuda/backprop: backprop_cuda_kernel.cu)",
            WorkloadClass::BarrierHeavy};
}

} // namespace gpusim
