#include "memory/DramController.hpp"

#include <algorithm>
#include <sstream>

#include "common/GpuExtension.hpp"
#include "common/SimError.hpp"
#include "common/SimTime.hpp"
#include "common/Stats.hpp"

namespace gpusim {

namespace {
// Every controller statistic lives under "mem<index>.".
std::string statName(unsigned index, const char* suffix) { return "mem" + std::to_string(index) + suffix; }
// Latency histograms in DRAM cycles: an unloaded row hit is ~16 cycles, a conflict ~40; buckets
// of 4 over 1024 cycles resolve both, the overflow bin and exact min/max cover queueing tails.
constexpr double kBucketCycles = 4;
constexpr unsigned kBuckets = 256;
} // namespace

DramController::DramController(sc_core::sc_module_name name, const DramControllerParams& params, StatRegistry& stats,
                               ClockDomain& clock, const AddressMap& map, unsigned index)
    : sc_module(name),
      socket("socket"),
      clock_(clock),
      map_(map),
      index_(index),
      timing_(params.timing),
      queueCap_(params.queueSize),
      frontendLatency_(params.frontendLatency),
      scheduler_(params.scheduler),
      checker_(timing_, map.dramGeometry().banks),
      banks_(map.dramGeometry().banks),
      stats_(stats),
      prefetchParams_(params.owl),
      masks_(map.dramGeometry().banks, params.queueSize),
      outstandingPerBank_(map.dramGeometry().banks, 0),
      reads_(stats.counter(statName(index, ".reads"), "Read requests served")),
      writes_(stats.counter(statName(index, ".writes"), "Write requests (L2 write-backs) served")),
      rowHits_(stats.counter(statName(index, ".row_hits"),
                             "Requests served from a row already open (no ACT or PRE for them)")),
      rowMisses_(stats.counter(statName(index, ".row_misses"),
                               "Requests that needed an ACT of a precharged bank")),
      rowConflicts_(stats.counter(statName(index, ".row_conflicts"),
                                  "Requests that needed a PRE of another open row, then an ACT")),
      cmdAct_(stats.counter(statName(index, ".cmd_act"), "ACT commands issued")),
      cmdPre_(stats.counter(statName(index, ".cmd_pre"), "PRE commands issued")),
      cmdRd_(stats.counter(statName(index, ".cmd_rd"), "RD commands issued (one per burst)")),
      cmdWr_(stats.counter(statName(index, ".cmd_wr"), "WR commands issued (one per burst)")),
      queueFullCycles_(stats.counter(statName(index, ".queue_full_cycles"),
                                     "DRAM cycles a request waited for END_REQ (queue full)")),
      rowHitRate_(stats.average(statName(index, ".row_hit_rate"),
                                "Row-buffer hit rate: mean over requests of 1 for a row hit, 0 otherwise")),
      busUtil_(stats.average(statName(index, ".bus_utilisation"),
                             "Data-bus utilisation: mean over DRAM cycles with a request outstanding "
                             "of 1 when data is on the bus (sum: busy cycles, count: active cycles)")),
      bankParallelism_(stats.average(statName(index, ".bank_parallelism"),
                                     "Bank-level parallelism: mean number of banks with a request "
                                     "outstanding, over cycles where at least one has")),
      latency_(stats.histogram(statName(index, ".latency"),
                               "DRAM cycles from a request's arrival to its answer", kBucketCycles, kBuckets)),
      readQueueLat_(stats.histogram(statName(index, ".read_queue_latency"),
                                    "Reads: DRAM cycles from arrival to the first command issued for them",
                                    kBucketCycles, kBuckets)),
      readServiceLat_(stats.histogram(statName(index, ".read_service_latency"),
                                      "Reads: DRAM cycles from their first command to the answer",
                                      kBucketCycles, kBuckets)),
      writeQueueLat_(stats.histogram(statName(index, ".write_queue_latency"),
                                     "Writes: DRAM cycles from arrival to the first command issued for them",
                                     kBucketCycles, kBuckets)),
      writeServiceLat_(stats.histogram(statName(index, ".write_service_latency"),
                                       "Writes: DRAM cycles from their first command to the answer",
                                       kBucketCycles, kBuckets)) {
    socket.register_nb_transport_fw(this, &DramController::nbTransportFw);
    port_.bind("l2." + std::to_string(index) + "->mem", BwPeerFn([this] { return socket.operator->(); }),
               [this](Payload& p) { return take(p); },
               // The next answer may have been waiting for this one's END_RESP.
               [this] { clock_.wake(); });
    queue_.reserve(queueCap_);
    clock.add(this);
}

tlm::tlm_sync_enum DramController::nbTransportFw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    return port_.nbTransportFw(p, ph, t);
}

