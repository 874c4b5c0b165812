#include "common/ClockDomain.hpp"

namespace gpusim {

ClockDomain::ClockDomain(sc_core::sc_module_name name, sc_core::sc_time period)
    : sc_module(name), period_(period) {
    SC_HAS_PROCESS(ClockDomain);
    SC_METHOD(onEdge);
    sensitive << wakeEvent_;
    dont_initialize();
}

uint64_t ClockDomain::cycle() const {
    return sc_core::sc_time_stamp().value() / period_.value();
}

void ClockDomain::wake() {
    if (!sleeping_) return;
    sleeping_ = false;
    // Next edge strictly after now, so a unit never acts on an arrival in the same delta cycle
    // that produced it, whatever order the kernel runs processes in.
    const uint64_t now = sc_core::sc_time_stamp().value();
    const uint64_t p = period_.value();
    const uint64_t next = (now / p + 1) * p;
    wakeEvent_.notify(sc_core::sc_time::from_value(next - now));
}

void ClockDomain::onEdge() {
    const uint64_t c = cycle();
    ++ticks_;
    for (Tickable* u : units_) u->tick(c);
    // busy() is a pure query: the first busy unit decides.
    bool any = false;
    for (const Tickable* u : units_)
        if (u->busy()) {
            any = true;
            break;
        }
    if (any) {
        next_trigger(period_);
    } else {
        sleeping_ = true;
        next_trigger(wakeEvent_);
    }
}

} // namespace gpusim
