#include "platforms/Gpu.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "common/SimError.hpp"
#include "memory/DramController.hpp"
#include "platforms/PartitionLocalAddresses.hpp"

namespace gpusim {

std::string simulationErrorMessage(const sc_core::sc_report& r) {
    const std::string type = r.get_msg_type(), msg = r.get_msg();
    if (type == sc_core::SC_ID_SIMULATION_UNCAUGHT_EXCEPTION_) return msg;
    return msg.empty() ? type : type + ": " + msg;
}

sc_core::sc_time periodOf(double mhz) {
    return sc_core::sc_time(std::round(1e6 / mhz), sc_core::SC_PS);
}

// Ticks last in the core domain, right after the dispatcher it ticks: stops the simulation when
// the workload is done, when --max-cycles is reached, or when the watchdog sees no progress;
// shows the progress display. In hosted mode it ends the launch instead of the simulation.
class Gpu::Supervisor : public Tickable {
public:
    Supervisor(Gpu& gpu, uint64_t watchdog) : gpu_(gpu), watchdog_(watchdog) {}

    void tick(uint64_t cycle) override {
        if (gpu_.dispatcher_) gpu_.dispatcher_->tick(cycle);
        if (hosted_ && !active_) return;
        last_ = cycle;
        if (gpu_.dispatcher_->done()) {
            // The SMs are done; L2 write-backs may still be on their way to memory. The run ends
            // when the whole memory system has drained (the watchdog still guards this phase).
            if (gpu_.memorySystemQuiescent()) {
                end(finished_);
                return;
            }
            if (++drainCycles_ >= watchdog_) end(stalled_);
            return;
        }
        if (maxCycles_ && cycle >= maxCycles_) {
            end(truncated_);
            return;
        }
        // The watchdog: a stall when no SM has progressed for watchdog_ cycles. Progress only
        // moves the deadline later, so the SMs' last-progress cycles are read only when it comes.
        if (lastProgressCycle_ == kUnset) lastProgressCycle_ = cycle;  // the run's (launch's) first tick
        if (cycle - lastProgressCycle_ >= watchdog_) {
            for (const auto& sm : gpu_.sms_)
                lastProgressCycle_ = std::max(lastProgressCycle_, sm->lastProgressCycle());
            if (cycle - lastProgressCycle_ >= watchdog_) {
                end(stalled_);
                return;
            }
        }
        // The progress display and the time series share one comparison per cycle (never true
        // when neither is on): a run that asks for neither pays what it paid before them.
        if (cycle >= nextObserve_) observe(cycle);
    }
    bool busy() const override { return hosted_ ? active_ : !finished_; }

    void observe(uint64_t cycle) {
        if (sampler_ && cycle >= nextSample_) {
            sampler_->sample(cycle);
            nextSample_ = cycle + sampler_->interval();
        }
        // The host clock is read every 1024th core cycle only: a read every cycle would cost a
        // measurable part of a small GPU's cycle, and a display needs no finer time than that.
        if (progress_ && cycle >= nextProgress_) {
            nextProgress_ = (cycle | 1023) + 1;
            showProgress(cycle);
        }
        nextObserve_ = std::min(progress_ ? nextProgress_ : kUnset, sampler_ ? nextSample_ : kUnset);
    }
    void showProgress(uint64_t cycle) {
        ProgressSnapshot s;
        s.elapsedSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
        if (!progress_->due(s.elapsedSeconds)) return;
        s.cycle = cycle;
        for (const auto& sm : gpu_.sms_) s.warpInstructions += sm->issued();
        s.work = gpu_.dispatcher_->progress();
        progress_->show(s);
    }

    // CLI: set the outcome and stop the simulation. Hosted: end the launch, keep simulating.
    void end(bool& outcome) {
        if (!hosted_) {
            outcome = true;
            gpu_.hub_.stop();  // sc_stop() at this instant, though the hub may be ahead of the kernel
            return;
        }
        active_ = false;
        gpu_.finishLaunch(&outcome == &finished_);
    }
    void begin() {
        active_ = true;
        drainCycles_ = 0;
        lastProgressCycle_ = kUnset;
    }

