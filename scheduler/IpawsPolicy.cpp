#include "scheduler/IpawsPolicy.hpp"

#include <algorithm>
#include <cmath>

#include "common/Stats.hpp"

namespace gpusim {

IpawsPolicy::IpawsPolicy(const Params& p, std::unique_ptr<SchedulerPolicy> greedy,
                         std::shared_ptr<IpawsDecisionBoard> board)
    : p_(p), greedy_(std::move(greedy)), board_(std::move(board)), shared_(board_ != nullptr) {
    if (!board_) board_ = std::make_shared<IpawsDecisionBoard>();
    p_.classifier.barrierScore = p_.barrier != BarrierScore::None;
}

SchedulerPolicy::IssueStallCount IpawsPolicy::issueStallCount() const {
    switch (p_.stalls) {
    case StallCounter::OldestReady:
        return IssueStallCount::OldestReady;
    case StallCounter::UnitBusy:
        return IssueStallCount::UnitBusy;
    case StallCounter::Head:
        break;
    }
    return IssueStallCount::None;  // the head reading is counted here, not by the SM
}

std::string IpawsPolicy::name() const {
    const std::string g = greedy_->name();
    return g == "gto" ? "ipaws" : "ipaws-" + g;
}

void IpawsPolicy::attach(const SmView& sm) {
    sm_ = &sm;
    const unsigned n = sm.warpSlots();
    inst_.assign(n, 0);
    btime_.assign(n, 0);
    stalls_.assign(n, 0);
    age_.assign(n, 0);
    seen_.assign(n, 0);
    atBarrier_.reserve(n);
    greedy_->attach(sm);
    rr_.attach(sm);
}

void IpawsPolicy::registerStats(StatRegistry& stats, const std::string& prefix) {
    stats_ = &stats;
    prefix_ = prefix;
    if (shared_) board_->attachStats(stats);
    rrKernels_ = &stats.counter(prefix + "ipaws_rr_kernels", "Kernels this SM ran with round-robin after Adapt");
    greedyKernels_ = &stats.counter(prefix + "ipaws_greedy_kernels",
                                    "Kernels this SM kept the greedy policy after Adapt");
    undecided_ = &stats.counter(prefix + "ipaws_undecided_kernels",
                                "Kernels that ended on this SM before a decision was applied");
    ownDecisions_ = &stats.counter(prefix + "ipaws_own_decisions",
                                   "Kernels whose applied decision was this SM's own classification");
    adaptTotal_ = &stats.counter(prefix + "ipaws_adapt_cycles", "Cycles in the Adapt phase, all kernels");
    recoverTotal_ = &stats.counter(prefix + "ipaws_recover_cycles", "Cycles in the Recover phase, all kernels");
    greedy_->registerStats(stats, prefix);
}

void IpawsPolicy::kernelStat(const std::string& leaf, const std::string& desc, uint64_t v) {
    if (!stats_) return;
    stats_->counter(prefix_ + "ipaws.kernel" + std::to_string(kernel_) + "." + leaf, desc).inc(v);
}

void IpawsPolicy::order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) {
    if (phase_ == Phase::Recover) {
        // Least instructions issued first; the older warp among equals.
        std::sort(warps.begin(), warps.end(), [&](unsigned a, unsigned b) {
            const WarpView &va = sm.warp(a), &vb = sm.warp(b);
            if (va.issued != vb.issued) return va.issued < vb.issued;
            if (va.age != vb.age) return va.age < vb.age;
            return a < b;
        });
    } else if (greedyActive()) {
        greedy_->order(sched, warps, sm);
    } else {
        rr_.order(sched, warps, sm);
    }
    if (sched < kSchedulers) {
        head_[sched] = warps.empty() ? -1 : static_cast<int>(warps.front());
        headIssued_[sched] = false;
    }
}

bool IpawsPolicy::canIssue(unsigned warp, const SmView& sm) {
    return greedyActive() ? greedy_->canIssue(warp, sm) : true;
}

void IpawsPolicy::openCycle(const SmView& sm) {
    cycleOpen_ = true;
    head_.fill(-1);
    headIssued_.fill(false);
    atBarrier_.clear();
    issuedCtas_.clear();
    if (phase_ != Phase::Adapt || p_.barrier == BarrierScore::None) return;
    for (unsigned w = 0; w < sm.warpSlots(); ++w)
        if (sm.warp(w).valid && sm.warp(w).atBarrier) atBarrier_.push_back({w, sm.warp(w).ctaSlot});
}