bool DramController::take(Payload& p) {
    if (queue_.size() >= queueCap_) return false;  // END_REQ withheld until a request leaves
    const uint64_t addr = p.get_address();
    if (map_.partition(addr) != index_) {
        std::ostringstream os;
        os << name() << ": request for 0x" << std::hex << addr << std::dec << " belongs to partition "
           << map_.partition(addr);
        throw ModelError(os.str());
    }
    DramRequest r;
    r.seq = nextSeq_++;
    r.payload = &p;
    r.write = p.is_write();
    r.coord = map_.dram(addr);
    const GpuExtension* ext = findGpuExt(p);
    const uint64_t bytes = ext && ext->bytes ? ext->bytes : p.get_data_length();
    const uint64_t burst = timing_.burstBytes();
    r.burstsLeft = static_cast<unsigned>(std::max<uint64_t>(1, (bytes + burst - 1) / burst));
    r.nextColumn = r.coord.column;
    const uint64_t now = simNow();
    r.acceptPs = now;
    r.eligibleCycle = now / clock_.period().value() + 1 + frontendLatency_;
    if (outstandingPerBank_[r.coord.bank]++ == 0) ++busyBanks_;
    queue_.push_back(r);
    if (masks_.enabled()) masks_.pushed(queue_.size() - 1, r, banks_[r.coord.bank]);
    quietUntil_ = 0;
    clock_.wake();
    return true;
}

void DramController::enablePrefetch(unsigned lineBytes, PrefetchFill fill) {
    prefetch_ = std::make_unique<OwlPrefetcher>(prefetchParams_, map_, index_, lineBytes, timing_.burstBytes(),
                                                stats_, statName(index_, "."));
    prefetchFill_ = std::move(fill);
}

void DramController::tick(uint64_t cycle) {
    if (port_.hasHeldRequest()) queueFullCycles_.inc();
    // Most edges have no answer due: the test here, not behind a call (issue 19).
    if (!completions_.empty() && completions_.top().doneCycle <= cycle) sendAnswers(cycle);
    if (prefetch_) prefetch_->deliver(cycle, prefetchFill_);
    sample(cycle);
    if (prefetch_) {
        tickPrefetch(scheduler_.pick(queue_, banks_, checker_, cycle), cycle);
        return;
    }
    if (cycle < quietUntil_) return;
    const auto d = masks_.enabled() ? scheduler_.pick(queue_, masks_, banks_, checker_, cycle, &quietUntil_)
                                    : scheduler_.pick(queue_, banks_, checker_, cycle, &quietUntil_);
    if (d) issue(*d, cycle);
}

void DramController::tickPrefetch(std::optional<DramScheduler::Decision> d, uint64_t cycle) {
    prefetch_->update(queue_);
    if (d && d->cmd == DramCmd::Pre && prefetch_->holds(queue_[d->index].coord.bank)) {
        prefetch_->heldPre();
        // The scheduler again, without the requests that would close a held row.
        unheld_.clear();
        unheldIndex_.clear();
        for (size_t i = 0; i < queue_.size(); ++i) {
            const DramRequest& r = queue_[i];
            const DramBank& b = banks_[r.coord.bank];
            if (b.rowOpen() && b.openRow() != r.coord.row && prefetch_->holds(r.coord.bank)) continue;
            unheld_.push_back(r);
            unheldIndex_.push_back(i);
        }
        d = scheduler_.pick(unheld_, banks_, checker_, cycle);
        if (d) d->index = unheldIndex_[d->index];
    }
    if (d) {
        issue(*d, cycle);
        return;
    }
    if (const auto b = prefetch_->pick(checker_, cycle)) issuePrefetch(*b, cycle);
}

void DramController::issuePrefetch(const OwlPrefetcher::Burst& b, uint64_t cycle) {
    checker_.record(DramCmd::Rd, b.bank, cycle);  // throws if the prefetcher broke a constraint
    const uint64_t end = checker_.dataEnd(DramCmd::Rd, cycle);
    bursts_.emplace_back(end - timing_.burstCycles(), end);
    cmdRd_.inc();
    log_.add({cycle, DramCmd::Rd, b.bank, b.row, b.column, kPrefetchRequest});
    prefetch_->issued(b, end);
}

void DramController::sendAnswers(uint64_t cycle) {
    while (!completions_.empty() && completions_.top().doneCycle <= cycle && port_.canRespond()) {
        const Completion c = completions_.top().c;
        completions_.pop();
        if (--outstandingPerBank_[c.bank] == 0) --busyBanks_;
        const uint64_t now = simNow();
        const double period = double(clock_.period().value());
        const double firstPs = double(c.firstCmdCycle) * period;
        latency_.sample(double(now - c.acceptPs) / period);
        (c.write ? writeQueueLat_ : readQueueLat_).sample((firstPs - double(c.acceptPs)) / period);
        (c.write ? writeServiceLat_ : readServiceLat_).sample((double(now) - firstPs) / period);
        (c.write ? writes_ : reads_).inc();
        c.payload->set_response_status(tlm::TLM_OK_RESPONSE);
        port_.respond(*c.payload);
    }
}