    Gpu& gpu_;
    uint64_t watchdog_;
    uint64_t maxCycles_ = 0;
    std::unique_ptr<ProgressReporter> progress_;  // run() with a display only
    StatSampler* sampler_ = nullptr;
    static constexpr uint64_t kUnset = ~uint64_t(0);
    uint64_t nextProgress_ = 0, nextSample_ = 0, nextObserve_ = kUnset;
    uint64_t last_ = 0, lastProgressCycle_ = kUnset;
    bool finished_ = false, truncated_ = false, stalled_ = false;
    uint64_t drainCycles_ = 0;
    std::chrono::steady_clock::time_point start_;
    bool hosted_ = false, active_ = false;
};

// Hosted mode: the running launch and the statistics every launch adds to.
struct Gpu::Launch {
    std::function<void(const LaunchResult&)> done;
    uint64_t startCycle = 0, startInstructions = 0;
    unsigned index = 0;  // launches ended so far
    bool failed = false;  // a failed launch leaves SMs and caches in an undefined state
    // The dispatcher registers kernel<i>.* counters once per kernel index; each launch gets a
    // registry of its own, copied into the GPU's under launch<k>. when the launch ends.
    std::unique_ptr<StatRegistry> kernelStats;
    Counter* cycles = nullptr;
    Counter* instructions = nullptr;
    Counter* launches = nullptr;
};

template <class I, class T>
void Gpu::link(const std::string& name, I& initiator, T& target) {
    std::unique_ptr<LinkInterposer> ip = hook_ ? hook_(name) : nullptr;
    if (!ip) {
        initiator.bind(target);
        return;
    }
    initiator.bind(ip->in());
    ip->out().bind(target);
    interposers_.push_back(std::move(ip));
}

// The CTA dispatcher visits SMs in this order: the first SM of every cluster, then the second of
// every cluster, and so on. GPGPU-Sim issues at most one CTA per cluster per cycle, visiting the
// clusters round-robin, so a kernel with fewer CTAs than clusters gets one cluster (one NoC port)
// per CTA rather than two CTAs sharing a port. With one SM per cluster this is SM id order.
std::vector<SmCore*> Gpu::dispatchOrder() const {
    const unsigned n = static_cast<unsigned>(sms_.size());
    const unsigned per = params_.noc.smsPerCluster;
    const unsigned clusters = (n + per - 1) / per;
    std::vector<SmCore*> order;
    for (unsigned i = 0; i < per; ++i)
        for (unsigned c = 0; c < clusters; ++c)
            if (c * per + i < n) order.push_back(sms_[c * per + i].get());
    return order;
}

Gpu::Gpu(sc_core::sc_module_name name, const GpuParams& params, const PolicyChoice& policy,
         const Workload* workload, StatRegistry& stats, const LinkHook& hook, const GpuOptions& options)
    : sc_module(name), params_(params), stats_(stats), hook_(hook), pool_(params.sm.l1Line),
      map_(params.map), hub_("clock_hub"),
      core_("core_clock", periodOf(params.coreClockMhz)),
      noc_("noc_clock", periodOf(params.noc.clockMhz)),
      l2clk_("l2_clock", periodOf(params.l2.clockMhz)),
      dram_("dram_clock", periodOf(params.memory.clockMhz)) {
    for (ClockDomain* d : {&core_, &noc_, &l2clk_, &dram_}) hub_.attach(*d);
    build(policy, options);
    workload_ = workload;
    if (workload) {
        dispatcher_ = std::make_unique<CtaDispatcher>(dispatchOrder(), *workload, stats, params_.dispatch);
        dispatcher_->checkFits();
        // The hub may run edges ahead of the kernel (ClockHub.hpp) when no code of anybody else's
        // is called from the units (no interposer, no user memory, no plugin policy) and no unit
        // of ours uses delta notifications (the slice router and arbiter of
        // slices_per_partition > 1, the END_RESP of a link answering end_resp). run() starts the
        // kernel without a time limit. Hosted mode leaves sc_start to its owner: not there.
        const bool builtinPolicy = policy.info && policy.info->origin.empty();
        hub_.setBatching(!hook_ && memSockets_.empty() && routers_.empty() && builtinPolicy && !endRespLinks_);
        return;
    }
    supervisor_->hosted_ = true;
    launch_ = std::make_unique<Launch>();
    launch_->cycles = &stats.counter("gpu.cycles", "Core cycles of all launches");
    launch_->instructions = &stats.counter("gpu.warp_instructions", "Warp instructions issued, all SMs, all launches");
    launch_->launches = &stats.counter("gpu.launches", "Launches ended (hosted mode)");
}

Gpu::Gpu(sc_core::sc_module_name name, const GpuParams& params, const PolicyChoice& policy,
         const Workload& workload, StatRegistry& stats, const LinkHook& hook, const GpuOptions& options)
    : Gpu(name, params, policy, &workload, stats, hook, options) {}

Gpu::Gpu(sc_core::sc_module_name name, const GpuParams& params, const PolicyChoice& policy,
         StatRegistry& stats, const LinkHook& hook, const GpuOptions& options)
    : Gpu(name, params, policy, nullptr, stats, hook, options) {}

Gpu::Gpu(sc_core::sc_module_name name, const Config& cfg, const PolicyChoice& policy,
         const Workload& workload, StatRegistry& stats, const LinkHook& hook, const GpuOptions& options)
    : Gpu(name, GpuParams::from(cfg), policy, &workload, stats, hook, options) {}

Gpu::Gpu(sc_core::sc_module_name name, const Config& cfg, const PolicyChoice& policy,
         StatRegistry& stats, const LinkHook& hook, const GpuOptions& options)
    : Gpu(name, GpuParams::from(cfg), policy, nullptr, stats, hook, options) {}

// tlm.response_completion on every link where the GPU receives answers, then the options' own per
// link. With two slices per partition the slices answer the memory through the arbiter, which
// passes their return value and END_RESP on: "l2.<j>->mem" sets every slice of partition j.
void Gpu::setResponseCompletion(const GpuOptions& options) {
    const unsigned perPart = params_.l2.slicesPerPartition;
    std::map<std::string, ResponseCompletion> left = options.responseCompletion;
    const auto styleOf = [&](const std::string& link) {
        const auto it = left.find(link);
        const ResponseCompletion c = it == left.end() ? params_.tlm.responseCompletion : it->second;
        if (it != left.end()) left.erase(it);
        endRespLinks_ |= c == ResponseCompletion::EndResp;
        return c;
    };
    for (unsigned i = 0; i < sms_.size(); ++i)
        sms_[i]->setResponseCompletion(styleOf("sm" + std::to_string(i) + "->noc"));
    for (unsigned j = 0; j < map_.partitions(); ++j) {
        const std::string part = std::to_string(j);
        xbar_->setResponseCompletion(j, styleOf("noc->l2." + part));
        const ResponseCompletion mem = styleOf("l2." + part + "->mem");
        for (unsigned k = 0; k < perPart; ++k) l2_[j * perPart + k]->setMemoryResponseCompletion(mem);
    }
    if (!left.empty())
        throw InputError("GpuOptions::responseCompletion: no link \"" + left.begin()->first +
                         "\" receives answers in this GPU (links: sm<i>->noc, noc->l2.<j>, l2.<j>->mem; i < " +
                         std::to_string(sms_.size()) + ", j < " + std::to_string(map_.partitions()) + ")");
}

// Everything but the dispatcher: units, links, the supervisor (which ticks the dispatcher).
void Gpu::build(const PolicyChoice& policy, const GpuOptions& options) {
    if (!options.externalMemory && options.memoryAddresses != MemoryAddresses::Global)
        throw ModelError("GpuOptions::memoryAddresses = PartitionLocal needs GpuOptions::externalMemory (the "
                         "built-in memory models decode global addresses)");
    StatRegistry& stats = stats_;
    const unsigned nSms = params_.numSms;
    const unsigned nParts = map_.partitions();
    // State the SMs' policies share (iPAWS's GPU-wide decision): one per GPU, null for most policies.
    const std::shared_ptr<PolicyGpuContext> policyContext = policy.makeGpuContext();
    for (unsigned i = 0; i < nSms; ++i) {
        sms_.push_back(std::make_unique<SmCore>(("sm" + std::to_string(i)).c_str(), i, params_.sm, stats, core_,
                                                pool_, map_, policy.make(policyContext)));
        sms_.back()->setTraceSink(options.warpTrace);
    }
    xbar_ = std::make_unique<Noc>("noc", params_.noc, stats, noc_, nSms, nParts, params_.sm.l1Line);
    // Slice i serves partition i / S, sub-partition i % S (S = l2.slices_per_partition).
    const unsigned perPart = params_.l2.slicesPerPartition;
    for (unsigned i = 0; i < nParts * perPart; ++i)
        l2_.push_back(std::make_unique<L2Slice>(("l2_" + std::to_string(i)).c_str(), params_.l2, stats, l2clk_, pool_, map_, i));
    setResponseCompletion(options);
    if (!options.externalMemory)
        for (unsigned j = 0; j < nParts; ++j)
            mem_.push_back(makePartitionMemory("mem" + std::to_string(j), params_.memory, stats, dram_, map_, j));
    // OWL's opportunistic prefetch (docs/memory.md): dram.prefetch = owl, or a policy that asks
    // for it (--scheduler owl), turns it on in every FR-FCFS controller, each filling its own
    // partition's slices through a plain C++ call. An ideal or a user's memory gets none.
    if (params_.memory.dram.prefetch == DramPrefetchKind::Owl ||
        sms_.front()->policy().dramPrefetch() == DramPrefetchKind::Owl)
        for (unsigned j = 0; j < mem_.size(); ++j)
            if (auto* dram = dynamic_cast<DramController*>(mem_[j].get())) {
                for (unsigned k = 0; k < perPart; ++k) l2_[j * perPart + k]->enablePrefetchFills();
                dram->enablePrefetch(static_cast<unsigned>(params_.l2.lineBytes),
                                     [this, j, perPart](uint64_t line) {
                                         l2_[j * perPart + map_.subPartition(line, perPart)]->prefetchFill(line);
                                     });
            }
    // The memory link of partition j: to the built-in model, or left for the user (through the
    // hook's interposer if it gives one, so a protocol checker still sees the user's target).
    // With partition-local addresses the translation comes first, so the hook's interposer sees
    // what the user's memory sees.
    auto linkMemory = [&](unsigned j, tlm::tlm_initiator_socket<32>& initiator) {
        const std::string name = "l2." + std::to_string(j) + "->mem";
        if (!options.externalMemory) {
            link(name, initiator, mem_[j]->target());
            return;
        }
        tlm::tlm_initiator_socket<32>* end = &initiator;
        auto splice = [&](std::unique_ptr<LinkInterposer> ip) {
            end->bind(ip->in());
            end = &ip->out();
            interposers_.push_back(std::move(ip));
        };
        if (options.memoryAddresses == MemoryAddresses::PartitionLocal)
            splice(std::make_unique<PartitionLocalAddresses>(interposerModuleName("local_", name).c_str(), map_, j,
                                                             name));
        if (std::unique_ptr<LinkInterposer> ip = hook_ ? hook_(name) : nullptr) splice(std::move(ip));
        memSockets_.push_back(end);
    };
    for (unsigned i = 0; i < nSms; ++i) link("sm" + std::to_string(i) + "->noc", sms_[i]->noc, xbar_->smSide);
    for (unsigned j = 0; j < nParts; ++j) {
        const std::string part = std::to_string(j);
        if (perPart == 1) {
            link("noc->l2." + part, xbar_->memSide, l2_[j]->nocSide);
            linkMemory(j, l2_[j]->memSide);
            continue;
        }
        // The NoC still addresses the partition; the router picks the slice, the arbiter merges
        // the slices' misses onto the one memory link.
        routers_.push_back(std::make_unique<SliceRouter>(("l2router" + part).c_str(), map_, perPart));
        arbiters_.push_back(std::make_unique<SliceArbiter>(("l2arbiter" + part).c_str(), perPart, j));
        SliceRouter& router = *routers_.back();
        SliceArbiter& arbiter = *arbiters_.back();
        link("noc->l2." + part, xbar_->memSide, router.nocSide);
        for (unsigned k = 0; k < perPart; ++k) {
            const std::string slice = std::to_string(j * perPart + k);
            L2Slice& l2 = *l2_[j * perPart + k];
            link("l2." + part + ".router->slice" + slice, *router.sliceSide[k], l2.nocSide);
            link("slice" + slice + "->l2." + part + ".arbiter", l2.memSide, *arbiter.sliceSide[k]);
        }
        linkMemory(j, arbiter.memSide);
    }
    supervisor_ = std::make_unique<Supervisor>(*this, params_.watchdogCycles);
    core_.add(supervisor_.get());
    // Every run steps the SMs then commits them (ClockDomain::setPhased), whatever the thread
    // count, so that the count cannot change a result.
    unsigned threads = std::max(1u, options.threads);
    if (threads > 1) {
        if (policyContext)
            serialReason_ = "scheduler '" + policy.info->name + "' keeps state shared by all SMs";
        else if (!policy.info->origin.empty())
            serialReason_ = "scheduler '" + policy.info->name + "' comes from " + policy.info->origin +
                            " (a plugin's thread safety is unknown)";
        else if (options.warpTrace)
            serialReason_ = "--trace-warps writes one file from every SM";
        if (!serialReason_.empty()) threads = 1;
        threads = std::min(threads, nSms);
    }
    core_.setPhased(threads);
}

unsigned Gpu::threads() const { return core_.threads(); }

std::vector<const SmView*> Gpu::smViews() const {
    std::vector<const SmView*> v;
    for (const auto& sm : sms_) v.push_back(sm.get());
    return v;
}

Gpu::~Gpu() = default;

namespace {
constexpr uint64_t kUnsetCycle = ~uint64_t(0);
} // namespace

RunResult Gpu::run(const RunOptions& opt) {
    if (launch_) throw ModelError("Gpu::run: this GPU was built without a workload; use launch() and sc_start");
    supervisor_->maxCycles_ = opt.maxCycles;
    if (opt.progress != ProgressMode::None)
        supervisor_->progress_ = std::make_unique<ProgressReporter>(opt.progress, opt.progressIntervalSeconds);
    supervisor_->sampler_ = opt.sampler;
    supervisor_->nextSample_ = opt.sampler ? opt.sampler->interval() : kUnsetCycle;
    supervisor_->nextProgress_ = 0;
    supervisor_->nextObserve_ = std::min(supervisor_->progress_ ? uint64_t(0) : kUnsetCycle, supervisor_->nextSample_);
    if (opt.kernelWindows)
        dispatcher_->setKernelObserver([w = opt.kernelWindows, this] { w->update(*dispatcher_); });
    supervisor_->start_ = std::chrono::steady_clock::now();
    core_.wake();
    try {
        sc_core::sc_start();
    } catch (const sc_core::sc_report& e) {
        if (supervisor_->progress_) supervisor_->progress_->finish();
        rethrow(e);
    }
    RunResult r;
    r.hostSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - supervisor_->start_).count();
    if (supervisor_->progress_) supervisor_->progress_->finish();
    // Edges are numbered from time 0, so the last edge's index is the number of cycles simulated.
    r.cycles = supervisor_->last_;
    r.truncated = supervisor_->truncated_;
    if (opt.sampler) opt.sampler->finish(r.cycles);
    for (const auto& sm : sms_) r.instructions += sm->issued();
    stats_.counter("gpu.cycles", "Core cycles simulated").inc(r.cycles);
    stats_.counter("gpu.warp_instructions", "Warp instructions issued, all SMs").inc(r.instructions);
    if (supervisor_->stalled_)
        throw ModelError(watchdogMessage());
    if (!supervisor_->finished_ && !r.truncated)
        throw ModelError("simulation ended before the workload finished (no pending activity)\n" + dumpState());
    if (supervisor_->finished_) checkInvariants();
    return r;
}

