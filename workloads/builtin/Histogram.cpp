// histogram: 256-bin byte histogram with atomics, the two kernels of "CUDA by Example" (Sanders and
// Kandrot, ch. 9): privatized (a shared-memory histogram per block, merged into the global one with
// global atomics) or global (one global atomic per byte). Grid-stride loop over a seeded random
// buffer, 256-thread blocks, 2 blocks per SM (the book: blocks = multiProcessorCount * 2):
//
//     __global__ void histo_kernel(unsigned char* buffer, long size, unsigned int* histo) {  // privatized
//         __shared__ unsigned int temp[256];
//         temp[threadIdx.x] = 0;
//         __syncthreads();
//         int i = threadIdx.x + blockIdx.x * blockDim.x;
//         int offset = blockDim.x * gridDim.x;
//         while (i < size) { atomicAdd(&temp[buffer[i]], 1); i += offset; }
//         __syncthreads();
//         atomicAdd(&(histo[threadIdx.x]), temp[threadIdx.x]);
//     }
//     __global__ void histo_kernel(unsigned char* buffer, long size, unsigned int* histo) {  // global
//         int i = threadIdx.x + blockIdx.x * blockDim.x;
//         int stride = blockDim.x * gridDim.x;
//         while (i < size) { atomicAdd(&(histo[buffer[i]]), 1); i += stride; }
//     }
//
// Atomics: both kernels discard atomicAdd's result, and nvcc compiles a global atomicAdd whose
// result is unused to a reduction, RED.E.ADD (ATOM.E.ADD, with a destination register, only
// when the old value is used), so the global atomics here are RED: 4 bytes per active lane, done
// at the L2 slice's read-modify-write unit (lanes on one bin go as separate requests and
// serialise there; memory/L2Slice.hpp), with no register for the warp to wait on.
// A shared-memory atomicAdd is what Fermi compiles it to: a lock loop, LDSLK / IADD / STSUL / BRA,
// repeated until every lane has updated its bin; each round one lane per distinct bin succeeds,
// so a warp runs as many rounds as the most frequent bin among its active lanes.
//
// Modelled SASS per warp, privatized:
//
//   0x00 S2R TID.X  0x10 S2R CTAID.X  0x20 STS temp[tid] <- RZ  0x30 BAR
//   0x40 IMAD i  0x50 IMAD offset  0x60 ISETP i < size
//   loop (lanes with i < size):
//     0x70 LD.U8 buffer[i]
//     rounds: 0x80 LDSLK temp[bin] (pending lanes)  0x90 IADD (winners)  0xa0 STSUL temp[bin] (winners)
//             0xb0 BRA (pending lanes)
//     0xc0 IADD i  0xd0 ISETP  0xe0 BRA
//   0xf0 BAR  0x100 LDS temp[tid]  0x110 RED.E.ADD histo[tid]  0x120 EXIT
//
// global:
//
//   0x00 S2R TID.X  0x10 S2R CTAID.X  0x20 IMAD i  0x30 IMAD stride  0x40 ISETP
//   loop: 0x50 LD.U8 buffer[i]  0x60 RED.E.ADD histo[bin]  0x70 IADD  0x80 ISETP  0x90 BRA
//   0xa0 EXIT
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/SeededRandom.hpp"
#include "workloads/builtin/BuiltinSupport.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"

