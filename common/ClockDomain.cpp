#include "common/ClockDomain.hpp"

#include <stdexcept>

#include "common/ClockHub.hpp"
#include "common/SimTime.hpp"
#include "common/WorkerPool.hpp"

namespace gpusim {

ClockDomain::ClockDomain(sc_core::sc_module_name name, sc_core::sc_time period)
    : sc_module(name), period_(period) {
    SC_HAS_PROCESS(ClockDomain);
    SC_METHOD(onEdge);
    sensitive << wakeEvent_;
    dont_initialize();
}

ClockDomain::~ClockDomain() = default;

void ClockDomain::setPhased(unsigned threads) {
    if (threads == 0) throw std::invalid_argument("ClockDomain::setPhased: zero threads");
    phasedOn_ = true;
    segments_.clear();
    phased_.assign(units_.size(), nullptr);
    for (size_t i = 0; i < units_.size(); ++i) {
        phased_[i] = dynamic_cast<PhasedTickable*>(units_[i]);
        const bool p = phased_[i] != nullptr;
        if (segments_.empty() || segments_.back().phased != p || !p)
            segments_.push_back({i, i + 1, p});
        else
            segments_.back().end = i + 1;
    }
    pool_ = threads > 1 ? std::make_unique<WorkerPool>(threads) : nullptr;
    stepJob_ = [this](size_t k) {
        PhasedTickable* u = phased_[jobBegin_ + k];
        if (!u->skips(jobCycle_)) u->step(jobCycle_);
    };
}

unsigned ClockDomain::threads() const { return pool_ ? pool_->threads() : 1; }

uint64_t ClockDomain::cycle() const {
    return simNow() / period_.value();
}

void ClockDomain::wakeUp() {
    sleeping_ = false;
    // Next edge strictly after now, so a unit never acts on an arrival in the same delta cycle
    // that produced it, whatever order the kernel runs processes in.
    const uint64_t now = simNow();
    const uint64_t p = period_.value();
    const uint64_t next = (now / p + 1) * p;
    if (hub_) {
        next_ = next;
        hub_->schedule(next);
        return;
    }
    wakeEvent_.notify(sc_core::sc_time::from_value(next - now));
}

void ClockDomain::onEdge() {
    if (edge(cycle())) {
        next_trigger(period_);
    } else {
        sleeping_ = true;
        next_trigger(wakeEvent_);
    }
}

void ClockDomain::hubEdge(uint64_t now) {
    if (edge(now / period_.value())) {
        next_ += period_.value();
    } else {
        sleeping_ = true;
        next_ = UINT64_MAX;
    }
}

bool ClockDomain::edge(uint64_t c) {
    ++ticks_;
    if (!phasedOn_) {
        for (Tickable* u : units_) u->tick(c);
    } else {
        for (const Segment& s : segments_) {
            if (!s.phased) {
                for (size_t i = s.begin; i < s.end; ++i) units_[i]->tick(c);
                continue;
            }
            // The commits go in unit order after every step; the single-threaded loop notes the
            // first and last unit with one due, so an edge where most units sleep commits
            // without a second pass over all of them (issue 19).
            size_t first = s.begin, last = s.end;
            if (pool_) {
                jobBegin_ = s.begin;
                jobCycle_ = c;
                pool_->run(s.end - s.begin, stepJob_);
            } else {
                first = s.end;
                last = s.begin;
                for (size_t i = s.begin; i < s.end; ++i) {
                    if (phased_[i]->skips(c)) continue;
                    phased_[i]->step(c);
                    if (!phased_[i]->commitDue()) continue;
                    if (first == s.end) first = i;
                    last = i + 1;
                }
            }
            for (size_t i = first; i < last; ++i)
                if (phased_[i]->commitDue()) phased_[i]->commit();
        }
    }
    // busy() is a pure query: the first busy unit decides.
    for (const Tickable* u : units_)
        if (u->busy()) return true;
    return false;
}

} // namespace gpusim
