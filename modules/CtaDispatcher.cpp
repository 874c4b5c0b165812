#include "modules/CtaDispatcher.hpp"

#include <algorithm>
#include <sstream>

#include "common/SimError.hpp"

namespace gpusim {

namespace {
constexpr size_t kNone = ~size_t(0);
}

const char* toString(KernelConcurrency c) {
    switch (c) {
    case KernelConcurrency::Serial:
        return "serial";
    case KernelConcurrency::Spatial:
        return "spatial";
    case KernelConcurrency::Mixed:
        return "mixed";
    }
    return "?";
}

KernelConcurrency kernelConcurrencyFrom(const std::string& s) {
    if (s == "serial") return KernelConcurrency::Serial;
    if (s == "spatial") return KernelConcurrency::Spatial;
    if (s == "mixed") return KernelConcurrency::Mixed;
    throw InputError("gpu.kernel_concurrency: unknown value '" + s + "' (serial, spatial or mixed)");
}

CtaDispatcher::CtaDispatcher(std::vector<SmCore*> sms, const Workload& workload, StatRegistry& stats,
                             const DispatchParams& params)
    : sms_(std::move(sms)), workload_(workload), stats_(stats), params_(params),
      kernels_(workload.kernels().size()), owner_(sms_.size(), kNone), smKey_(sms_.size(), 0),
      lastServed_(sms_.size(), kNone) {
    done_ = workload_.kernels().empty();
    for (const auto& k : workload_.kernels())
        if (k->info().stream != workload_.kernels().front()->info().stream) multiStream_ = true;
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

unsigned CtaDispatcher::concurrencyLimit() const {
    switch (params_.concurrency) {
    case KernelConcurrency::Serial:
        return 1;
    case KernelConcurrency::Spatial:  // every running kernel keeps at least one SM
        return std::max(1u, std::min(params_.maxConcurrentKernels, static_cast<unsigned>(sms_.size())));
    case KernelConcurrency::Mixed:
        break;
    }
    return std::max(1u, params_.maxConcurrentKernels);
}

void CtaDispatcher::startKernel(size_t k, uint64_t cycle) {
    KernelState& st = kernels_[k];
    const KernelInfo& i = workload_.kernels()[k]->info();
    st.started = true;
    st.ctas = i.ctas();
    st.record = records_.size();
    records_.push_back({i.name, cycle, 0, i.ctas(), k, i.stream, 0, false});
    st.refusedAt.assign(sms_.size(), ~uint64_t(0));
    running_.push_back(k);
    runningStreams_.push_back(i.stream);
    if (observer_) observer_();
}

void CtaDispatcher::startKernels(uint64_t cycle) {
    scanStarts_ = false;
    const size_t total = kernels_.size();
    const unsigned limit = concurrencyLimit();
    bool started = false;
    if (params_.concurrency == KernelConcurrency::Serial) {
        if (running_.empty() && firstUnstarted_ < total) {
            startKernel(firstUnstarted_, cycle);
            started = true;
        }
    } else {
        // In launch order: the first kernel not started of each stream whose stream is idle.
        std::vector<uint64_t> blocked = runningStreams_;
        for (size_t k = firstUnstarted_; k < total && running_.size() < limit; ++k) {
            if (kernels_[k].started) continue;
            const uint64_t s = workload_.kernels()[k]->info().stream;
            if (std::find(blocked.begin(), blocked.end(), s) != blocked.end()) continue;
            blocked.push_back(s);  // later kernels of this stream wait for this one
            startKernel(k, cycle);
            started = true;
        }
    }
    while (firstUnstarted_ < total && kernels_[firstUnstarted_].started) ++firstUnstarted_;
    if (started) updateSms(std::vector<bool>(sms_.size(), false));
}

void CtaDispatcher::updateSms(const std::vector<bool>& flush) {
    const size_t n = sms_.size(), m = running_.size();
    ++runningVersion_;
    passNeeded_ = true;
    if (params_.concurrency != KernelConcurrency::Mixed) {
        std::fill(owner_.begin(), owner_.end(), kNone);
        // Kernel j of m (start order) gets SMs [j*n/m, (j+1)*n/m) of the dispatch order.
        for (size_t j = 0; j < m; ++j)
            for (size_t s = j * n / m; s < (j + 1) * n / m; ++s) owner_[s] = running_[j];
    }
    for (size_t s = 0; s < n; ++s) {
        uint64_t key = 0;
        if (params_.concurrency == KernelConcurrency::Mixed)
            key = m ? runningVersion_ : 0;
        else
            key = owner_[s] == kNone ? 0 : owner_[s] + 1;
        const uint64_t old = smKey_[s];
        const bool changed = key != old;
        SmCore& sm = *sms_[s];
        // Flush first, then the policy's end: the order SmCore::kernelEnd() always had.
        if (flush[s] && changed && old) {
            sm.kernelEnd();
        } else {
            if (flush[s]) sm.flushL1AtKernelEnd();
            if (changed && old) sm.kernelEnd(false);
        }
        if (changed && key) sm.kernelStart();
        smKey_[s] = key;
    }
}

bool CtaDispatcher::tryLaunch(unsigned s, size_t k) {
    KernelState& st = kernels_[k];
    const Kernel& kernel = *workload_.kernels()[k];
    if (st.nextCta >= st.ctas) return false;
    SmCore& sm = *sms_[s];
    if (st.refusedAt[s] == sm.resourceChanges()) return false;
    if (!sm.canLaunch(kernel.info())) {
        st.refusedAt[s] = sm.resourceChanges();
        return false;
    }
    sm.launchCta(kernel, st.nextCta++, &st.tally);
    ++launched_;
    rr_ = (s + 1) % static_cast<unsigned>(sms_.size());
    return true;
}

void CtaDispatcher::dispatch() {
    // The SMs' resources change when a CTA starts (launched_) or ends (its kernel's tally, which
    // each SM's commit brings up to date in the edge the CTA ends, before the supervisor ticks):
    // the same movements as the sum of the SMs' resourceChanges() counters, counted here
    // without a pass over the SMs every cycle (issue 19).
    uint64_t left = 0, ends = endedKernelCtas_;
    for (size_t k : running_) {
        left += kernels_[k].ctas - kernels_[k].nextCta;
        ends += kernels_[k].tally.ctasDone;
    }
    if (left == 0) return;
    const uint64_t changes = launched_ + ends;
    if (!passNeeded_ && changes == passChanges_) return;
    const uint64_t launchedBefore = launched_;
    const unsigned n = static_cast<unsigned>(sms_.size());
    const bool mixed = params_.concurrency == KernelConcurrency::Mixed;
    // One pass over the SMs starting after the last one served: `start` is fixed for the pass
    // (advancing it inside the loop skipped SMs and piled CTAs onto a few).
    const unsigned start = rr_;
    for (unsigned i = 0; i < n && left > 0; ++i) {
        const unsigned s = (start + i) % n;
        if (!mixed) {
            if (owner_[s] != kNone && tryLaunch(s, owner_[s])) --left;
            continue;
        }
        // Round-robin over the running kernels, beginning after the one this SM got last.
        const size_t m = running_.size();
        size_t first = 0;
        if (lastServed_[s] != kNone) {
            const auto it = std::find(running_.begin(), running_.end(), lastServed_[s]);
            if (it != running_.end()) first = static_cast<size_t>(it - running_.begin()) + 1;
        }
        for (size_t j = 0; j < m; ++j) {
            const size_t k = running_[(first + j) % m];
            if (tryLaunch(s, k)) {
                lastServed_[s] = k;
                --left;
                break;
            }
        }
    }
    // After a launch the SM it went to may take another CTA next cycle: pass again.
    passNeeded_ = launched_ != launchedBefore;
    passChanges_ = changes;  // what a pass without a launch leaves
}

bool CtaDispatcher::finished(size_t k) const {
    const KernelState& st = kernels_[k];
    const uint64_t total = st.ctas;
    if (st.nextCta < total || st.tally.ctasDone < total) return false;
    for (SmCore* sm : sms_) {
        if (sm->quiescent()) continue;
        // An SM still running another kernel's CTAs cannot tell whose traffic it holds.
        bool other = false;
        for (size_t o : running_)
            if (o != k && sm->residentCtasOf(*workload_.kernels()[o]) > 0) {
                other = true;
                break;
            }
        if (!other) return false;
    }
    return true;
}

void CtaDispatcher::endKernel(size_t k, uint64_t cycle) {
    KernelState& st = kernels_[k];
    const KernelInfo& info = workload_.kernels()[k]->info();
    st.ended = true;
    st.refusedAt.clear();
    st.refusedAt.shrink_to_fit();
    ++ended_;
    KernelRecord& r = records_[st.record];
    r.endCycle = cycle;
    r.ended = true;
    r.warpInstructions = st.tally.warpInstructions;
    const std::string prefix = "kernel" + std::to_string(k) + ".";
    stats_.counter(prefix + "cycles", "Core cycles of kernel " + info.name).inc(cycle - r.startCycle);
    stats_.counter(prefix + "ctas", "CTAs of kernel " + info.name).inc(info.ctas());
    if (multiStream_) {
        stats_.counter(prefix + "start_cycle", "Core cycle kernel " + info.name + " started").inc(r.startCycle);
        stats_.counter(prefix + "end_cycle", "Core cycle kernel " + info.name + " ended").inc(cycle);
        stats_.counter(prefix + "warp_instructions", "Warp instructions of kernel " + info.name)
            .inc(r.warpInstructions);
        stats_.counter(prefix + "stream", "CUDA stream of kernel " + info.name).inc(info.stream);
        StreamStats& ss = streamStats_[info.stream];
        if (!ss.kernels) {
            const std::string sp = "stream" + std::to_string(info.stream) + ".";
            const std::string sn = "stream " + std::to_string(info.stream);
            ss.kernels = &stats_.counter(sp + "kernels", "Kernels ended on " + sn);
            stats_.counter(sp + "first_start_cycle", "Core cycle the first kernel of " + sn + " started")
                .inc(r.startCycle);
            ss.lastEnd = &stats_.counter(sp + "last_end_cycle", "Core cycle the last kernel of " + sn + " ended");
            ss.instructions = &stats_.counter(sp + "warp_instructions", "Warp instructions of the kernels of " + sn);
        }
        ss.kernels->inc();
        ss.lastEnd->inc(cycle - ss.lastEnd->get());
        ss.instructions->inc(r.warpInstructions);
    }
    const auto it = std::find(running_.begin(), running_.end(), k);
    runningStreams_.erase(runningStreams_.begin() + (it - running_.begin()));
    running_.erase(it);
    endedKernelCtas_ += st.tally.ctasDone;
    if (observer_) observer_();
}

void CtaDispatcher::tick(uint64_t cycle) {
    if (done_) return;
    if (scanStarts_) startKernels(cycle);
    dispatch();
    std::vector<size_t> ending;
    for (size_t k : running_)
        if (finished(k)) ending.push_back(k);
    if (ending.empty()) return;
    // Kernel finished: every CTA done, every answer its SMs can tell apart received.
    std::vector<bool> flush(sms_.size(), false);
    for (size_t k : ending)
        for (size_t s = 0; s < sms_.size(); ++s)
            if (params_.concurrency == KernelConcurrency::Mixed || owner_[s] == k) flush[s] = true;
    for (size_t k : ending) endKernel(k, cycle);
    updateSms(flush);
    scanStarts_ = true;
    if (ended_ == kernels_.size()) done_ = true;
}

CtaDispatcher::Progress CtaDispatcher::progress() const {
    Progress p;
    p.kernels = kernels_.size();
    p.kernelsEnded = ended_;
    p.ctasDone = endedKernelCtas_;
    for (const auto& k : workload_.kernels()) p.ctasTotal += k->info().ctas();
    for (size_t k : running_) {
        const KernelInfo& i = workload_.kernels()[k]->info();
        p.ctasDone += kernels_[k].tally.ctasDone;
        p.running.push_back({k, i.name, kernels_[k].tally.ctasDone, i.ctas()});
    }
    return p;
}

std::string CtaDispatcher::dumpState() const {
    std::ostringstream os;
    if (!multiStream_ && running_.size() <= 1) {
        const size_t k = running_.empty() ? ended_ : running_.front();
        os << "dispatcher: kernel " << k << "/" << kernels_.size();
        if (!running_.empty())
            os << " (" << workload_.kernels()[k]->info().name << "), CTA " << kernels_[k].nextCta << "/"
               << workload_.kernels()[k]->info().ctas() << " dispatched";
        return os.str();
    }
    os << "dispatcher: " << ended_ << "/" << kernels_.size() << " kernels ended";
    for (size_t k : running_) {
        const KernelInfo& i = workload_.kernels()[k]->info();
        os << (k == running_.front() ? "; running " : ", ") << "kernel " << k << " (" << i.name << ", stream "
           << i.stream << "), CTA " << kernels_[k].nextCta << "/" << i.ctas() << " dispatched";
    }
    return os.str();
}

} // namespace gpusim
