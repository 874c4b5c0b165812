// ClockHub (common/ClockHub.hpp): the domains due at one instant run in attachment order, in one
// process, whatever other processes have timed events at the same instants; a domain with no
// busy unit sleeps, and a wake() gives it its first edge strictly after the wake. One SystemC
// simulation per test (ctest runs each case in its own process).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <systemc>

#include "common/ClockDomain.hpp"
#include "common/ClockHub.hpp"

namespace clock_hub_test {

using namespace gpusim;
using Log = std::vector<std::string>;

std::string at(const std::string& who) { return who + "@" + std::to_string(sc_core::sc_time_stamp().value()); }

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

} // namespace clock_hub_test
