#pragma once
// One clock domain: a single SC_METHOD re-armed with next_trigger(period) that ticks every unit
// of the domain in registration order (a fixed, deterministic order). When no unit is busy the
// method stops re-arming and simulated time can jump; an arrival calls wake(), which restarts
// ticking at the domain's next edge strictly after the current time. See DESIGN.md section 3.
// Attached to a ClockHub (attachTo, through ClockHub::attach), the domain has no process of its
// own: the hub runs its edges, by the same rules, and one hub serves every domain of a GPU.
// Phased ticking (setPhased, the SMs of a GPU): a run of consecutive PhasedTickable units steps
// all its units, on up to `threads` threads, then commits them one by one in registration
// order; with one thread the same two phases run on the caller's thread, so the results do not
// depend on the thread count.
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include <systemc>

namespace gpusim {

class Tickable {
public:
    virtual ~Tickable() = default;
    // Called once per edge of the unit's domain while the domain is awake; `cycle` is the
    // domain's cycle index (simulated time / period).
    virtual void tick(uint64_t cycle) = 0;
    // True while the unit has work that needs clock edges (queued items, timed events). A pure
    // query: the domain stops asking at the first busy unit.
    virtual bool busy() const = 0;
};

// A unit whose cycle splits in two: step() changes only the unit's own state (it may run on a
// worker thread, at the same time as other units' steps), commit() makes its effects on shared
// state (sending on a TLM socket, releasing payloads), on the domain's thread, in unit order.
class PhasedTickable : public Tickable {
public:
    virtual void step(uint64_t cycle) = 0;
    virtual void commit() = 0;
    void tick(uint64_t cycle) final {
        step(cycle);
        if (commitDue_) commit();
    }
    // False when the last step() left commit() nothing to do; read without a virtual call, since
    // most SMs' steps in a memory-bound cycle leave nothing (asleep, idle, or nothing sent).
    bool commitDue() const { return commitDue_; }
    // A unit asleep until `sleepUntil_` (its steps before that cycle would only count a slept
    // cycle, and leave commit() nothing): the domain's phased loop skips the call, without a
    // virtual call, and counts the edge in `skipped_`, which the unit settles when it next steps
    // or is read. The unit clears `sleepUntil_` itself when an event ends the sleep early.
    bool skips(uint64_t cycle) {
        if (cycle >= sleepUntil_) return false;
        ++skipped_;
        commitDue_ = false;
        return true;
    }

protected:
    bool commitDue_ = true;  // a unit that does not keep it commits every cycle
    uint64_t sleepUntil_ = 0;
    uint64_t skipped_ = 0;
};

class WorkerPool;
class ClockHub;

class ClockDomain : public sc_core::sc_module {
public:
    ClockDomain(sc_core::sc_module_name name, sc_core::sc_time period);
    ~ClockDomain() override;

    void add(Tickable* unit) { units_.push_back(unit); }
    // Step-then-commit for runs of PhasedTickable units, on `threads` threads (>= 1). Before
    // simulation starts, after every unit was added.
    void setPhased(unsigned threads);
    unsigned threads() const;
    // Called from a TLM callback (or another domain) when new work arrives for one of our units.
    // Inline for its usual case (already awake): called at every arrival (issue 19).
    void wake() {
        if (sleeping_) wakeUp();
    }

    // The hub's side (ClockHub): before simulation, the hub that runs this domain's edges; then
    // whether an edge is due at `now`, running it, and the next edge (UINT64_MAX while asleep).
    void attachTo(ClockHub* hub) { hub_ = hub; }
    bool dueAt(uint64_t now) const { return next_ == now; }
    void hubEdge(uint64_t now);
    uint64_t nextEdge() const { return next_; }

    sc_core::sc_time period() const { return period_; }
    // The cycle index of the current time (rounded down to this domain's edge).
    uint64_t cycle() const;
    uint64_t ticks() const { return ticks_; }  // edges actually simulated (not slept through)
    bool sleeping() const { return sleeping_; }

private:
    void onEdge();
    void wakeUp();
    // Ticks every unit at the edge of cycle c (the current time's); true if some unit is still busy.
    bool edge(uint64_t c);

    // A run of units: [begin, end) of units_, phased or not.
    struct Segment {
        size_t begin, end;
        bool phased;
    };

    sc_core::sc_time period_;
    std::vector<Tickable*> units_;
    bool phasedOn_ = false;
    std::vector<Segment> segments_;
    std::vector<PhasedTickable*> phased_;  // units_[i] as phased, or null
    std::unique_ptr<WorkerPool> pool_;
    // The pool's job, made once (a capturing lambda per cycle would allocate): steps unit
    // jobBegin_ + k at jobCycle_.
    std::function<void(size_t)> stepJob_;
    size_t jobBegin_ = 0;
    uint64_t jobCycle_ = 0;
    sc_core::sc_event wakeEvent_;
    ClockHub* hub_ = nullptr;
    uint64_t next_ = UINT64_MAX;  // with a hub: the next edge's time (UINT64_MAX: asleep)
    bool sleeping_ = true;
    bool started_ = false;
    uint64_t ticks_ = 0;
};

} // namespace gpusim
