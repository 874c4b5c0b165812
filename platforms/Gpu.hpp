#pragma once
// A whole GPU built from its parameters (GpuParams, read from a resolved configuration): SMs
// (core clock) -> crossbar (NoC clock) -> L2 slices (L2 clock) -> memories (DRAM clock; FR-FCFS
// or ideal per memory.model; with two slices per partition a zero-time router and arbiter put both in front of one memory), every
// boundary a TLM-2.0 AT socket pair, optionally spliced with a LinkInterposer (protocol checker, tracer). run() simulates the
// workload to completion, supervised by a watchdog, and checks the end-of-run invariants.
// Embedded in a larger virtual platform (docs/cosimulation.md), a Gpu built without a workload
// starts one on command (launch(), driven by a ControlTarget) and leaves sc_start to its owner, and
// GpuOptions::externalMemory leaves each partition's memory link for the user's own TLM target.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "common/AddressMap.hpp"
#include "common/ClockDomain.hpp"
#include "common/ClockHub.hpp"
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
#include "platforms/ControlTarget.hpp"
#include "platforms/GpuParams.hpp"
#include "platforms/KernelStatWindows.hpp"
#include "platforms/ProgressReporter.hpp"
#include "platforms/StatSampler.hpp"
#include "scheduler/PolicyRegistry.hpp"
#include "workloads/Workload.hpp"

namespace gpusim {

struct RunResult {
    uint64_t cycles = 0;        // core cycles simulated
    uint64_t instructions = 0;  // warp instructions issued
    bool truncated = false;     // stopped by --max-cycles
    double hostSeconds = 0;
};

// The addresses a user's memory (GpuOptions::externalMemory) receives.
enum class MemoryAddresses {
    Global,          // the device address, partition bits included (decode: Gpu::addressMap())
    PartitionLocal,  // AddressMap::localAddress: the partition bits squeezed out, dense per partition
};

// How a program embedding the GPU changes its build (the CLI uses the defaults).
struct GpuOptions {
    // Build no memory model (memory.model is unused): the L2's memory-side initiator socket of
    // every partition, memorySocket(j), is left for the user to bind before simulation starts.
    bool externalMemory = false;
    // With externalMemory: PartitionLocal puts a zero-time pass-through on each memory link that
    // hands the memory partition-local addresses and gives the L2 the global one back with the
    // answer (platforms/PartitionLocalAddresses.hpp). Without externalMemory it must stay Global
    // (the built-in controllers decode global addresses): a ModelError otherwise.
    MemoryAddresses memoryAddresses = MemoryAddresses::Global;
    // Observer of every SM's warps (--trace-warps); null: none. Not owned; must outlive run().
    WarpTraceSink* warpTrace = nullptr;
    // Threads that step the SMs of a core cycle (--threads; SmCore::step/commit). Statistics do
    // not depend on it. The SMs step on one thread whatever this says when they share state
    // outside themselves: a policy with GPU-wide state (iPAWS), a plugin's or Python policy (its
    // thread safety is unknown), a warp trace (one file); Gpu::serialReason() says which.
    unsigned threads = 1;
    // The answering style of the links where the GPU receives answers, by link name ("sm3->noc",
    // "noc->l2.2", "l2.2->mem"), over tlm.response_completion for the links it names. A name that
    // is no such link of this GPU is an InputError at construction.
    std::map<std::string, ResponseCompletion> responseCompletion;
};

class Gpu : public sc_core::sc_module, public KernelLauncher {
public:
    // The CLI's GPU: runs `workload` from time 0 when run() is called.
    Gpu(sc_core::sc_module_name name, const GpuParams& params, const PolicyChoice& policy,
        const Workload& workload, StatRegistry& stats, const LinkHook& hook = {},
        const GpuOptions& options = {});
    // A GPU that waits for launch() (hosted mode): the owner calls sc_start, the GPU never
    // stops the simulation. Statistics per launch k: launch<k>.{cycles,warp_instructions,
    // kernel<i>.cycles,kernel<i>.ctas} (and the dispatcher's other kernel<i>.* and stream<s>.* of a
    // multi-stream workload); gpu.cycles, gpu.warp_instructions and gpu.launches sum them.
    Gpu(sc_core::sc_module_name name, const GpuParams& params, const PolicyChoice& policy, StatRegistry& stats,
        const LinkHook& hook = {}, const GpuOptions& options = {});
    // The same from a resolved configuration (GpuParams::from(cfg)).
    Gpu(sc_core::sc_module_name name, const Config& cfg, const PolicyChoice& policy,
        const Workload& workload, StatRegistry& stats, const LinkHook& hook = {},
        const GpuOptions& options = {});
    Gpu(sc_core::sc_module_name name, const Config& cfg, const PolicyChoice& policy, StatRegistry& stats,
        const LinkHook& hook = {}, const GpuOptions& options = {});
    ~Gpu() override;

