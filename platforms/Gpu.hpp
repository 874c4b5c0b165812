#pragma once
// A whole GPU built from a resolved configuration: SMs (core clock) -> crossbar (NoC clock) ->
// L2 slices (L2 clock) -> memories (DRAM clock; FR-FCFS or ideal per memory.model; with two
// slices per partition a zero-time router and arbiter put both in front of one memory), every
// boundary a TLM-2.0 AT socket pair, optionally spliced with a LinkInterposer (protocol checker, tracer). run() simulates the
// workload to completion, supervised by a watchdog, and checks the end-of-run invariants.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "common/AddressMap.hpp"
#include "common/ClockDomain.hpp"
#include "common/Config.hpp"
#include "common/LinkInterposer.hpp"
#include "common/PayloadPool.hpp"
#include "common/Stats.hpp"
#include "interconnect/Noc.hpp"
#include "memory/L2Slice.hpp"
#include "memory/PartitionMemory.hpp"
#include "memory/SliceArbiter.hpp"
#include "memory/SliceRouter.hpp"
#include "modules/CtaDispatcher.hpp"
#include "modules/SmCore.hpp"
#include "scheduler/PolicyRegistry.hpp"
#include "workloads/Workload.hpp"

namespace gpusim {

struct RunResult {
    uint64_t cycles = 0;        // core cycles simulated
    uint64_t instructions = 0;  // warp instructions issued
    bool truncated = false;     // stopped by --max-cycles
    double hostSeconds = 0;
};

class Gpu : public sc_core::sc_module {
public:
    Gpu(sc_core::sc_module_name name, const Config& cfg, const PolicyChoice& policy,
        const Workload& workload, StatRegistry& stats, const LinkHook& hook = {});
    ~Gpu() override;

    struct RunOptions {
        uint64_t maxCycles = 0;  // 0: unlimited
        bool progress = false;   // progress line on stderr
    };
    // Simulates to completion (or maxCycles). Throws ModelError on watchdog expiry or a broken
    // end-of-run invariant.
    RunResult run(const RunOptions& opt);

    const CtaDispatcher& dispatcher() const { return *dispatcher_; }
    const PayloadPool& pool() const { return pool_; }
    std::string dumpState() const;

private:
    class Supervisor;
    template <class I, class T>
    void link(const std::string& name, I& initiator, T& target);
    void checkInvariants() const;
    bool memorySystemQuiescent() const;

    const Config& cfg_;
    StatRegistry& stats_;
    LinkHook hook_;
    PayloadPool pool_;
    AddressMap map_;
    SmConfig smCfg_;
    ClockDomain core_, noc_, l2clk_, dram_;
    std::vector<std::unique_ptr<SmCore>> sms_;
    std::unique_ptr<Noc> xbar_;  // the NoC, whatever noc.topology
    std::vector<std::unique_ptr<L2Slice>> l2_;
    std::vector<std::unique_ptr<PartitionMemory>> mem_;   // memory.model, one per partition
    std::vector<std::unique_ptr<SliceRouter>> routers_;   // l2.slices_per_partition > 1 only
    std::vector<std::unique_ptr<SliceArbiter>> arbiters_;
    std::unique_ptr<CtaDispatcher> dispatcher_;
    std::unique_ptr<Supervisor> supervisor_;
    std::vector<std::unique_ptr<LinkInterposer>> interposers_;
};

// MHz -> clock period, rounded to the 1 ps time resolution.
sc_core::sc_time periodOf(double mhz);

} // namespace gpusim
