#pragma once
// A one-SM SystemC bench for the SmCore/CtaDispatcher tests: a stub memory target answering every
// request after a fixed delay, a scripted kernel (one instruction vector per warp), a policy
// wrapper that records what the SM tells policies (issue cycles, barrier releases, warp ends,
// load completions), and a stopper that ends the simulation when the dispatcher is done.
// Core clock 1 GHz (1000 ps): cycle N is at N ns; the first edge after wake() at time 0 is cycle 1.
// One bench per process (a SystemC kernel cannot be restarted): ctest runs each case on its own.
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "common/AddressMap.hpp"
#include "common/AtPorts.hpp"
#include "common/ClockDomain.hpp"
#include "common/PayloadPool.hpp"
#include "common/Stats.hpp"
#include "modules/CtaDispatcher.hpp"
#include "modules/SmCore.hpp"
#include "workloads/Workload.hpp"

namespace gpusim::test {

constexpr uint64_t kPeriodPs = 1000;

// Answers every request (read or write) `delay` after its BEGIN_REQ, in arrival order.
class StubMemory : public sc_core::sc_module {
public:
    struct Rec {
        uint64_t addr;
        bool write;
        uint64_t arrivedPs;
        uint64_t answeredPs;
    };
    tlm_utils::simple_target_socket<StubMemory> socket;
    std::vector<Rec> log;
    // No answer leaves before this time: requests pile up and are answered back to back.
    uint64_t holdUntilPs = 0;
    // Back-pressure: a request arriving before this time is held (END_REQ withheld) and taken at
    // this time; the SM's port stays blocked meanwhile.
    uint64_t refuseUntilPs = 0;

    StubMemory(sc_core::sc_module_name n, sc_core::sc_time delay) : sc_module(n), socket("socket"), delay_(delay) {
        socket.register_nb_transport_fw(this, &StubMemory::fw);
        port_.bind("sm->test", [this](Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) { return socket->nb_transport_bw(p, ph, t); },
                   [this](Payload& p) { return take(p); }, [this] { ev_.notify(sc_core::SC_ZERO_TIME); });
        SC_HAS_PROCESS(StubMemory);
        SC_METHOD(answer);
        sensitive << ev_;
        dont_initialize();
    }

private:
    struct Pending {
        sc_core::sc_time due;
        Payload* p;
        size_t rec;
    };
    tlm::tlm_sync_enum fw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) { return port_.nbTransportFw(p, ph, t); }
    bool take(Payload& p) {
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        const sc_core::sc_time refuse(double(refuseUntilPs), sc_core::SC_PS);
        if (now < refuse) {
            ev_.notify(refuse - now);
            return false;
        }
        sc_core::sc_time due = now + delay_;
        const sc_core::sc_time hold(double(holdUntilPs), sc_core::SC_PS);
        if (due < hold) due = hold;
        q_.push_back({due, &p, log.size()});
        log.push_back({p.get_address(), p.is_write(), now.value(), 0});
        ev_.notify(due - now);
        return true;
    }
    void answer() {
        const sc_core::sc_time now = sc_core::sc_time_stamp();
        if (port_.hasHeldRequest()) port_.retryHeldRequest();
        while (!q_.empty() && q_.front().due <= now && port_.canRespond()) {
            Pending e = q_.front();
            q_.pop_front();
            e.p->set_response_status(tlm::TLM_OK_RESPONSE);
            log[e.rec].answeredPs = now.value();
            port_.respond(*e.p);
        }
        if (!q_.empty() && q_.front().due > now) ev_.notify(q_.front().due - now);
    }

    sc_core::sc_time delay_;
    AtTargetPort port_;
    sc_core::sc_event ev_;
    std::deque<Pending> q_;
};

using Program = std::vector<WarpInstruction>;

class VectorStream : public WarpStream {
public:
    explicit VectorStream(Program p) : p_(std::move(p)) {}
    bool next(WarpInstruction& out) override {
        if (i_ >= p_.size()) return false;
        out = p_[i_++];
        return true;
    }

private:
    Program p_;
    size_t i_ = 0;
};