namespace gpusim {

namespace histogram_kernel {

constexpr unsigned kThreads = 256, kBins = 256;

namespace reg {
constexpr uint16_t kTid = 0, kCta = 1, kI = 2, kStride = 3, kPred = 4, kByte = 5, kCount = 6;
constexpr unsigned kUsed = 8;  // as compiled: R7 held the lock flag before it became the predicate
} // namespace reg

enum PrivSlot : unsigned {
    pS2rTid, pS2rCta, pStsZero, pBar1, pImadI, pImadOffset, pIsetp, pLd, pLdslk, pIadd, pStsul, pBraLock,
    pIaddI, pIsetpLoop, pBra, pBar2, pLds, pAtom, pExit
};
enum GlobalSlot : unsigned { gS2rTid, gS2rCta, gImadI, gImadStride, gIsetp, gLd, gAtom, gIaddI, gIsetpLoop, gBra, gExit };

struct Buffers {
    uint64_t buffer, histo, size, seed;
    uint8_t byteAt(uint64_t i) const { return uint8_t(hashOf(seed, i)); }
};

WarpProgram privatizedWarp(WarpThreads t, Buffers b) {
    const uint32_t all = t.existMask();
    const uint64_t threads = uint64_t(t.blockDim().x) * t.gridDim().x;
    auto tid = [&](unsigned l) { return uint64_t(t.threadIdx(l).x); };
    co_yield inst::alu(sassPc(pS2rTid), all, {reg::kTid}, {});
    co_yield inst::alu(sassPc(pS2rCta), all, {reg::kCta}, {});
    co_yield inst::store(sassPc(pStsZero), all, {reg::kTid, kRz}, kIntBytes,
                         [&](unsigned l) { return tid(l) * kIntBytes; }, MemSpace::Shared);
    co_yield inst::barrier(sassPc(pBar1), all);
    co_yield inst::alu(sassPc(pImadI), all, {reg::kI}, {reg::kTid, reg::kCta});
    co_yield inst::alu(sassPc(pImadOffset), all, {reg::kStride}, {});
    co_yield inst::alu(sassPc(pIsetp), all, {reg::kPred}, {reg::kI});
    for (uint64_t round = 0;; ++round) {
        auto index = [&](unsigned l) { return t.globalX(l) + round * threads; };
        const uint32_t live = t.lanesWhere([&](unsigned l) { return index(l) < b.size; });
        if (live == 0) break;
        co_yield inst::load(sassPc(pLd), live, {reg::kByte}, {reg::kI}, 1, [&](unsigned l) { return b.buffer + index(l); });
        std::array<uint8_t, kWarpSize> bin{};
        for (unsigned l = 0; l < kWarpSize; ++l)
            if (live >> l & 1u) bin[l] = b.byteAt(index(l));
        auto slot = [&](unsigned l) { return uint64_t(bin[l]) * kIntBytes; };
        uint32_t pending = live;
        while (pending != 0) {
            // One lane per distinct bin takes the lock this round: the lowest pending lane.
            uint32_t winners = 0;
            for (unsigned l = 0; l < kWarpSize; ++l) {
                if (!(pending >> l & 1u)) continue;
                bool first = true;
                for (unsigned m = 0; m < l && first; ++m) first = !((pending >> m & 1u) && bin[m] == bin[l]);
                if (first) winners |= 1u << l;
            }
            // LDSLK's lock result is a predicate (LDSLK P0, R, [addr]), not a register: traces list
            // general registers only, and Accel-Sim takes one destination. The branch on P0 waits
            // for the same load as kCount, so it names kCount.
            co_yield inst::load(sassPc(pLdslk), pending, {reg::kCount}, {reg::kByte}, kIntBytes, slot, MemSpace::Shared);
            co_yield inst::alu(sassPc(pIadd), winners, {reg::kCount}, {reg::kCount});
            co_yield inst::store(sassPc(pStsul), winners, {reg::kByte, reg::kCount}, kIntBytes, slot, MemSpace::Shared);
            co_yield inst::alu(sassPc(pBraLock), pending, {}, {reg::kCount});
            pending &= ~winners;
        }
        co_yield inst::alu(sassPc(pIaddI), live, {reg::kI}, {reg::kI, reg::kStride});
        co_yield inst::alu(sassPc(pIsetpLoop), live, {reg::kPred}, {reg::kI});
        co_yield inst::alu(sassPc(pBra), live, {}, {reg::kPred});
    }
    co_yield inst::barrier(sassPc(pBar2), all);
    co_yield inst::load(sassPc(pLds), all, {reg::kCount}, {reg::kTid}, kIntBytes,
                        [&](unsigned l) { return tid(l) * kIntBytes; }, MemSpace::Shared);
    co_yield inst::red(sassPc(pAtom), all, {reg::kTid, reg::kCount}, kIntBytes,
                       [&](unsigned l) { return b.histo + tid(l) * kIntBytes; });
    co_yield inst::exit(sassPc(pExit), all);
}

WarpProgram globalWarp(WarpThreads t, Buffers b) {
    const uint32_t all = t.existMask();
    const uint64_t threads = uint64_t(t.blockDim().x) * t.gridDim().x;
    co_yield inst::alu(sassPc(gS2rTid), all, {reg::kTid}, {});
    co_yield inst::alu(sassPc(gS2rCta), all, {reg::kCta}, {});
    co_yield inst::alu(sassPc(gImadI), all, {reg::kI}, {reg::kTid, reg::kCta});
    co_yield inst::alu(sassPc(gImadStride), all, {reg::kStride}, {});
    co_yield inst::alu(sassPc(gIsetp), all, {reg::kPred}, {reg::kI});
    for (uint64_t round = 0;; ++round) {
        auto index = [&](unsigned l) { return t.globalX(l) + round * threads; };
        const uint32_t live = t.lanesWhere([&](unsigned l) { return index(l) < b.size; });
        if (live == 0) break;
        co_yield inst::load(sassPc(gLd), live, {reg::kByte}, {reg::kI}, 1, [&](unsigned l) { return b.buffer + index(l); });
        co_yield inst::red(sassPc(gAtom), live, {reg::kByte, kRz}, kIntBytes,
                           [&](unsigned l) { return b.histo + uint64_t(b.byteAt(index(l))) * kIntBytes; });
        co_yield inst::alu(sassPc(gIaddI), live, {reg::kI}, {reg::kI, reg::kStride});
        co_yield inst::alu(sassPc(gIsetpLoop), live, {reg::kPred}, {reg::kI});
        co_yield inst::alu(sassPc(gBra), live, {}, {reg::kPred});
    }
    co_yield inst::exit(sassPc(gExit), all);
}

std::unique_ptr<Workload> makeHistogram(const std::map<std::string, int64_t>& params, uint64_t seed) {
    const uint64_t size = param(params, "bytes"), blocks = param(params, "blocks");
    const bool privatized = param(params, "privatized") != 0;
    // main()'s cudaMalloc order.
    DeviceAllocator mem;
    Buffers b;
    b.buffer = mem.allocate(size);
    b.histo = mem.allocate(kBins * kIntBytes);
    b.size = size;
    b.seed = seed;
    std::vector<std::unique_ptr<Kernel>> kernels;
    const Dim3 grid{static_cast<unsigned>(blocks), 1, 1};
    if (privatized)
        kernels.push_back(makeProgramKernel("histo_kernel", grid, {kThreads, 1, 1}, reg::kUsed, kBins * kIntBytes,
                                            [b](const WarpThreads& t) { return privatizedWarp(t, b); }));
    else
        kernels.push_back(makeProgramKernel("histo_kernel", grid, {kThreads, 1, 1}, reg::kUsed, 0,
                                            [b](const WarpThreads& t) { return globalWarp(t, b); }));
    return std::make_unique<BasicWorkload>("histogram", nlohmann::json(params), std::move(kernels));
}

} // namespace histogram_kernel

WorkloadInfo histogramWorkload() {
    using namespace histogram_kernel;
    return {"histogram",
            "256-bin histogram of random bytes with atomics: shared-memory lock loops plus a global merge "
            "(privatized=1) or one scattered global atomic per byte (privatized=0)",
            {{"bytes", 1 << 21, 1, int64_t(1) << 32, "input bytes (CUDA by Example: 100 MB)"},
             {"blocks", 30, 1, 65535, "grid size, 256 threads per block (the book: 2 per SM, 30 on fermi15)"},
             {"privatized", 1, 0, 1, "1: shared-memory histogram per block, 0: global atomics only"}},
            makeHistogram,
            "CUDA by Example (Sanders & Kandrot), ch. 9 histogram (hist_gpu_shmem_atomics.cu, hist_gpu_gmem_atomics.cu)",
            WorkloadClass::MemoryDivergent};
}

} // namespace gpusim
