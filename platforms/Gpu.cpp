#include "platforms/Gpu.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "common/SimError.hpp"

namespace gpusim {

sc_core::sc_time periodOf(double mhz) {
    return sc_core::sc_time(std::round(1e6 / mhz), sc_core::SC_PS);
}

// Ticks last in the core domain: stops the simulation when the workload is done, when
// --max-cycles is reached, or when the watchdog sees no progress; prints the progress line.
class Gpu::Supervisor : public Tickable {
public:
    Supervisor(Gpu& gpu, uint64_t watchdog, uint64_t progressEvery)
        : gpu_(gpu), watchdog_(watchdog), progressEvery_(progressEvery) {}

    void tick(uint64_t cycle) override {
        last_ = cycle;
        if (gpu_.dispatcher_->done()) {
            // The SMs are done; L2 write-backs may still be on their way to memory. The run ends
            // when the whole memory system has drained (the watchdog still guards this phase).
            if (gpu_.memorySystemQuiescent()) {
                finished_ = true;
                sc_core::sc_stop();
                return;
            }
            if (++drainCycles_ >= watchdog_) {
                stalled_ = true;
                sc_core::sc_stop();
            }
            return;
        }
        if (maxCycles_ && cycle >= maxCycles_) {
            truncated_ = true;
            sc_core::sc_stop();
            return;
        }
        uint64_t progress = 0;
        for (const auto& sm : gpu_.sms_) progress += sm->progress();
        if (progress != lastProgress_) {
            lastProgress_ = progress;
            lastProgressCycle_ = cycle;
        } else if (cycle - lastProgressCycle_ >= watchdog_) {
            stalled_ = true;
            sc_core::sc_stop();
            return;
        }
        if (showProgress_ && cycle >= nextProgress_) {
            nextProgress_ = cycle + progressEvery_;
            uint64_t insts = 0;
            for (const auto& sm : gpu_.sms_) insts += sm->issued();
            const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
            std::fprintf(stderr, "\r[gpusim] cycle %llu  IPC %.3f  %s  %.0f cycles/s   ",
                         static_cast<unsigned long long>(cycle), cycle ? double(insts) / double(cycle) : 0.0,
                         gpu_.dispatcher_->dumpState().c_str(), secs > 0 ? double(cycle) / secs : 0.0);
            std::fflush(stderr);
            printed_ = true;
        }
    }
    bool busy() const override { return !finished_; }