class ScriptKernel : public Kernel {
public:
    using Gen = std::function<Program(uint64_t cta, unsigned warpInCta)>;
    ScriptKernel(std::string name, unsigned ctas, unsigned threads, Gen gen) : gen_(std::move(gen)) {
        info_.name = std::move(name);
        info_.grid = {ctas, 1, 1};
        info_.block = {threads, 1, 1};
        info_.regsPerThread = 16;
    }
    const KernelInfo& info() const override { return info_; }
    std::unique_ptr<WarpStream> warp(uint64_t cta, unsigned w) const override {
        return std::make_unique<VectorStream>(gen_(cta, w));
    }
    ScriptKernel& setStream(uint64_t s) {
        info_.stream = s;
        return *this;
    }

private:
    KernelInfo info_;
    Gen gen_;
};

class ScriptWorkload : public Workload {
public:
    ScriptWorkload& add(std::unique_ptr<Kernel> k) {
        kernels_.push_back(std::move(k));
        return *this;
    }
    const std::string& name() const override { return name_; }
    nlohmann::json params() const override { return nlohmann::json::object(); }
    const std::vector<std::unique_ptr<Kernel>>& kernels() const override { return kernels_; }

private:
    std::string name_ = "script";
    std::vector<std::unique_ptr<Kernel>> kernels_;
};

// Delegates to a real policy and records the SM's notifications with the SM's cycle.
class RecordingPolicy : public SchedulerPolicy {
public:
    struct Issue {
        uint64_t cycle;
        unsigned warp;
        uint64_t index;  // position of the instruction in the warp's stream
    };
    struct Load {
        uint64_t cycle;
        unsigned warp;
        uint64_t pc;
        bool fullyCached;
        unsigned accesses;
    };
    explicit RecordingPolicy(std::unique_ptr<SchedulerPolicy> inner) : inner_(std::move(inner)) {}

    std::string name() const override { return inner_->name(); }
    // Hooks forwarded unrecorded, so a wrapped policy sees everything the SM tells policies.
    void attach(const SmView& sm) override { inner_->attach(sm); }
    void registerStats(StatRegistry& st, const std::string& prefix) override { inner_->registerStats(st, prefix); }
    unsigned reexecutionQueueEntries() const override { return inner_->reexecutionQueueEntries(); }
    // Forwarded so the SM's fast paths for such policies (stalled-SM sleep, schedulers passed
    // over without order()) run under these hand-computed timing tests too; recording onIssue and
    // the load hooks is unaffected by them.
    bool idleWhileStalled() const override { return inner_->idleWhileStalled(); }
    void onCycle(uint64_t c, const SmView& sm) override { inner_->onCycle(c, sm); }
    void onL1Access(const L1AccessEvent& e) override { inner_->onL1Access(e); }
    void onL1Evict(uint64_t line, int owner) override { inner_->onL1Evict(line, owner); }
    void onMshrAlloc(uint64_t line) override { inner_->onMshrAlloc(line); }
    void onMshrFree(uint64_t line) override { inner_->onMshrFree(line); }
    void onBarrierArrive(unsigned w) override { inner_->onBarrierArrive(w); }
    void onWarpStart(unsigned w) override { inner_->onWarpStart(w); }
    void onCtaEnd(unsigned cta) override { inner_->onCtaEnd(cta); }
    void onKernelStart() override {
        kernelStarts.push_back(now());
        inner_->onKernelStart();
    }
    void onKernelEnd() override {
        kernelEnds.push_back(now());
        inner_->onKernelEnd();
    }
    void onLoadServiced(const LoadServicedEvent& e) override {
        serviced.push_back({now(), e});
        inner_->onLoadServiced(e);
    }
    void order(unsigned s, std::vector<unsigned>& w, const SmView& sm) override { inner_->order(s, w, sm); }
    bool canIssue(unsigned w, const SmView& sm) override { return inner_->canIssue(w, sm); }
    void onIssue(unsigned s, unsigned w, const SmView& sm) override {
        issues.push_back({sm.cycle(), w, sm.warp(w).issued - 1});
        inner_->onIssue(s, w, sm);
    }
    void onBarrierRelease(unsigned cta) override {
        barrierReleases.push_back({now(), cta});
        inner_->onBarrierRelease(cta);
    }
    void onWarpEnd(unsigned w) override {
        warpEnds.push_back({now(), w});
        inner_->onWarpEnd(w);
    }
    void onCtaStart(unsigned cta) override {
        ctaStarts.push_back({now(), cta});
        inner_->onCtaStart(cta);
    }
    void onLoadComplete(unsigned w, uint64_t pc, bool fc, unsigned acc) override {
        loads.push_back({now(), w, pc, fc, acc});
        inner_->onLoadComplete(w, pc, fc, acc);
    }

