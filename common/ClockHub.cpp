#include "common/ClockHub.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/ClockDomain.hpp"
#include "common/SimTime.hpp"

namespace gpusim {

ClockHub::ClockHub(sc_core::sc_module_name name) : sc_module(name) {
    SC_HAS_PROCESS(ClockHub);
    SC_METHOD(run);
    sensitive << due_;
    dont_initialize();
}

void ClockHub::attach(ClockDomain& d) {
    if (sc_core::sc_is_running()) throw std::logic_error("ClockHub::attach after simulation started");
    domains_.push_back(&d);
    d.attachTo(this);
}

void ClockHub::schedule(uint64_t at) {
    // Inside run() the domains' next edges are read after the edges: nothing to arm yet.
    if (inRun_) return;
    schedule(at, sc_core::sc_time_stamp().value());
}

void ClockHub::schedule(uint64_t at, uint64_t now) {
    if (at >= armedAt_) return;  // an earlier notification is pending; run() re-arms after it
    armedAt_ = at;
    // notify() keeps the earlier of a pending and a new notification: this replaces a later one.
    due_.notify(sc_core::sc_time::from_value(at - now));
}

void ClockHub::stop() {
    const uint64_t now = simNow();
    if (now == sc_core::sc_time_stamp().value()) {
        sc_core::sc_stop();
        stopped_ = true;  // no instant after this one in the current activation
        return;
    }
    stopAt_ = now;
}

void ClockHub::run() {
    ++activations_;
    const uint64_t kernelNow = sc_core::sc_time_stamp().value();
    armedAt_ = UINT64_MAX;
    if (stopAt_ == kernelNow) {  // a stop requested ahead of the kernel: the kernel is there now
        stopAt_ = UINT64_MAX;
        sc_core::sc_stop();
        return;
    }
    // The first instant another process has something pending (UINT64_MAX: none); batched
    // instants stay before it. Only this process runs until then, so it cannot move earlier.
    uint64_t horizon = kernelNow;
    if (batching_) {
        const uint64_t toPending = sc_core::sc_time_to_pending_activity().value();
        horizon = toPending > UINT64_MAX - kernelNow ? UINT64_MAX : kernelNow + toPending;
    }
    struct InRun {  // the units' clock back on the kernel's, however run() ends (an exception)
        bool& flag;
        explicit InRun(bool& f) : flag(f) { flag = true; }
        ~InRun() {
            flag = false;
            sim_time_detail::ahead = sim_time_detail::kNotAhead;
        }
    };
    stopped_ = false;
    uint64_t now = kernelNow, next = UINT64_MAX;
    {
        const InRun guard(inRun_);
        for (;;) {
            for (ClockDomain* d : domains_)
                if (d->dueAt(now)) d->hubEdge(now);
            next = UINT64_MAX;
            for (const ClockDomain* d : domains_) next = std::min(next, d->nextEdge());
            if (next >= horizon || stopped_ || stopAt_ != UINT64_MAX) break;
            // At the kernel's instant, a delta cycle the units asked for runs first.
            if (now == kernelNow && sc_core::sc_pending_activity_at_current_time()) break;
            now = next;
            sim_time_detail::ahead = now;
        }
    }
    // Something a unit did ahead of the kernel that waits for a delta cycle would run at the
    // kernel's (earlier) time: a broken batching contract (nothing consumes such activity during
    // the batch, so one look at its end finds it), never a silent result.
    if (now != kernelNow && sc_core::sc_pending_activity_at_current_time())
        throw std::logic_error(std::string(name()) + ": a unit left delta activity by " + std::to_string(now) +
                               ", ahead of the kernel's " + std::to_string(kernelNow) +
                               " (see ClockHub.hpp, batching)");
    if (stopAt_ != UINT64_MAX) {
        // Stopped ahead of the kernel: an activation at that instant stops it there.
        schedule(stopAt_, kernelNow);
        return;
    }
    if (next != UINT64_MAX) {
        schedule(next, kernelNow);
    } else if (now != kernelNow) {
        // Every domain asleep after running ahead: the kernel still comes to the last instant
        // run (an activation with nothing due), so that its time is what it is unbatched.
        schedule(now, kernelNow);
    }
}

} // namespace gpusim