void Gpu::rethrow(const sc_core::sc_report& r) const {
    if (workload_) workload_->rethrowDeferredInputError();
    throw ModelError(simulationErrorMessage(r));
}

tlm::tlm_initiator_socket<32>& Gpu::memorySocket(unsigned partition) {
    if (memSockets_.empty()) throw ModelError("Gpu::memorySocket: the GPU was built with its own memory model");
    return *memSockets_.at(partition);
}

bool Gpu::launchRunning() const { return supervisor_->active_; }

void Gpu::launch(const Workload& w, std::function<void(const LaunchResult&)> done) {
    if (!launch_) throw ModelError("Gpu::launch: this GPU was built with a workload; use run()");
    if (supervisor_->active_) throw ModelError("Gpu::launch: a launch is running");
    if (launch_->failed) throw ModelError("Gpu::launch: an earlier launch failed; the GPU state is undefined");
    auto kernelStats = std::make_unique<StatRegistry>();
    auto dispatcher = std::make_unique<CtaDispatcher>(dispatchOrder(), w, *kernelStats, params_.dispatch);
    dispatcher->checkFits();  // throws before anything changes
    dispatcher_ = std::move(dispatcher);  // the previous one used the previous kernelStats
    workload_ = &w;
    launch_->kernelStats = std::move(kernelStats);
    launch_->done = std::move(done);
    // Cycles count from the edge at or before the launch, as run() counts from time 0.
    launch_->startCycle = core_.cycle();
    launch_->startInstructions = 0;
    for (const auto& sm : sms_) launch_->startInstructions += sm->issued();
    supervisor_->begin();
    core_.wake();
}

