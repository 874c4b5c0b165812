#pragma once
// Which CUDA threads one warp holds: blockIdx, each lane's threadIdx and the lanes that exist
// (a block whose size is not a multiple of 32 leaves the last warp partly empty). Built-in
// kernels derive their per-lane indices, masks and addresses from this, exactly as the CUDA
// source does from blockIdx/threadIdx.
// Models the hardware's thread-to-warp mapping: threads linearised x fastest, then y, then z,
// 32 consecutive threads per warp; blocks linearised the same way from the CTA id.
#include <algorithm>
#include <array>
#include <cstdint>

#include "workloads/Kernel.hpp"
#include "workloads/WarpInstruction.hpp"

namespace gpusim {

class WarpThreads {
public:
    WarpThreads(const KernelInfo& info, uint64_t ctaId, unsigned warpInCta)
        : blockDim_(info.block), gridDim_(info.grid), warpInCta_(warpInCta) {
        blockIdx_.x = static_cast<unsigned>(ctaId % gridDim_.x);
        blockIdx_.y = static_cast<unsigned>(ctaId / gridDim_.x % gridDim_.y);
        blockIdx_.z = static_cast<unsigned>(ctaId / (uint64_t(gridDim_.x) * gridDim_.y));
        const uint64_t threads = blockDim_.size();
        const uint64_t first = firstThreadInCta();
        // Decomposed once here: kernels ask for lane indices on every memory instruction, and
        // the divisions would otherwise dominate instruction generation. The first lane by
        // division, the others by counting on from it (x fastest, y wrapping at the block's y,
        // z never wrapping: the same values as t % bx, t / bx % by, t / (bx * by)); a warp is
        // built per warp started, and three divisions per lane were a third of its cost.
        Dim3 idx{static_cast<unsigned>(first % blockDim_.x), static_cast<unsigned>(first / blockDim_.x % blockDim_.y),
                 static_cast<unsigned>(first / (uint64_t(blockDim_.x) * blockDim_.y))};
        const uint64_t live = first < threads ? std::min<uint64_t>(threads - first, kWarpSize) : 0;
        existMask_ = live == kWarpSize ? ~uint32_t(0) : (uint32_t(1) << live) - 1u;
        const uint64_t blockX = uint64_t(blockIdx_.x) * blockDim_.x;
        if (uint64_t(idx.x) + kWarpSize <= blockDim_.x) {
            // The warp within one row of the block (every warp of a 1-D block of a multiple of
            // 32 threads): x counts on, y and z stay; a loop without the wrap tests, which g++
            // vectorises (issue 19: a streaming kernel starts a warp per nine instructions).
            for (unsigned lane = 0; lane < kWarpSize; ++lane) {
                threadIdx_[lane] = {idx.x + lane, idx.y, idx.z};
                globalX_[lane] = blockX + idx.x + lane;
            }
            return;
        }
        for (unsigned lane = 0; lane < kWarpSize; ++lane) {
            threadIdx_[lane] = {idx.x, idx.y, idx.z};
            globalX_[lane] = blockX + idx.x;
            if (++idx.x == blockDim_.x) {
                idx.x = 0;
                if (++idx.y == blockDim_.y) {
                    idx.y = 0;
                    ++idx.z;
                }
            }
        }
    }

    const Dim3& blockIdx() const { return blockIdx_; }
    const Dim3& blockDim() const { return blockDim_; }
    const Dim3& gridDim() const { return gridDim_; }
    unsigned warpInCta() const { return warpInCta_; }
    // Lanes backed by a thread of the block; the rest never execute anything.
    uint32_t existMask() const { return existMask_; }
    uint64_t firstThreadInCta() const { return uint64_t(warpInCta_) * kWarpSize; }

    // Meaningful for existing lanes only.
    Dim3 threadIdx(unsigned lane) const {
        const Index& i = threadIdx_[lane];
        return {i.x, i.y, i.z};
    }
    // blockIdx.x * blockDim.x + threadIdx.x: the usual 1-D global index.
    uint64_t globalX(unsigned lane) const { return globalX_[lane]; }
    uint64_t globalY(unsigned lane) const {
        return uint64_t(blockIdx_.y) * blockDim_.y + threadIdx(lane).y;
    }

    // Existing lanes for which pred(lane) holds: the active mask after an `if (...)`.
    template <class Pred>
    uint32_t lanesWhere(Pred&& pred) const {
        return lanesWhere(existMask_, pred);
    }
    // The lanes of `among` (already active) for which pred(lane) holds; pred is evaluated for
    // those lanes only, so it may index data that exists only for them (an `if` nested in a
    // guarded region).
    template <class Pred>
    uint32_t lanesWhere(uint32_t among, Pred&& pred) const {
        uint32_t mask = 0;
        among &= existMask_;
        if (among == ~uint32_t(0)) {
            // A full warp (most of them) without the per-lane test of `among`: a branch-free
            // loop (issue 19: a streaming kernel asks this once per warp started).
            for (unsigned lane = 0; lane < kWarpSize; ++lane) mask |= uint32_t(bool(pred(lane))) << lane;
            return mask;
        }
        for (unsigned lane = 0; lane < kWarpSize; ++lane)
            if ((among >> lane & 1u) && pred(lane)) mask |= 1u << lane;
        return mask;
    }

private:
    Dim3 blockDim_, gridDim_, blockIdx_;
    unsigned warpInCta_;
    uint32_t existMask_ = 0;
    // Both tables are written for every lane by the constructor, so neither is filled first
    // (Dim3's members have defaults: an array of it was written twice per warp started).
    struct Index {
        unsigned x, y, z;
    };
    std::array<Index, kWarpSize> threadIdx_;
    // globalX per lane, tabulated with threadIdx_: kernels compute a lane's address from it on
    // every memory instruction, and a flat array of it lets g++ vectorise a full warp's address
    // loop (issue 19).
    std::array<uint64_t, kWarpSize> globalX_;
};

} // namespace gpusim
