#include "modules/SmResources.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpusim {

std::string SmResources::whyNot(const KernelInfo& i) const {
    const unsigned threads = paddedThreads(i);
    if (ctas_ + 1 > limits_.ctas) return "CTA slots";
    if (warps_ + i.warpsPerCta() > limits_.warps) return "warp slots";
    if (threads_ + threads > limits_.threads) return "threads";
    if (regs_ + uint64_t(i.regsPerThread) * threads > limits_.registers) return "registers";
    if (smem_ + i.smemPerCta > limits_.sharedMem) return "shared memory";
    return "";
}

unsigned SmResources::allocate(const KernelInfo& i) {
    if (!fits(i)) throw std::logic_error("CTA placed on an SM without room: " + whyNot(i));
    auto it = std::find(ctaUsed_.begin(), ctaUsed_.end(), false);
    const unsigned slot = static_cast<unsigned>(it - ctaUsed_.begin());
    ctaUsed_[slot] = true;
    const unsigned threads = paddedThreads(i);
    ++ctas_;
    warps_ += i.warpsPerCta();
    threads_ += threads;
    regs_ += i.regsPerThread * threads;
    smem_ += i.smemPerCta;
    return slot;
}

void SmResources::release(unsigned slot, const KernelInfo& i) {
    if (slot >= ctaUsed_.size() || !ctaUsed_[slot]) throw std::logic_error("releasing a free CTA slot");
    ctaUsed_[slot] = false;
    const unsigned threads = paddedThreads(i);
    --ctas_;
    warps_ -= i.warpsPerCta();
    threads_ -= threads;
    regs_ -= i.regsPerThread * threads;
    smem_ -= i.smemPerCta;
}

unsigned SmResources::maxResident(const KernelInfo& i) const {
    const unsigned threads = paddedThreads(i);
    unsigned n = limits_.ctas;
    n = std::min(n, i.warpsPerCta() ? limits_.warps / i.warpsPerCta() : n);
    n = std::min(n, threads ? limits_.threads / threads : n);
    if (i.regsPerThread) n = std::min<unsigned>(n, limits_.registers / (i.regsPerThread * threads));
    if (i.smemPerCta) n = std::min(n, limits_.sharedMem / i.smemPerCta);
    return n;
}

} // namespace gpusim