void Gpu::finishLaunch(bool drained) {
    Launch& l = *launch_;
    workload_ = nullptr;  // the owner may free it once the launch has ended
    LaunchResult r;
    r.cycles = supervisor_->last_ - l.startCycle;
    for (const auto& sm : sms_) r.instructions += sm->issued();
    r.instructions -= l.startInstructions;
    if (!drained) {
        r.ok = false;
        r.error = watchdogMessage();
    } else {
        try {
            checkInvariants();
        } catch (const ModelError& e) {
            r.ok = false;
            r.error = e.what();
        }
    }
    const std::string prefix = "launch" + std::to_string(l.index) + ".";
    stats_.counter(prefix + "cycles", "Core cycles of launch " + std::to_string(l.index)).inc(r.cycles);
    stats_.counter(prefix + "warp_instructions", "Warp instructions of launch " + std::to_string(l.index))
        .inc(r.instructions);
    for (const auto& [name, st] : l.kernelStats->all())
        stats_.counter(prefix + name, st->description()).inc(static_cast<uint64_t>(st->value()));
    l.cycles->inc(r.cycles);
    l.instructions->inc(r.instructions);
    l.launches->inc();
    l.failed = !r.ok;
    ++l.index;
    auto done = std::move(l.done);
    l.done = nullptr;
    if (done) done(r);
}