    // Hosted mode only. Starts `w` at the next core clock edge; throws InputError if a kernel
    // cannot fit on an SM and ModelError if a launch is running, the GPU was built with a
    // workload, or an earlier launch failed. `done` runs inside the simulation (in the core
    // clock's process) once the workload finished and the memory system drained, or on failure.
    void launch(const Workload& w, std::function<void(const LaunchResult&)> done) override;
    bool launchRunning() const;

    // The memory-side initiator socket of partition j (the L2 slice's, or the slice arbiter's
    // with l2.slices_per_partition > 1); with GpuOptions::externalMemory the user binds it to
    // their own AT target (through the link hook's interposer for "l2.<j>->mem", if any).
    tlm::tlm_initiator_socket<32>& memorySocket(unsigned partition);
    unsigned partitions() const { return map_.partitions(); }
    // The platform's address map: partition, partition-local address, DRAM bank, row and column
    // of a global address (AddressMap::locate), and the inverse (globalAddress, encodeLocal).
    const AddressMap& addressMap() const { return map_; }

    struct RunOptions {
        uint64_t maxCycles = 0;  // 0: unlimited
        ProgressMode progress = ProgressMode::None;  // the display on stderr (ProgressReporter)
        double progressIntervalSeconds = 10;         // between plain lines (gpusim run --progress-interval)
        // Observers (null: none, the default; neither changes what the model does): the sampler
        // at every interval's last core cycle, the windows at every kernel start and end. Not
        // owned; must outlive run().
        StatSampler* sampler = nullptr;             // --sample-interval
        KernelStatWindows* kernelWindows = nullptr;  // per-kernel statistics
    };
    // Simulates to completion (or maxCycles). Throws ModelError on watchdog expiry, a broken
    // end-of-run invariant or any error raised inside the simulation (a protocol violation on a
    // link, a user's target that throws: see rethrow()), InputError on a malformed trace section
    // read during the run.
    // Threads stepping the SMs, and why fewer than GpuOptions::threads asked ("" if not fewer).
    unsigned threads() const;
    const std::string& serialReason() const { return serialReason_; }
    RunResult run(const RunOptions& opt);

    // An error raised inside a SystemC process reaches sc_start's caller as an sc_report (the
    // kernel wraps every exception). This throws it as ours, with the one-line message the
    // command line prints: the workload's deferred InputError if it has one, else a ModelError.
    // run() does it; a hosted GPU's owner calls it from around its own sc_start.
    [[noreturn]] void rethrow(const sc_core::sc_report& r) const;

    // The workload's dispatcher (hosted mode: the last launch's; none before the first).
    const CtaDispatcher& dispatcher() const { return *dispatcher_; }
    const PayloadPool& pool() const { return pool_; }
    // Every SM as its policies see it, in SM id order (the time series' warp counts).
    std::vector<const SmView*> smViews() const;
    std::string dumpState() const;
    // What a run or a hosted launch reports when the watchdog ends it: the stall and the state.
    std::string watchdogMessage() const;

private:
    class Supervisor;
    struct Launch;
    // Every public constructor ends here; `workload` null: hosted mode.
    Gpu(sc_core::sc_module_name name, const GpuParams& params, const PolicyChoice& policy,
        const Workload* workload, StatRegistry& stats, const LinkHook& hook, const GpuOptions& options);
    void build(const PolicyChoice& policy, const GpuOptions& options);
    void setResponseCompletion(const GpuOptions& options);
    std::vector<SmCore*> dispatchOrder() const;
    void finishLaunch(bool drained);
    template <class I, class T>
    void link(const std::string& name, I& initiator, T& target);
    void checkInvariants() const;
    bool memorySystemQuiescent() const;

    const GpuParams params_;
    StatRegistry& stats_;
    LinkHook hook_;
    PayloadPool pool_;
    AddressMap map_;
    // One SystemC process runs the four domains' edges (ClockHub); the order at a shared instant
    // is this one.
    ClockHub hub_;
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
    std::vector<tlm::tlm_initiator_socket<32>*> memSockets_;  // one per partition
    std::unique_ptr<Launch> launch_;                            // hosted mode only
    const Workload* workload_ = nullptr;  // the run's, or the running launch's (hosted mode)
    std::string serialReason_;
    bool endRespLinks_ = false;  // some link answers end_resp (a delta cycle per answer)
};

// The message of an error raised inside the simulation: the exception's own text when the kernel
// wrapped one (SystemC's E549 "uncaught exception"), else "<message type>: <message>" (a
// user's SC_REPORT_ERROR).
std::string simulationErrorMessage(const sc_core::sc_report& r);

// MHz -> clock period, rounded to the 1 ps time resolution.
sc_core::sc_time periodOf(double mhz);

} // namespace gpusim