    Gpu& gpu_;
    uint64_t watchdog_, progressEvery_;
    uint64_t maxCycles_ = 0;
    bool showProgress_ = false, printed_ = false;
    uint64_t nextProgress_ = 0;
    uint64_t last_ = 0, lastProgress_ = ~uint64_t(0), lastProgressCycle_ = 0;
    bool finished_ = false, truncated_ = false, stalled_ = false;
    uint64_t drainCycles_ = 0;
    std::chrono::steady_clock::time_point start_;
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

Gpu::Gpu(sc_core::sc_module_name name, const Config& cfg, const PolicyChoice& policy,
         const Workload& workload, StatRegistry& stats, const LinkHook& hook)
    : sc_module(name), cfg_(cfg), stats_(stats), hook_(hook), pool_(static_cast<unsigned>(cfg.getInt("l1d.line_bytes"))),
      map_(cfg), smCfg_(SmConfig::from(cfg)),
      core_("core_clock", periodOf(cfg.getDouble("sm.clock_mhz"))),
      noc_("noc_clock", periodOf(cfg.getDouble("noc.clock_mhz"))),
      l2clk_("l2_clock", periodOf(cfg.getDouble("l2.clock_mhz"))),
      dram_("dram_clock", periodOf(cfg.getDouble("dram.clock_mhz"))) {
    const unsigned nSms = static_cast<unsigned>(cfg.getInt("gpu.num_sms"));
    const unsigned nParts = map_.partitions();
    for (unsigned i = 0; i < nSms; ++i)
        sms_.push_back(std::make_unique<SmCore>(("sm" + std::to_string(i)).c_str(), i, smCfg_, stats, core_,
                                                pool_, map_, policy.make()));
    xbar_ = std::make_unique<Noc>("noc", cfg, stats, noc_, nSms, nParts,
                                  static_cast<unsigned>(cfg.getInt("l1d.line_bytes")));
    // Slice i serves partition i / S, sub-partition i % S (S = l2.slices_per_partition).
    const unsigned perPart = static_cast<unsigned>(cfg.getInt("l2.slices_per_partition"));
    for (unsigned i = 0; i < nParts * perPart; ++i)
        l2_.push_back(std::make_unique<L2Slice>(("l2_" + std::to_string(i)).c_str(), cfg, stats, l2clk_, pool_, map_, i));
    for (unsigned j = 0; j < nParts; ++j)
        mem_.push_back(makePartitionMemory("mem" + std::to_string(j), cfg, stats, dram_, map_, j));
    for (unsigned i = 0; i < nSms; ++i) link("sm" + std::to_string(i) + "->noc", sms_[i]->noc, xbar_->smSide);
    for (unsigned j = 0; j < nParts; ++j) {
        const std::string part = std::to_string(j);
        if (perPart == 1) {
            link("noc->l2." + part, xbar_->memSide, l2_[j]->nocSide);
            link("l2." + part + "->mem", l2_[j]->memSide, mem_[j]->target());
            continue;
        }
        // The NoC still addresses the partition; the router picks the slice, the arbiter merges
        // the slices' misses onto the one memory link.
        routers_.push_back(std::make_unique<SliceRouter>(("l2router" + part).c_str(), map_, perPart));
        arbiters_.push_back(std::make_unique<SliceArbiter>(("l2arbiter" + part).c_str(), perPart));
        SliceRouter& router = *routers_.back();
        SliceArbiter& arbiter = *arbiters_.back();
        link("noc->l2." + part, xbar_->memSide, router.nocSide);
        for (unsigned k = 0; k < perPart; ++k) {
            const std::string slice = std::to_string(j * perPart + k);
            L2Slice& l2 = *l2_[j * perPart + k];
            link("l2." + part + ".router->slice" + slice, *router.sliceSide[k], l2.nocSide);
            link("slice" + slice + "->l2." + part + ".arbiter", l2.memSide, *arbiter.sliceSide[k]);
        }
        link("l2." + part + "->mem", arbiter.memSide, mem_[j]->target());
    }
    std::vector<SmCore*> raw;
    for (auto& sm : sms_) raw.push_back(sm.get());
    dispatcher_ = std::make_unique<CtaDispatcher>(raw, workload, stats);
    dispatcher_->checkFits();
    core_.add(dispatcher_.get());
    supervisor_ = std::make_unique<Supervisor>(*this, static_cast<uint64_t>(cfg.getInt("sim.watchdog_cycles")),
                                               static_cast<uint64_t>(cfg.getInt("sim.progress_interval_cycles")));
    core_.add(supervisor_.get());
}

Gpu::~Gpu() = default;

RunResult Gpu::run(const RunOptions& opt) {
    supervisor_->maxCycles_ = opt.maxCycles;
    supervisor_->showProgress_ = opt.progress;
    supervisor_->start_ = std::chrono::steady_clock::now();
    core_.wake();
    sc_core::sc_start();
    RunResult r;
    r.hostSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - supervisor_->start_).count();
    if (supervisor_->printed_) std::fprintf(stderr, "\n");
    // Edges are numbered from time 0, so the last edge's index is the number of cycles simulated.
    r.cycles = supervisor_->last_;
    r.truncated = supervisor_->truncated_;
    for (const auto& sm : sms_) r.instructions += sm->issued();
    stats_.counter("gpu.cycles", "Core cycles simulated").inc(r.cycles);
    stats_.counter("gpu.warp_instructions", "Warp instructions issued, all SMs").inc(r.instructions);
    if (supervisor_->stalled_)
        throw ModelError("watchdog: no progress for " + std::to_string(cfg_.getInt("sim.watchdog_cycles")) +
                         " core cycles at cycle " + std::to_string(supervisor_->last_) +
                         " (raise sim.watchdog_cycles if this is legitimate)\n" + dumpState());
    if (!supervisor_->finished_ && !r.truncated)
        throw ModelError("simulation ended before the workload finished (no pending activity)\n" + dumpState());
    if (supervisor_->finished_) checkInvariants();
    return r;
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
