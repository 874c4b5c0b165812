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
// Batching (setBatching): each activation of the process costs the kernel about 500 host
// instructions (a timed notification, its queue, the evaluate and update phases), as much as the
// edges of a quiet instant. A batching hub runs the following instants' edges in the same
// activation, ahead of the kernel, for as long as nothing else could run in between: no other
// process has activity pending before the next edge, nothing our units did left activity pending
// at the current instant (a delta notification), and no stop was requested. The units read the
// time through simNow() (common/SimTime.hpp), which gives the instant of the edge being run, so
// every edge sees what it would see unbatched; the kernel's own time catches up at the next
// activation. A stop requested ahead of the kernel (stop()) becomes the kernel's stop at that
// instant, after the instant's other due domains ran, as unbatched. Only for a simulation that
// runs without a time limit (sc_start()) and in which no code outside the model is called from
// the units (no interposed or user TLM target): such code would read sc_time_stamp().
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
    // Before simulation starts (see the top of this file). Off by default.
    void setBatching(bool on) { batching_ = on; }
    // sc_stop() at the current instant (simNow()): at once when the kernel is there, else when
    // it gets there, the instant's remaining due domains having run.
    void stop();
    // Process activations so far (host-side, for tests and measurement).
    uint64_t activations() const { return activations_; }

private:
    void run();
    void schedule(uint64_t at, uint64_t now);

    std::vector<ClockDomain*> domains_;
    sc_core::sc_event due_;
    uint64_t armedAt_ = UINT64_MAX;  // the pending notification's time (UINT64_MAX: none)
    bool batching_ = false;
    bool inRun_ = false;              // run() is running edges: wake-ups need no notification
    bool stopped_ = false;            // stop() reached the kernel in the current activation
    uint64_t stopAt_ = UINT64_MAX;    // a stop requested ahead of the kernel, at this instant
    uint64_t activations_ = 0;
};

} // namespace gpusim
