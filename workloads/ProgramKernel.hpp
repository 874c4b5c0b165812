#pragma once
// A Kernel whose warps run a WarpProgram: the glue between a built-in kernel's coroutine body
// and the Kernel interface the CTA dispatcher uses. The body factory receives the warp's
// WarpThreads and must capture everything else (array bases, sizes) by value.
#include <functional>
#include <memory>
#include <utility>

#include "workloads/Kernel.hpp"
#include "workloads/WarpProgram.hpp"
#include "workloads/WarpThreads.hpp"

namespace gpusim {

// Registers are allocated per thread in multiples of this, so a kernel's footprint for the
// occupancy calculation is what its code uses rounded up.
inline constexpr unsigned kRegisterAllocGranule = 8;
constexpr unsigned allocatedRegisters(unsigned used) {
    return (used + kRegisterAllocGranule - 1) / kRegisterAllocGranule * kRegisterAllocGranule;
}

class ProgramKernel final : public Kernel {
public:
    using Body = std::function<WarpProgram(const WarpThreads&)>;

    ProgramKernel(KernelInfo info, Body body) : info_(std::move(info)), body_(std::move(body)) {}

    const KernelInfo& info() const override { return info_; }
    std::unique_ptr<WarpStream> warp(uint64_t ctaId, unsigned warpInCta) const override {
        return makeStream(body_(WarpThreads(info_, ctaId, warpInCta)));
    }

private:
    KernelInfo info_;
    Body body_;
};

} // namespace gpusim
