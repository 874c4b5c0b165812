// ClockHub (common/ClockHub.hpp): the domains due at one instant run in attachment order, in one
// process, whatever other processes have timed events at the same instants; a domain with no
// busy unit sleeps, and a wake() gives it its first edge strictly after the wake. One SystemC
// simulation per test (ctest runs each case in its own process).
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "common/ClockDomain.hpp"
#include "common/ClockHub.hpp"
#include "common/SimTime.hpp"

namespace clock_hub_test {

using namespace gpusim;
using Log = std::vector<std::string>;

// The time a unit sees (simNow(): the kernel's, or a batching hub's while it runs ahead).
std::string at(const std::string& who) { return who + "@" + std::to_string(simNow()); }

// Logs "<name>@<ps>" at each tick and stays busy for `edges` ticks; `onTick` runs after the log.
class Unit : public Tickable {
public:
    Unit(std::string name, Log& log, unsigned edges) : name_(std::move(name)), log_(log), left_(edges) {}
    void tick(uint64_t) override {
        log_.push_back(at(name_));
        if (left_) --left_;
        if (onTick) onTick();
    }
    bool busy() const override { return left_ > 0; }
    void more(unsigned edges) { left_ += edges; }
    std::function<void()> onTick;

private:
    std::string name_;
    Log& log_;
    unsigned left_;
};

// A process of somebody else's (a co-simulated IP's clock): timed events of its own, no effect
// on the domains. Without the hub, such events changed the kernel's order of same-instant edges.
class Other : public sc_core::sc_module {
public:
    Other(sc_core::sc_module_name n, unsigned periodPs) : sc_module(n), period_(periodPs, sc_core::SC_PS) {
        SC_HAS_PROCESS(Other);
        SC_METHOD(run);
    }

private:
    void run() { next_trigger(period_); }
    sc_core::sc_time period_;
};

sc_core::sc_time ps(unsigned v) { return sc_core::sc_time(v, sc_core::SC_PS); }

TEST(ClockHub, DomainsDueTogetherRunInAttachmentOrderWhateverOtherProcessesDo) {
    Other o1("o1", 1000), o2("o2", 500), o3("o3", 300);
    Log log;
    ClockHub hub("hub");
    ClockDomain a("a", ps(1000)), b("b", ps(1000)), c("c", ps(1500));
    Unit ua("A", log, 3), ub("B", log, 3), uc("C", log, 3);
    a.add(&ua);
    b.add(&ub);
    c.add(&uc);
    hub.attach(b);  // B before A at a shared instant
    hub.attach(a);
    hub.attach(c);
    a.wake();
    b.wake();
    c.wake();
    sc_core::sc_start(ps(10000));
    // Three edges each from the first edge after time 0: A and B at 1, 2, 3 ns; C at 1.5, 3,
    // 4.5 ns. At 3 ns all three are due: B, A, C.
    EXPECT_EQ(log, (Log{"B@1000", "A@1000", "C@1500", "B@2000", "A@2000", "B@3000", "A@3000", "C@3000", "C@4500"}));
    EXPECT_EQ(a.ticks(), 3u);
    EXPECT_EQ(c.ticks(), 3u);
    EXPECT_TRUE(a.sleeping());
    EXPECT_TRUE(c.sleeping());
    EXPECT_EQ(c.nextEdge(), UINT64_MAX);
}

TEST(ClockHub, AWokenDomainTicksAtItsFirstEdgeAfterTheWake) {
    Log log;
    ClockHub hub("hub");
    ClockDomain a("a", ps(1000)), c("c", ps(1500)), d("d", ps(1000));
    Unit ua("A", log, 3), uc("C", log, 1), ud("D", log, 1);
    a.add(&ua);
    c.add(&uc);
    d.add(&ud);
    hub.attach(a);
    hub.attach(c);
    hub.attach(d);
    // A ticks at 1, 2, 3 ns. At 2 ns it wakes C (period 1.5 ns): C's first edge after 2 ns is
    // 3 ns. At 3 ns, an edge instant of D's (period 1 ns), it wakes D: D ticks at 4 ns, not in
    // the instant that woke it, though D's attached after A.
    ua.onTick = [&] {
        const uint64_t now = sc_core::sc_time_stamp().value();
        if (now == 2000) c.wake();
        if (now == 3000) d.wake();
    };
    a.wake();
    sc_core::sc_start(ps(10000));
    EXPECT_EQ(log, (Log{"A@1000", "A@2000", "A@3000", "C@3000", "D@4000"}));
    EXPECT_EQ(d.ticks(), 1u);
}

TEST(ClockHub, AttachingAfterTheStartIsRefused) {
    ClockHub hub("hub");
    ClockDomain a("a", ps(1000));
    sc_core::sc_start(ps(1));
    EXPECT_THROW(hub.attach(a), std::logic_error);
}

// ---- Batching (ClockHub::setBatching): the same edges at the same instants, seen through
// simNow(), in fewer activations of the hub's process; simulations without a time limit.

// A process of somebody else's with one timed event: logs the kernel's time and runs `action`.
class OneShot : public sc_core::sc_module {
public:
    OneShot(sc_core::sc_module_name n, unsigned atPs, Log& log) : sc_module(n), at_(atPs, sc_core::SC_PS), log_(log) {
        SC_HAS_PROCESS(OneShot);
        SC_METHOD(run);
    }
    std::function<void()> action;

private:
    void run() {
        if (!armed_) {
            armed_ = true;
            next_trigger(at_);
            return;
        }
        log_.push_back("X@" + std::to_string(sc_core::sc_time_stamp().value()));
        if (action) action();
    }
    sc_core::sc_time at_;
    Log& log_;
    bool armed_ = false;
};

TEST(ClockHub, BatchingRunsTheSameEdgesAtTheSameInstantsInOneActivation) {
    Log log;
    ClockHub hub("hub");
    hub.setBatching(true);
    ClockDomain a("a", ps(1000)), b("b", ps(1000)), c("c", ps(1500));
    Unit ua("A", log, 3), ub("B", log, 3), uc("C", log, 3);
    a.add(&ua);
    b.add(&ub);
    c.add(&uc);
    hub.attach(b);
    hub.attach(a);
    hub.attach(c);
    a.wake();
    b.wake();
    c.wake();
    sc_core::sc_start();
    // The first test's log, unbatched.
    EXPECT_EQ(log, (Log{"B@1000", "A@1000", "C@1500", "B@2000", "A@2000", "B@3000", "A@3000", "C@3000", "C@4500"}));
    // One activation ran every instant (from 1 ns, the kernel's); one more brought the kernel
    // to the last instant run, where it would have been unbatched.
    EXPECT_EQ(hub.activations(), 2u);
    EXPECT_EQ(sc_core::sc_time_stamp().value(), 4500u);
    EXPECT_EQ(simNow(), 4500u);
}

TEST(ClockHub, BatchingStopsBeforeAnotherProcessesActivityAndResumesAfterIt) {
    Log log;
    OneShot x("x", 2500, log);  // between A's edges at 2 and 3 ns
    ClockHub hub("hub");
    hub.setBatching(true);
    ClockDomain a("a", ps(1000)), d("d", ps(1000));
    Unit ua("A", log, 5), ud("D", log, 1);
    a.add(&ua);
    d.add(&ud);
    hub.attach(a);
    hub.attach(d);
    x.action = [&] { d.wake(); };  // from the other process, at the kernel's 2.5 ns: D ticks at 3 ns
    a.wake();
    sc_core::sc_start();
    EXPECT_EQ(log, (Log{"A@1000", "A@2000", "X@2500", "A@3000", "D@3000", "A@4000", "A@5000"}));
    // 1 ns (running 1 and 2 ns), 3 ns (3 to 5 ns; nothing else is pending), and the catch-up
    // to 5 ns: the other process's event cut the first batch.
    EXPECT_EQ(hub.activations(), 3u);
    EXPECT_EQ(sc_core::sc_time_stamp().value(), 5000u);
}

TEST(ClockHub, AStopAheadOfTheKernelStopsItAtThatInstantAfterTheInstantsOtherDomains) {
    Log log;
    ClockHub hub("hub");
    hub.setBatching(true);
    ClockDomain a("a", ps(1000)), b("b", ps(1000));
    Unit ua("A", log, 10), ub("B", log, 10);
    a.add(&ua);
    b.add(&ub);
    hub.attach(a);
    hub.attach(b);
    ua.onTick = [&] {
        if (simNow() == 3000) hub.stop();  // the kernel is still at 1 ns
    };
    a.wake();
    b.wake();
    sc_core::sc_start();
    // B, due at the same instant after A, still ticks at 3 ns; nothing ticks after it.
    EXPECT_EQ(log, (Log{"A@1000", "B@1000", "A@2000", "B@2000", "A@3000", "B@3000"}));
    EXPECT_EQ(sc_core::sc_time_stamp().value(), 3000u);
    EXPECT_EQ(hub.activations(), 2u);
}

// A unit of ours that asks the kernel for a delta cycle while the hub runs ahead breaks the
// batching contract (the delta would run at the kernel's earlier time): an error, not a result.
class DeltaListener : public sc_core::sc_module {
public:
    explicit DeltaListener(sc_core::sc_module_name n) : sc_module(n) {
        SC_HAS_PROCESS(DeltaListener);
        SC_METHOD(run);
        sensitive << event;
        dont_initialize();
    }
    sc_core::sc_event event;

private:
    void run() {}
};

TEST(ClockHub, DeltaActivityLeftAheadOfTheKernelIsAnError) {
    Log log;
    DeltaListener listener("listener");
    ClockHub hub("hub");
    hub.setBatching(true);
    ClockDomain a("a", ps(1000));
    Unit ua("A", log, 5);
    a.add(&ua);
    hub.attach(a);
    ua.onTick = [&] {
        if (simNow() == 3000) listener.event.notify(sc_core::SC_ZERO_TIME);
    };
    a.wake();
    EXPECT_ANY_THROW(sc_core::sc_start());
}

} // namespace clock_hub_test
