// CtaDispatcher with kernels on two CUDA streams (gpu.kernel_concurrency): two SMs, each with its
// own stub memory, and hand-built kernels of one-warp CTAs. Every warp runs the dependence chain
// of sm_core_test's AluDependenceChainTiming: placed at cycle P, it retires at P + 11 when it has
// its SM to itself (placed at 1, ends at 12). A kernel's CTAs and the SMs they land on are read
// by a probe ticking after the dispatcher (SmCore::residentCtasOf).
// Hand-worked dispatch (each cycle one pass over SM0, SM1 from after the last SM served, at most
// one CTA per SM):
//   spatial, A and B started together at cycle 1: A owns SM0, B owns SM1 (equal shares in start
//     order), so A's CTAs go to SM0 at cycles 1 and 2 and B's to SM1 at 1 and 2.
//   mixed: each SM is offered the kernels round-robin after the one it received last: cycle 1
//     SM0 <- A, SM1 <- A (neither received anything yet: the oldest first); cycle 2 SM0 <- B,
//     SM1 <- B. Both SMs hold a CTA of each kernel from cycle 2.
// Each case runs in its own process (ctest); one SystemC simulation per process.
#include <gtest/gtest.h>

#include <memory>

#include "common/SimError.hpp"
#include "modules/CtaDispatcher.hpp"
#include "modules/SmResources.hpp"
#include "scheduler/GtoPolicy.hpp"
#include "tb/unit/modules/ModuleTestHelpers.hpp"
#include "tb/unit/modules/SmTestBench.hpp"

namespace cta_dispatcher_streams_test {

using namespace gpusim;
using namespace gpusim::test;
using U64 = std::vector<uint64_t>;

namespace {

constexpr uint16_t R0 = 0, R1 = 1, R2 = 2, R3 = 3;

Program chain() { return Program{alu(0x00, R1, {R0}), alu(0x08, R2, {R1}), alu(0x10, R3, {R0}), exitInst(0x18)}; }

std::unique_ptr<Kernel> kernel(const std::string& name, unsigned ctas, uint64_t stream) {
    auto k = std::make_unique<ScriptKernel>(name, ctas, 32, [](uint64_t, unsigned) { return chain(); });
    k->setStream(stream);
    return k;
}

struct Placement {
    uint64_t cycle;
    unsigned sm;
    size_t kernel;
    bool operator==(const Placement&) const = default;
};

std::ostream& operator<<(std::ostream& os, const Placement& p) {
    return os << "{cycle " << p.cycle << ", sm" << p.sm << ", kernel " << p.kernel << "}";
}

// Records, after the dispatcher's tick, each increase of a kernel's resident CTAs on an SM and
// the largest number of different kernels resident on one SM at once.
class Probe : public Tickable {
public:
    Probe(std::vector<SmCore*> sms, const Workload& wl)
        : sms_(std::move(sms)), wl_(wl), last_(sms_.size(), std::vector<unsigned>(wl.kernels().size(), 0)) {}
    void tick(uint64_t cycle) override {
        for (unsigned s = 0; s < sms_.size(); ++s) {
            unsigned kinds = 0;
            for (size_t k = 0; k < wl_.kernels().size(); ++k) {
                const unsigned n = sms_[s]->residentCtasOf(*wl_.kernels()[k]);
                for (unsigned i = last_[s][k]; i < n; ++i) placements.push_back({cycle, s, k});
                last_[s][k] = n;
                kinds += n > 0;
            }
            if (kinds > maxKinds) maxKinds = kinds;
        }
    }
    bool busy() const override { return true; }
    std::vector<Placement> placements;
    unsigned maxKinds = 0;

private:
    std::vector<SmCore*> sms_;
    const Workload& wl_;
    std::vector<std::vector<unsigned>> last_;
};

class TwoSmBench {
public:
    TwoSmBench(ScriptWorkload& wl, DispatchParams p, SmConfig cfg = {})
        : clock("core", sc_core::sc_time(double(kPeriodPs), sc_core::SC_PS)),
          rec0(new RecordingPolicy(std::make_unique<GtoPolicy>())),
          rec1(new RecordingPolicy(std::make_unique<GtoPolicy>())),
          sm0("sm0", 0, cfg, stats, clock, pool, map, std::unique_ptr<SchedulerPolicy>(rec0)),
          sm1("sm1", 1, cfg, stats, clock, pool, map, std::unique_ptr<SchedulerPolicy>(rec1)),
          mem0("mem0", sc_core::sc_time(10000.0, sc_core::SC_PS)),
          mem1("mem1", sc_core::sc_time(10000.0, sc_core::SC_PS)), disp({&sm0, &sm1}, wl, stats, p),
          probe({&sm0, &sm1}, wl), stop(disp) {
        sm0.noc.bind(mem0.socket);
        sm1.noc.bind(mem1.socket);
        rec0->view = &sm0;
        rec1->view = &sm1;
        disp.checkFits();
        clock.add(&disp);
        clock.add(&probe);
        clock.add(&stop);
    }
    void run() {
        clock.wake();
        sc_core::sc_start(sc_core::sc_time(100000.0 * kPeriodPs, sc_core::SC_PS));
        ASSERT_TRUE(stop.stopped) << disp.dumpState();
    }
    // The record of the kernel at launch position `index`.
    const CtaDispatcher::KernelRecord& record(size_t index) const {
        for (const auto& r : disp.records())
            if (r.index == index) return r;
        throw std::out_of_range("kernel never started");
    }
    std::vector<Placement> placementsOn(unsigned sm) const {
        std::vector<Placement> v;
        for (const auto& p : probe.placements)
            if (p.sm == sm) v.push_back(p);
        return v;
    }

