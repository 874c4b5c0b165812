#include "modules/CtaDispatcher.hpp"

#include <sstream>

#include "common/SimError.hpp"

namespace gpusim {

CtaDispatcher::CtaDispatcher(std::vector<SmCore*> sms, const Workload& workload, StatRegistry& stats)
    : sms_(std::move(sms)), workload_(workload), stats_(stats) {
    done_ = workload_.kernels().empty();
}

void CtaDispatcher::checkFits() const {
    for (const auto& k : workload_.kernels()) {
        const KernelInfo& i = k->info();
        if (i.ctas() == 0 || i.threadsPerCta() == 0)
            throw InputError("workload " + workload_.name() + ": kernel " + i.name + " has an empty grid or block");
        if (!sms_.empty() && sms_.front()->maxResident(i) == 0)
            throw InputError("workload " + workload_.name() + ": kernel " + i.name + ": one CTA (" +
                             std::to_string(i.threadsPerCta()) + " threads, " + std::to_string(i.regsPerThread) +
                             " registers/thread, " + std::to_string(i.smemPerCta) +
                             " B shared memory) does not fit on an SM of this platform");
    }
}

void CtaDispatcher::startKernel(uint64_t cycle) {
    started_ = true;
    nextCta_ = 0;
    const KernelInfo& i = workload_.kernels()[kernel_]->info();
    records_.push_back({i.name, cycle, 0, i.ctas()});
    refusedAt_.assign(sms_.size(), ~uint64_t(0));
    for (SmCore* sm : sms_) sm->kernelStart();
}

void CtaDispatcher::tick(uint64_t cycle) {
    if (done_) return;
    if (!started_) startKernel(cycle);
    const Kernel& k = *workload_.kernels()[kernel_];
    const uint64_t total = k.info().ctas();
    const unsigned n = static_cast<unsigned>(sms_.size());
    // One pass over the SMs starting after the last one served: `start` is fixed for the pass
    // (advancing it inside the loop skipped SMs and piled CTAs onto a few).
    const unsigned start = rr_;
    for (unsigned i = 0; i < n && nextCta_ < total; ++i) {
        const unsigned s = (start + i) % n;
        if (refusedAt_[s] == sms_[s]->resourceChanges()) continue;
        if (!sms_[s]->canLaunch(k.info())) {
            refusedAt_[s] = sms_[s]->resourceChanges();
        } else {
            sms_[s]->launchCta(k, nextCta_++);
            ++launched_;
            rr_ = (s + 1) % n;
        }
    }
    if (nextCta_ < total) return;
    for (SmCore* sm : sms_)
        if (!sm->quiescent()) return;
    // Kernel finished: every CTA done, every answer received.
    records_.back().endCycle = cycle;
    const std::string prefix = "kernel" + std::to_string(kernel_) + ".";
    stats_.counter(prefix + "cycles", "Core cycles of kernel " + k.info().name).inc(cycle - records_.back().startCycle);
    stats_.counter(prefix + "ctas", "CTAs of kernel " + k.info().name).inc(total);
    for (SmCore* sm : sms_) sm->kernelEnd();
    started_ = false;
    if (++kernel_ == workload_.kernels().size()) done_ = true;
}

std::string CtaDispatcher::dumpState() const {
    std::ostringstream os;
    os << "dispatcher: kernel " << kernel_ << "/" << workload_.kernels().size();
    if (!done_ && kernel_ < workload_.kernels().size())
        os << " (" << workload_.kernels()[kernel_]->info().name << "), CTA " << nextCta_ << "/"
           << workload_.kernels()[kernel_]->info().ctas() << " dispatched";
    return os.str();
}

} // namespace gpusim
