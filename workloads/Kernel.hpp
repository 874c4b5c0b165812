#pragma once
// A kernel launch: geometry and resources (what the CTA dispatcher needs) and, per warp, a
// pull-based instruction stream. Streams are created when the dispatcher places a CTA, so a
// kernel never materialises all its instructions at once.
#include <cstdint>
#include <memory>
#include <string>

#include "workloads/WarpInstruction.hpp"

namespace gpusim {

struct Dim3 {
    unsigned x = 1, y = 1, z = 1;
    uint64_t size() const { return uint64_t(x) * y * z; }
};

struct KernelInfo {
    std::string name;
    Dim3 grid;
    Dim3 block;
    unsigned regsPerThread = 0;
    unsigned smemPerCta = 0;  // bytes
    // CUDA stream (a trace's -cuda stream id; built-in kernels: 0). Kernels of one stream run in
    // launch order; with gpu.kernel_concurrency spatial or mixed, different streams overlap.
    uint64_t stream = 0;
    unsigned threadsPerCta() const { return static_cast<unsigned>(block.size()); }
    unsigned warpsPerCta() const { return (threadsPerCta() + kWarpSize - 1) / kWarpSize; }
    uint64_t ctas() const { return grid.size(); }
};

class WarpStream {
public:
    virtual ~WarpStream() = default;
    // Writes the warp's next instruction and returns true; returns false after its Exit. `out`
    // arrives with every field at its default except the per-lane addresses, which may hold an
    // earlier instruction's: write those of the active lanes (nothing reads the others).
    virtual bool next(WarpInstruction& out) = 0;
};

class Kernel {
public:
    virtual ~Kernel() = default;
    virtual const KernelInfo& info() const = 0;
    // ctaId is the linear block index (x fastest); warpInCta covers threads
    // [32*warpInCta, 32*warpInCta+32) of the linearised block (x fastest); lanes past the block
    // size are inactive.
    virtual std::unique_ptr<WarpStream> warp(uint64_t ctaId, unsigned warpInCta) const = 0;
};

} // namespace gpusim