    // Cycle at which warp slot `w` issued its `index`-th instruction (the n-th such issue when a
    // slot is reused by a later CTA: `occurrence`); ~0 if never.
    uint64_t issueCycle(unsigned w, uint64_t index, unsigned occurrence = 0) const {
        for (const auto& i : issues)
            if (i.warp == w && i.index == index && occurrence-- == 0) return i.cycle;
        return ~uint64_t(0);
    }
    std::vector<uint64_t> issueCycles(unsigned w) const {
        std::vector<uint64_t> v;
        for (const auto& i : issues)
            if (i.warp == w) v.push_back(i.cycle);
        return v;
    }
    std::vector<unsigned> issueWarps() const {
        std::vector<unsigned> v;
        for (const auto& i : issues) v.push_back(i.warp);
        return v;
    }

    const SmView* view = nullptr;
    std::vector<Issue> issues;
    std::vector<std::pair<uint64_t, unsigned>> barrierReleases, warpEnds, ctaStarts;
    std::vector<uint64_t> kernelStarts, kernelEnds;  // the SM's cycle of each notification
    std::vector<Load> loads;
    std::vector<std::pair<uint64_t, LoadServicedEvent>> serviced;

private:
    uint64_t now() const { return view ? view->cycle() : ~uint64_t(0); }
    std::unique_ptr<SchedulerPolicy> inner_;
};

class Stopper : public Tickable {
public:
    explicit Stopper(const CtaDispatcher& d) : d_(d) {}
    void tick(uint64_t cycle) override {
        if (d_.done() && !stopped) {
            stopped = true;
            stopCycle = cycle;
            sc_core::sc_stop();
        }
    }
    bool busy() const override { return !stopped; }
    bool stopped = false;
    uint64_t stopCycle = 0;

private:
    const CtaDispatcher& d_;
};

class SmBench {
public:
    SmBench(const SmConfig& cfg, std::unique_ptr<SchedulerPolicy> policy, ScriptWorkload& wl,
            uint64_t memDelayPs)
        : clock("core", sc_core::sc_time(double(kPeriodPs), sc_core::SC_PS)),
          rec(new RecordingPolicy(std::move(policy))),
          sm("sm0", 0, cfg, stats, clock, pool, map, std::unique_ptr<SchedulerPolicy>(rec)),
          mem("mem", sc_core::sc_time(double(memDelayPs), sc_core::SC_PS)), disp({&sm}, wl, stats), stop(disp) {
        sm.noc.bind(mem.socket);
        rec->view = &sm;
        disp.checkFits();
        clock.add(&disp);
        clock.add(&stop);
    }
    // Runs to the end of the workload (or 100k cycles at most, a hang guard).
    void run() {
        clock.wake();
        sc_core::sc_start(sc_core::sc_time(100000.0 * kPeriodPs, sc_core::SC_PS));
    }
    double stat(const std::string& name) const { return stats.get(name); }

    StatRegistry stats;
    PayloadPool pool{128};
    AddressMap map{1, 256, AddressMap::Hash::None};
    ClockDomain clock;
    RecordingPolicy* rec;  // owned by sm
    SmCore sm;
    StubMemory mem;
    CtaDispatcher disp;
    Stopper stop;
};

} // namespace gpusim::test