void DramController::sample(uint64_t cycle) {
    // Counted as requests come and go: a loop over the banks every DRAM cycle cost 0.75 % of a
    // streaming run (issue 19).
    if (busyBanks_ == 0) return;
    bankParallelism_.sampleLevel(busyBanks_);
    while (!bursts_.empty() && bursts_.front().second <= cycle) bursts_.pop_front();
    const bool dataOnBus = !bursts_.empty() && bursts_.front().first <= cycle;
    busUtil_.sampleLevel(dataOnBus ? 1 : 0);
}

void DramController::issue(const DramScheduler::Decision& d, uint64_t cycle) {
    DramRequest& r = queue_[d.index];
    DramBank& bank = banks_[r.coord.bank];
    checker_.record(d.cmd, r.coord.bank, cycle);  // throws if the scheduler broke a constraint
    if (!r.started) {
        r.started = true;
        r.firstCmdCycle = cycle;
    }
    DramCommandRecord rec{cycle, d.cmd, r.coord.bank, r.coord.row, 0, r.seq};
    switch (d.cmd) {
    case DramCmd::Act:
        if (r.outcome != DramRequest::Outcome::Conflict) r.outcome = DramRequest::Outcome::Miss;
        bank.activate(r.coord.row, cycle);
        if (masks_.enabled()) masks_.activated(r.coord.bank, r.coord.row, queue_);
        if (prefetch_) prefetch_->activated(r.coord.bank, r.coord.row);
        cmdAct_.inc();
        break;
    case DramCmd::Pre:
        r.outcome = DramRequest::Outcome::Conflict;
        rec.row = bank.openRow();
        if (hook_ != &noHook_)  // the no-op default costs no copy
            hook_->rowClosing(RowClosing{index_, r.coord.bank, bank.openRow(), cycle, bank.activatedAt(),
                                         bank.readAddrs(), bank.writes()});
        bank.precharge(cycle);
        if (masks_.enabled()) masks_.precharged(r.coord.bank);
        if (prefetch_) prefetch_->precharged(r.coord.bank);
        cmdPre_.inc();
        break;
    case DramCmd::Rd:
    case DramCmd::Wr: {
        rec.column = r.nextColumn;
        r.nextColumn += timing_.burstBytes();
        if (prefetch_) prefetch_->demandColumn(r.coord.bank, rec.column);
        const uint64_t end = checker_.dataEnd(d.cmd, cycle);
        bursts_.emplace_back(end - timing_.burstCycles(), end);
        (d.cmd == DramCmd::Rd ? cmdRd_ : cmdWr_).inc();
        if (--r.burstsLeft == 0) {
            bank.column(r.write, r.payload->get_address());
            log_.add(rec);
            finish(d.index, d.cmd, cycle);
            return;
        }
        break;
    }
    }
    log_.add(rec);
}

void DramController::finish(size_t index, DramCmd cmd, uint64_t cycle) {
    const DramRequest r = queue_[index];
    switch (r.outcome) {
    case DramRequest::Outcome::Hit: rowHits_.inc(); break;
    case DramRequest::Outcome::Miss: rowMisses_.inc(); break;
    case DramRequest::Outcome::Conflict: rowConflicts_.inc(); break;
    }
    rowHitRate_.sample(r.outcome == DramRequest::Outcome::Hit ? 1.0 : 0.0);
    completions_.push({checker_.dataEnd(cmd, cycle), r.seq,
                       Completion{r.payload, r.write, r.coord.bank, r.acceptPs, r.firstCmdCycle}});
    queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(index));
    if (masks_.enabled()) masks_.erased(index);
    port_.retryHeldRequest();  // a slot is free: the held request (if any) gets its END_REQ
}

bool DramController::busy() const {
    // Blocked only on END_RESP: its callback wakes the domain.
    return !queue_.empty() || (!completions_.empty() && port_.canRespond()) || port_.hasHeldRequest() ||
           (prefetch_ && prefetch_->busy());
}

bool DramController::quiescent() const {
    return queue_.empty() && completions_.empty() && port_.canRespond() && !port_.hasHeldRequest() &&
           !port_.hasQueuedPhase() && !(prefetch_ && prefetch_->busy());
}

std::string DramController::dumpState() const {
    std::ostringstream os;
    os << queue_.size() + completions_.size() << " pending (" << queue_.size() << "/" << queueCap_
       << " queued, " << completions_.size() << " answering)";
    if (port_.hasHeldRequest()) os << ", a request awaits END_REQ";
    if (!port_.canRespond()) os << ", an answer awaits END_RESP";
    if (!queue_.empty()) {
        const DramRequest& r = queue_.front();
        os << "; oldest 0x" << std::hex << r.payload->get_address() << std::dec << " bank " << r.coord.bank
           << " row " << r.coord.row;
    }
    os << "; open rows:";
    bool any = false;
    for (size_t b = 0; b < banks_.size(); ++b)
        if (banks_[b].rowOpen()) {
            os << " b" << b << "=" << banks_[b].openRow();
            any = true;
        }
    if (!any) os << " none";
    if (prefetch_) os << "; " << prefetch_->dumpState();
    return os.str();
}

} // namespace gpusim