void IpawsPolicy::closeCycle() {
    if (!cycleOpen_) return;
    cycleOpen_ = false;
    if (phase_ != Phase::Adapt) return;
    for (unsigned s = 0; s < kSchedulers; ++s)
        if (head_[s] >= 0 && !headIssued_[s] && unsigned(head_[s]) < stalls_.size()) ++stalls_[head_[s]];
    // Section 3.3: the score grows "when the warp is stalled at a barrier and another warp issues".
    if (p_.barrier == BarrierScore::WhileCtaIssues) {
        for (const Waiter& b : atBarrier_)
            if (std::find(issuedCtas_.begin(), issuedCtas_.end(), b.cta) != issuedCtas_.end()) ++btime_[b.warp];
    } else if (p_.barrier == BarrierScore::EveryCycle || !issuedCtas_.empty()) {
        for (const Waiter& b : atBarrier_) ++btime_[b.warp];
    }
}

void IpawsPolicy::onCycle(uint64_t cycle, const SmView& sm) {
    if (!sm_) attach(sm);
    closeCycle();
    lastCycle_ = cycle;
    if (!started_ && phase_ != Phase::Idle) {
        started_ = true;
        kernelFirstCycle_ = cycle;
    }
    if (phase_ == Phase::Adapt || phase_ == Phase::Decided)
        if (const IpawsDecision* d = board_->visible(unsigned(kernel_), cycle)) apply(*d, cycle);
    openCycle(sm);
    greedy_->onCycle(cycle, sm);
    rr_.onCycle(cycle, sm);
}

void IpawsPolicy::onIssue(unsigned sched, unsigned warp, const SmView& sm) {
    issuedCtas_.push_back(sm.warp(warp).ctaSlot);
    if (sched < kSchedulers && head_[sched] == static_cast<int>(warp)) headIssued_[sched] = true;
    if (phase_ == Phase::Adapt && warp < inst_.size()) ++inst_[warp];
    greedy_->onIssue(sched, warp, sm);
    rr_.onIssue(sched, warp, sm);
    if (phase_ == Phase::Recover && static_cast<int>(warp) == target_ && sm.warp(warp).issued >= goal_)
        endRecover(sm.cycle() + 1);
}

void IpawsPolicy::finishAdapt(const SmView& sm) {
    closeCycle();
    std::vector<IssuePatternWarp> warps;
    for (unsigned w = 0; w < seen_.size(); ++w)
        if (seen_[w])
            warps.push_back({age_[w], inst_[w], btime_[w],
                             p_.stalls == StallCounter::Head ? stalls_[w] : sm.warp(w).issueStalls});
    own_ = classifyIssuePattern(std::move(warps), p_.classifier);
    ownValid_ = true;
    if (stats_)
        stats_->average(prefix_ + "ipaws.kernel" + std::to_string(kernel_) + ".doc",
                        "This SM's degree of convexity, iscore_sum / iscore_thr (its own Adapt phase)")
            .sample(own_.doc);
    kernelStat("woi", "This SM's warps-of-interest (its own Adapt phase)", own_.woi);
    board_->propose(unsigned(kernel_), sm.cycle(), sm.smId(), own_);
    phase_ = Phase::Decided;
    // Alone, the SM switches from the next cycle; shared, it takes the board's winner then
    // (possibly another SM's from this same cycle with a smaller id).
    if (!shared_) apply(*board_->proposal(unsigned(kernel_)), sm.cycle() + 1);
}

void IpawsPolicy::apply(const IpawsDecision& d, uint64_t firstCycle) {
    decided_ = true;
    useRr_ = d.pattern.convex;
    adaptCycles_ = firstCycle - kernelFirstCycle_;
    const bool own = sm_ && d.sm == sm_->smId();
    if (stats_) {
        (useRr_ ? rrKernels_ : greedyKernels_)->inc();
        if (own) ownDecisions_->inc();
        adaptTotal_->inc(adaptCycles_);
    }
    kernelStat("rr", "Decision applied on this SM: 1 round-robin, 0 greedy", useRr_ ? 1 : 0);
    kernelStat("adapt_cycles", "Cycles of this SM's Adapt phase", adaptCycles_);
    if (shared_) board_->publish(unsigned(kernel_));
    phase_ = Phase::Execute;
    if (!useRr_ || !p_.recover || !sm_) return;
    // Recover target: the warp with the fewest instructions issued (the newest of equals); goal:
    // the most any warp of this kernel had issued by now (a finished warp included).
    uint64_t most = endedMax_, fewest = ~uint64_t(0), newest = 0;
    target_ = -1;
    for (unsigned w = 0; w < sm_->warpSlots(); ++w) {
        const WarpView& v = sm_->warp(w);
        if (!v.valid) continue;
        most = std::max(most, v.issued);
        if (v.issued < fewest || (v.issued == fewest && v.age > newest)) {
            fewest = v.issued;
            newest = v.age;
            target_ = static_cast<int>(w);
        }
    }
    goal_ = static_cast<uint64_t>(std::ceil(p_.recoverFraction * double(most)));
    if (target_ < 0 || fewest >= goal_) {
        target_ = -1;
        return;
    }
    phase_ = Phase::Recover;
    recoverStart_ = firstCycle;
}