    StatRegistry stats;
    PayloadPool pool{128};
    AddressMap map{1, 256, AddressMap::Hash::None};
    ClockDomain clock;
    RecordingPolicy* rec0;  // owned by sm0
    RecordingPolicy* rec1;  // owned by sm1
    SmCore sm0, sm1;
    StubMemory mem0, mem1;
    CtaDispatcher disp;
    Probe probe;
    Stopper stop;
};

DispatchParams mode(KernelConcurrency c, unsigned maxKernels = 16) { return {c, maxKernels}; }

bool overlap(const CtaDispatcher::KernelRecord& a, const CtaDispatcher::KernelRecord& b) {
    return a.startCycle <= b.endCycle && b.startCycle <= a.endCycle;
}

} // namespace

TEST(CtaDispatcherStreams, SerialRunsDifferentStreamsOneAfterAnother) {
    // The default: B (stream 1) starts the cycle after A (stream 0) ended, as before streams.
    ScriptWorkload wl;
    wl.add(kernel("A", 1, 0)).add(kernel("B", 1, 1));
    TwoSmBench b(wl, {});
    b.run();
    EXPECT_EQ(b.record(0).startCycle, 1u);
    EXPECT_EQ(b.record(0).endCycle, 12u);
    EXPECT_EQ(b.record(1).startCycle, 13u);
    EXPECT_EQ(b.record(1).endCycle, 24u);
    // Every SM's policy sees each kernel's start and end.
    EXPECT_EQ(b.rec0->kernelStarts, (U64{1, 13}));
    EXPECT_EQ(b.rec0->kernelEnds, (U64{12, 24}));
    EXPECT_EQ(b.rec1->kernelStarts, (U64{1, 13}));
    EXPECT_TRUE(b.disp.multiStream());
    EXPECT_EQ(b.stats.get("kernel1.start_cycle"), 13);
}

TEST(CtaDispatcherStreams, SpatialPutsEachKernelOnItsOwnSm) {
    ScriptWorkload wl;
    wl.add(kernel("A", 2, 0)).add(kernel("B", 2, 1));
    TwoSmBench b(wl, mode(KernelConcurrency::Spatial));
    b.run();
    EXPECT_EQ(b.placementsOn(0), (std::vector<Placement>{{1, 0, 0}, {2, 0, 0}}));
    EXPECT_EQ(b.placementsOn(1), (std::vector<Placement>{{1, 1, 1}, {2, 1, 1}}));
    EXPECT_EQ(b.probe.maxKinds, 1u);
    const auto &a = b.record(0), &k = b.record(1);
    EXPECT_EQ(a.startCycle, 1u);
    EXPECT_EQ(k.startCycle, 1u);
    // The two SMs run the same thing: the kernels end together.
    EXPECT_EQ(a.endCycle, k.endCycle);
    EXPECT_TRUE(overlap(a, k));
    // Per kernel and per stream: 2 warps x 4 instructions each.
    EXPECT_EQ(b.stats.get("kernel0.warp_instructions"), 8);
    EXPECT_EQ(b.stats.get("kernel1.warp_instructions"), 8);
    EXPECT_EQ(b.stats.get("kernel1.stream"), 1);
    EXPECT_EQ(b.stats.get("stream1.kernels"), 1);
    EXPECT_EQ(b.stats.get("stream1.warp_instructions"), 8);
    EXPECT_EQ(b.stats.get("stream0.first_start_cycle"), 1);
    EXPECT_EQ(b.stats.get("stream0.last_end_cycle"), double(a.endCycle));
    EXPECT_EQ(b.stats.get("sm0.issued") + b.stats.get("sm1.issued"), 16);
}

TEST(CtaDispatcherStreams, SpatialOneCtaEachRunsAsIfAlone) {
    // Each kernel has an SM to itself: both take the 11 cycles of the chain alone, at once.
    ScriptWorkload wl;
    wl.add(kernel("A", 1, 0)).add(kernel("B", 1, 1));
    TwoSmBench b(wl, mode(KernelConcurrency::Spatial));
    b.run();
    EXPECT_EQ(b.record(0).startCycle, 1u);
    EXPECT_EQ(b.record(0).endCycle, 12u);
    EXPECT_EQ(b.record(1).startCycle, 1u);
    EXPECT_EQ(b.record(1).endCycle, 12u);
    EXPECT_EQ(b.stop.stopCycle, 12u);
}

TEST(CtaDispatcherStreams, SpatialWithOneKernelAtATimeIsSerial) {
    ScriptWorkload wl;
    wl.add(kernel("A", 1, 0)).add(kernel("B", 1, 1));
    TwoSmBench b(wl, mode(KernelConcurrency::Spatial, 1));
    b.run();
    EXPECT_EQ(b.record(0).endCycle, 12u);
    EXPECT_EQ(b.record(1).startCycle, 13u);
    EXPECT_EQ(b.record(1).endCycle, 24u);
}

TEST(CtaDispatcherStreams, MixedPlacesBothKernelsOnOneSm) {
    ScriptWorkload wl;
    wl.add(kernel("A", 2, 0)).add(kernel("B", 2, 1));
    TwoSmBench b(wl, mode(KernelConcurrency::Mixed));
    b.run();
    EXPECT_EQ(b.placementsOn(0), (std::vector<Placement>{{1, 0, 0}, {2, 0, 1}}));
    EXPECT_EQ(b.placementsOn(1), (std::vector<Placement>{{1, 1, 0}, {2, 1, 1}}));
    EXPECT_EQ(b.probe.maxKinds, 2u);
    const auto &a = b.record(0), &k = b.record(1);
    EXPECT_TRUE(overlap(a, k));
    EXPECT_EQ(k.startCycle, 1u);
    EXPECT_LE(a.endCycle, k.endCycle);  // A's CTAs were placed first
    // Policy epochs follow the running set: {A, B} from cycle 1, {B} from A's end (if B is
    // still running then), nothing after B's end.
    const U64 starts = a.endCycle < k.endCycle ? U64{1, a.endCycle} : U64{1};
    EXPECT_EQ(b.rec0->kernelStarts, starts);
    EXPECT_EQ(b.rec1->kernelStarts, starts);
    EXPECT_EQ(b.rec0->kernelEnds.size(), starts.size());
    EXPECT_EQ(b.rec0->kernelEnds.back(), k.endCycle);
}

TEST(CtaDispatcherStreams, MixedPlacesAsResourcesAllow) {
    // One CTA slot per SM: cycle 1 gives both SMs a CTA of A (the oldest first); B's CTAs wait
    // until A's retire at 12, when both SMs, having last received A, take B's: B runs 12 -> 23.
    ScriptWorkload wl;
    wl.add(kernel("A", 2, 0)).add(kernel("B", 2, 1));
    SmConfig cfg;
    cfg.maxCtas = 1;
    TwoSmBench b(wl, mode(KernelConcurrency::Mixed), cfg);
    b.run();
    EXPECT_EQ(b.placementsOn(0), (std::vector<Placement>{{1, 0, 0}, {12, 0, 1}}));
    EXPECT_EQ(b.placementsOn(1), (std::vector<Placement>{{1, 1, 0}, {12, 1, 1}}));
    EXPECT_EQ(b.record(0).endCycle, 12u);
    EXPECT_EQ(b.record(1).startCycle, 1u);  // started (eligible) at once, CTAs placed when room came
    EXPECT_EQ(b.record(1).endCycle, 23u);
    // A ended while the SMs held B's CTAs: the rest of the SM's traffic is B's.
    EXPECT_TRUE(overlap(b.record(0), b.record(1)));
}

TEST(CtaDispatcher, AWaitingCtaIsPlacedTheCycleRoomComes) {
    // One kernel, one CTA slot per SM, three CTAs: cycle 1 places CTA 0 on SM0 and CTA 1 on SM1;
    // CTA 2 waits while both SMs are full (the dispatcher skips its passes: no SM's resources
    // change) until the CTAs retire at 12, when the pass, starting after SM1 (served last),
    // places it on SM0 (the probe sees no increase there: one CTA left, one came), where it
    // retires at 23.
    ScriptWorkload wl;
    wl.add(kernel("A", 3, 0));
    SmConfig cfg;
    cfg.maxCtas = 1;
    TwoSmBench b(wl, {}, cfg);
    b.run();
    EXPECT_EQ(b.probe.placements, (std::vector<Placement>{{1, 0, 0}, {1, 1, 0}}));
    EXPECT_EQ(b.record(0).endCycle, 23u);
    EXPECT_EQ(b.stats.get("sm0.issued"), 8);  // two CTAs of 4 instructions
    EXPECT_EQ(b.stats.get("sm1.issued"), 4);
}

TEST(CtaDispatcherStreams, OneStreamsKernelsRunInOrder) {
    // A and A2 on stream 0, B on stream 1 (launch order A, A2, B): B overtakes A2, which starts
    // the cycle after A ended. Each kernel's one CTA has an SM to itself.
    ScriptWorkload wl;
    wl.add(kernel("A", 1, 0)).add(kernel("A2", 1, 0)).add(kernel("B", 1, 1));
    TwoSmBench b(wl, mode(KernelConcurrency::Mixed));
    b.run();
    const auto &a = b.record(0), &a2 = b.record(1), &k = b.record(2);
    EXPECT_EQ(a.startCycle, 1u);
    EXPECT_EQ(a.endCycle, 12u);
    EXPECT_EQ(k.startCycle, 1u);
    EXPECT_EQ(k.endCycle, 12u);
    EXPECT_EQ(a2.startCycle, 13u);
    EXPECT_EQ(a2.endCycle, 24u);
    EXPECT_FALSE(overlap(a, a2));
    EXPECT_TRUE(overlap(a, k));
    // Start order in the records: A, B, A2.
    ASSERT_EQ(b.disp.records().size(), 3u);
    EXPECT_EQ(b.disp.records()[1].name, "B");
    EXPECT_EQ(b.stats.get("stream0.kernels"), 2);
    EXPECT_EQ(b.stats.get("stream0.first_start_cycle"), 1);
    EXPECT_EQ(b.stats.get("stream0.last_end_cycle"), 24);
    EXPECT_EQ(b.stats.get("stream0.warp_instructions"), 8);
    EXPECT_EQ(b.rec0->kernelStarts, (U64{1, 13}));
    EXPECT_EQ(b.rec0->kernelEnds, (U64{12, 24}));
}

TEST(CtaDispatcherStreams, SpatialSameStreamInOrder) {
    ScriptWorkload wl;
    wl.add(kernel("A", 1, 0)).add(kernel("A2", 1, 0)).add(kernel("B", 1, 1));
    TwoSmBench b(wl, mode(KernelConcurrency::Spatial));
    b.run();
    EXPECT_EQ(b.record(0).endCycle, 12u);
    EXPECT_EQ(b.record(2).startCycle, 1u);
    EXPECT_EQ(b.record(1).startCycle, 13u);
    EXPECT_FALSE(overlap(b.record(0), b.record(1)));
    EXPECT_TRUE(overlap(b.record(0), b.record(2)));
}

TEST(CtaDispatcherStreams, SingleStreamHasNoStreamStatistics) {
    // The extra statistics exist only when the workload has more than one stream, so runs of
    // single-stream workloads keep exactly their statistics.
    ScriptWorkload wl;
    wl.add(kernel("A", 1, 3)).add(kernel("A2", 1, 3));
    TwoSmBench b(wl, mode(KernelConcurrency::Mixed));
    b.run();
    EXPECT_FALSE(b.disp.multiStream());
    EXPECT_EQ(b.record(1).startCycle, 13u);
    EXPECT_NE(b.stats.find("kernel1.cycles"), nullptr);
    EXPECT_EQ(b.stats.find("kernel1.warp_instructions"), nullptr);
    EXPECT_EQ(b.stats.find("stream3.kernels"), nullptr);
}

TEST(CtaDispatcherStreams, UnknownConcurrencyNamesTheKey) {
    EXPECT_EQ(kernelConcurrencyFrom("mixed"), KernelConcurrency::Mixed);
    try {
        kernelConcurrencyFrom("shared");
        FAIL() << "no error";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("gpu.kernel_concurrency"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("'shared'"), std::string::npos) << e.what();
    }
}

TEST(SmResourcesTwoKernels, CtasOfDifferentKernelsShareAnSm) {
    // Fermi limits: 48 warps, 1536 threads, 8 CTAs, 32768 registers, 49152 B shared memory.
    // A: 256 threads x 32 registers (8192), no shared memory; B: 128 threads x 16 registers (2048),
    // 16 KiB shared memory.
    SmResources r(SmLimits{48, 1536, 8, 32768, 49152});
    KernelInfo a, b;
    a.grid = b.grid = {8, 1, 1};
    a.block = {256, 1, 1};
    a.regsPerThread = 32;
    b.block = {128, 1, 1};
    b.regsPerThread = 16;
    b.smemPerCta = 16384;
    const unsigned a0 = r.allocate(a);
    r.allocate(a);
    r.allocate(b);
    r.allocate(b);
    EXPECT_TRUE(r.fits(b));  // shared memory 48 KiB of 48
    r.allocate(b);
    EXPECT_EQ(r.whyNot(b), "shared memory");
    // Registers: 2 x 8192 + 3 x 2048 = 22528; one more A -> 30720 fits, a second would not.
    EXPECT_TRUE(r.fits(a));
    r.allocate(a);
    EXPECT_EQ(r.whyNot(a), "registers");
    EXPECT_EQ(r.ctasResident(), 6u);
    r.release(a0, a);  // releasing one of A's frees A's needs, not B's
    EXPECT_TRUE(r.fits(a));
    EXPECT_EQ(r.whyNot(b), "shared memory");
}

} // namespace cta_dispatcher_streams_test
