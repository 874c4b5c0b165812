#pragma once
// Occupancy bookkeeping of one SM: a CTA is placed only if its threads (padded to whole warps),
// warps, registers (per thread x padded threads), shared memory and one CTA slot all fit.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "workloads/Kernel.hpp"

namespace gpusim {

struct SmLimits {
    unsigned warps, threads, ctas, registers, sharedMem;
};

class SmResources {
public:
    explicit SmResources(SmLimits l) : limits_(l), ctaUsed_(l.ctas, false) {}

    // Why `info` cannot be placed now ("" if it can).
    std::string whyNot(const KernelInfo& info) const;
    bool fits(const KernelInfo& info) const { return whyNot(info).empty(); }
    // Reserves the resources; returns the CTA slot.
    unsigned allocate(const KernelInfo& info);
    void release(unsigned ctaSlot, const KernelInfo& info);
    // How many CTAs of `info` fit in an empty SM (0: never; the kernel cannot run here).
    unsigned maxResident(const KernelInfo& info) const;
    unsigned ctasResident() const { return ctas_; }

private:
    static unsigned paddedThreads(const KernelInfo& i) { return i.warpsPerCta() * kWarpSize; }
    SmLimits limits_;
    std::vector<bool> ctaUsed_;
    unsigned warps_ = 0, threads_ = 0, ctas_ = 0, regs_ = 0, smem_ = 0;
};

} // namespace gpusim
