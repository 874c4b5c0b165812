#pragma once
// One SystemC process for several clock domains. Each ClockDomain alone is an SC_METHOD re-armed
// every edge; a GPU has four (core, NoC, L2, DRAM), two of them at the same frequency, so most
// instants cost the kernel two or three timed notifications and process activations, and the
// order in which the domains due at one instant ran was the kernel's: the tie order of its
// timed-event queue, which any other process's timed events (a co-simulated IP's clock) change.
// The hub keeps each attached domain's next edge and, at each instant one of them is due, runs
// the due domains in attachment order, then arms one notification for the earliest next edge.
// A domain keeps its own rules (ticking its units in order, sleeping when none is busy, waking
// at its first edge strictly after the arrival).
// Left out: domains attached after simulation starts.
#include <cstdint>
#include <vector>

#include <systemc>

namespace gpusim {

class ClockDomain;

class ClockHub : public sc_core::sc_module {
public:
    explicit ClockHub(sc_core::sc_module_name name);

    // Before simulation starts; domains due at the same instant run in this order.
    void attach(ClockDomain& d);
    // A domain's next edge is at `at` (absolute time in the kernel's time units, after now).
    void schedule(uint64_t at);

private:
    void run();
    void schedule(uint64_t at, uint64_t now);

    std::vector<ClockDomain*> domains_;
    sc_core::sc_event due_;
    uint64_t armedAt_ = UINT64_MAX;  // the pending notification's time (UINT64_MAX: none)
};

} // namespace gpusim
