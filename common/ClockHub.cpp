#include "common/ClockHub.hpp"

#include <algorithm>
#include <stdexcept>

#include "common/ClockDomain.hpp"

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

void ClockHub::schedule(uint64_t at) { schedule(at, sc_core::sc_time_stamp().value()); }

void ClockHub::schedule(uint64_t at, uint64_t now) {
    if (at >= armedAt_) return;  // an earlier notification is pending; run() re-arms after it
    armedAt_ = at;
    // notify() keeps the earlier of a pending and a new notification: this replaces a later one.
    due_.notify(sc_core::sc_time::from_value(at - now));
}

void ClockHub::run() {
    const uint64_t now = sc_core::sc_time_stamp().value();
    armedAt_ = UINT64_MAX;
    for (ClockDomain* d : domains_)
        if (d->dueAt(now)) d->hubEdge(now);
    uint64_t next = UINT64_MAX;
    for (const ClockDomain* d : domains_) next = std::min(next, d->nextEdge());
    if (next != UINT64_MAX) schedule(next, now);
}

} // namespace gpusim