void IpawsPolicy::endRecover(uint64_t firstCycle) {
    phase_ = Phase::Execute;
    recoverCycles_ = firstCycle - recoverStart_;
    if (recoverTotal_) recoverTotal_->inc(recoverCycles_);
    kernelStat("recover_cycles", "Cycles of this SM's Recover phase", recoverCycles_);
    target_ = -1;
}

void IpawsPolicy::onWarpStart(unsigned warp) {
    if (warp < inst_.size()) {
        inst_[warp] = btime_[warp] = stalls_[warp] = 0;
        if (phase_ == Phase::Adapt) {
            seen_[warp] = 1;
            age_[warp] = sm_ ? sm_->warp(warp).age : warp;
        }
    }
    greedy_->onWarpStart(warp);
    rr_.onWarpStart(warp);
}

void IpawsPolicy::onWarpEnd(unsigned warp) {
    if (sm_ && warp < sm_->warpSlots()) endedMax_ = std::max(endedMax_, sm_->warp(warp).issued);
    greedy_->onWarpEnd(warp);
    rr_.onWarpEnd(warp);
    if (phase_ == Phase::Adapt && sm_) finishAdapt(*sm_);
    else if (phase_ == Phase::Recover && static_cast<int>(warp) == target_ && sm_)
        endRecover(sm_->cycle() + 1);
}

void IpawsPolicy::onKernelStart() {
    ++kernel_;
    phase_ = Phase::Adapt;
    useRr_ = decided_ = started_ = ownValid_ = false;
    adaptCycles_ = recoverCycles_ = 0;
    endedMax_ = 0;
    target_ = -1;
    goal_ = 0;
    std::fill(inst_.begin(), inst_.end(), 0);
    std::fill(btime_.begin(), btime_.end(), 0);
    std::fill(stalls_.begin(), stalls_.end(), 0);
    std::fill(seen_.begin(), seen_.end(), 0);
    cycleOpen_ = false;
    greedy_->onKernelStart();
    rr_.onKernelStart();
}

void IpawsPolicy::onKernelEnd() {
    closeCycle();
    if (started_) {
        if (!decided_) {
            adaptCycles_ = lastCycle_ + 1 - kernelFirstCycle_;
            if (undecided_) {
                undecided_->inc();
                adaptTotal_->inc(adaptCycles_);
            }
            kernelStat("adapt_cycles", "Cycles of this SM's Adapt phase", adaptCycles_);
        } else if (phase_ == Phase::Recover) {
            endRecover(lastCycle_ + 1);
        }
    }
    phase_ = Phase::Idle;
    greedy_->onKernelEnd();
    rr_.onKernelEnd();
}

// Observation only: both sub-policies see everything.
void IpawsPolicy::onL1Access(const L1AccessEvent& e) {
    greedy_->onL1Access(e);
    rr_.onL1Access(e);
}
void IpawsPolicy::onL1Evict(uint64_t line, int owner) {
    greedy_->onL1Evict(line, owner);
    rr_.onL1Evict(line, owner);
}
void IpawsPolicy::onMshrAlloc(uint64_t line) {
    greedy_->onMshrAlloc(line);
    rr_.onMshrAlloc(line);
}
void IpawsPolicy::onMshrFree(uint64_t line) {
    greedy_->onMshrFree(line);
    rr_.onMshrFree(line);
}
void IpawsPolicy::onLoadServiced(const LoadServicedEvent& e) {
    greedy_->onLoadServiced(e);
    rr_.onLoadServiced(e);
}
void IpawsPolicy::onLoadComplete(unsigned warp, uint64_t pc, bool fullyCached, unsigned accesses) {
    greedy_->onLoadComplete(warp, pc, fullyCached, accesses);
    rr_.onLoadComplete(warp, pc, fullyCached, accesses);
}
void IpawsPolicy::onBarrierArrive(unsigned warp) {
    greedy_->onBarrierArrive(warp);
    rr_.onBarrierArrive(warp);
}
void IpawsPolicy::onBarrierRelease(unsigned cta) {
    greedy_->onBarrierRelease(cta);
    rr_.onBarrierRelease(cta);
}
void IpawsPolicy::onCtaStart(unsigned cta) {
    greedy_->onCtaStart(cta);
    rr_.onCtaStart(cta);
}
void IpawsPolicy::onCtaEnd(unsigned cta) {
    greedy_->onCtaEnd(cta);
    rr_.onCtaEnd(cta);
}

} // namespace gpusim
