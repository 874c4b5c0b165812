#pragma once
// One clock domain: a single SC_METHOD re-armed with next_trigger(period) that ticks every unit
// of the domain in registration order (a fixed, deterministic order). When no unit is busy the
// method stops re-arming and simulated time can jump; an arrival calls wake(), which restarts
// ticking at the domain's next edge strictly after the current time. See DESIGN.md section 3.
#include <cstdint>
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

class ClockDomain : public sc_core::sc_module {
public:
    ClockDomain(sc_core::sc_module_name name, sc_core::sc_time period);

    void add(Tickable* unit) { units_.push_back(unit); }
    // Called from a TLM callback (or another domain) when new work arrives for one of our units.
    void wake();

    sc_core::sc_time period() const { return period_; }
    // The cycle index of the current time (rounded down to this domain's edge).
    uint64_t cycle() const;
    uint64_t ticks() const { return ticks_; }  // edges actually simulated (not slept through)
    bool sleeping() const { return sleeping_; }

private:
    void onEdge();

    sc_core::sc_time period_;
    std::vector<Tickable*> units_;
    sc_core::sc_event wakeEvent_;
    bool sleeping_ = true;
    bool started_ = false;
    uint64_t ticks_ = 0;
};

} // namespace gpusim