bool Gpu::memorySystemQuiescent() const {
    if (!xbar_->quiescent()) return false;
    for (const auto& l : l2_)
        if (!l->quiescent()) return false;
    for (const auto& m : mem_)
        if (!m->quiescent()) return false;
    for (const auto& r : routers_)
        if (!r->quiescent()) return false;
    for (const auto& a : arbiters_)
        if (!a->quiescent()) return false;
    return true;
}

void Gpu::checkInvariants() const {
    std::ostringstream bad;
    for (const auto& sm : sms_)
        if (!sm->quiescent()) bad << "  " << sm->dumpState();
    if (!xbar_->quiescent()) bad << "  noc: " << xbar_->dumpState() << "\n";
    for (const auto& l : l2_)
        if (!l->quiescent()) bad << "  " << l->name() << ": " << l->dumpState() << "\n";
    for (const auto& m : mem_)
        if (!m->quiescent()) bad << "  " << m->moduleName() << ": " << m->dumpState() << "\n";
    for (const auto& r : routers_)
        if (!r->quiescent()) bad << "  " << r->name() << ": " << r->dumpState() << "\n";
    for (const auto& a : arbiters_)
        if (!a->quiescent()) bad << "  " << a->name() << ": " << a->dumpState() << "\n";
    if (pool_.outstanding() != 0)
        bad << "  payload pool: " << pool_.outstanding() << " payloads not returned\n";
    if (!bad.str().empty()) throw ModelError("end-of-run invariants broken:\n" + bad.str());
}

std::string Gpu::watchdogMessage() const {
    return "watchdog: no progress for " + std::to_string(params_.watchdogCycles) + " core cycles at cycle " +
           std::to_string(supervisor_->last_) + " (raise sim.watchdog_cycles if this is legitimate)\n" + dumpState();
}

std::string Gpu::dumpState() const {
    std::ostringstream os;
    os << dispatcher_->dumpState() << "\n";
    for (const auto& sm : sms_)
        if (!sm->quiescent()) os << sm->dumpState();
    os << "noc: " << xbar_->dumpState() << "\n";
    for (const auto& l : l2_) os << l->name() << ": " << l->dumpState() << "\n";
    for (const auto& m : mem_) os << m->moduleName() << ": " << m->dumpState() << "\n";
    for (const auto& r : routers_) os << r->name() << ": " << r->dumpState() << "\n";
    for (const auto& a : arbiters_) os << a->name() << ": " << a->dumpState() << "\n";
    os << "payloads outstanding: " << pool_.outstanding();
    return os.str();
}

} // namespace gpusim
