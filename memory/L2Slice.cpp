#include "memory/L2Slice.hpp"

#include <algorithm>
#include <bit>
#include <sstream>

#include "common/AddressMap.hpp"
#include "common/PayloadPool.hpp"
#include "common/SimError.hpp"
#include "common/SimTime.hpp"
#include "common/Stats.hpp"
#include "memory/WritebackPieces.hpp"

namespace gpusim {

namespace {
// Every statistic of slice `index` lives under "l2.slice<index>.".
std::string sliceStat(unsigned index, const char* name) { return "l2.slice" + std::to_string(index) + "." + name; }


// Request ids of L2-originated traffic: the top bit marks "from an L2", the slice index sits
// below it, and a per-slice counter fills the rest, so ids never collide with SM ids (which
// count up from zero) nor between slices.
constexpr unsigned kIdSliceShift = 48;
constexpr uint64_t kIdL2Tag = uint64_t(1) << 63;
constexpr uint64_t kIdCounterMask = (uint64_t(1) << kIdSliceShift) - 1;

// Latency histogram in L2 cycles: a hit lands in the first buckets, misses further out; the
// overflow bin and exact min/max cover the tail.
constexpr double kL2LatencyBucketCycles = 8;
constexpr unsigned kL2LatencyBuckets = 128;

// A state dump lists this many of the requests memory has not answered, oldest first.
constexpr size_t kL2DumpedMemoryRequests = 8;

} // namespace

L2Slice::L2Slice(sc_core::sc_module_name name, const L2SliceParams& params, StatRegistry& stats,
                 ClockDomain& clock, PayloadPool& pool, const AddressMap& map, unsigned index)
    : sc_module(name),
      nocSide("nocSide"),
      memSide("memSide"),
      map_(map),
      clock_(clock),
      pool_(pool),
      index_(index),
      slicesPerPartition_(params.slicesPerPartition),
      partition_(index / slicesPerPartition_),
      sub_(index % slicesPerPartition_),
      lineBytes_(params.lineBytes),
      lineShift_(static_cast<unsigned>(std::countr_zero(lineBytes_))),
      unitBytes_(params.sectorBytes ? params.sectorBytes : params.lineBytes),
      tagLatency_(params.tagLatencyCycles),
      inputCap_(params.inputQueue),
      responseCap_(params.responseQueue),
      missCap_(params.missQueue),
      tags_(params.sets(), params.ways, params.sectorsPerLine()),
      mshr_(params.mshrEntries, params.mshrMaxMerge),
      atomicCycles_(params.atomicCycles),
      stats_(stats),
      prefetchCap_(params.prefetchQueue),
      accesses_(stats.counter(sliceStat(index, "accesses"),
                              "Requests looked up (each once, however long it stalled)")),
      readHits_(stats.counter(sliceStat(index, "read_hits"), "Read hits")),
      readMisses_(stats.counter(sliceStat(index, "read_misses"),
                                "Read misses, MSHR merges included")),
      writeHits_(stats.counter(sliceStat(index, "write_hits"), "Write hits")),
      instReadHits_(stats.counter(sliceStat(index, "inst_read_hits"),
                                  "Instruction-line read hits (SMs' L1I misses; not in read_hits)")),
      instReadMisses_(stats.counter(sliceStat(index, "inst_read_misses"),
                                    "Instruction-line read misses, merges included (not in read_misses)")),
      writeMisses_(stats.counter(sliceStat(index, "write_misses"),
                                 "Write misses (allocated without fetch, or merged into a read "
                                 "miss in flight)")),
      mshrMerges_(stats.counter(sliceStat(index, "mshr_merges"),
                                "Misses merged into an MSHR entry already in flight")),
      writeMerges_(stats.counter(sliceStat(index, "write_merges"),
                                 "Writes merged into a read miss in flight (also in mshr_merges and "
                                 "write_misses); read_misses - (mshr_merges - write_merges) line reads "
                                 "went to memory")),
      mshrStallCycles_(stats.counter(sliceStat(index, "mshr_stall_cycles"),
                                     "Cycles the lookup stalled for a free MSHR entry or merge "
                                     "slot")),
      pipeStallCycles_(stats.counter(sliceStat(index, "pipe_stall_cycles"),
                                     "Cycles the tag pipeline was frozen by a full response or "
                                     "miss queue")),
      fillStallCycles_(stats.counter(sliceStat(index, "fill_stall_cycles"),
                                     "Cycles a fill waited for miss-queue room for its dirty "
                                     "victim")),
      writebacks_(stats.counter(sliceStat(index, "writebacks"),
                                "Dirty lines written back to memory")),
      writebackWrites_(stats.counter(sliceStat(index, "writeback_writes"),
                                     "Memory writes of those write-backs: each run of dirty sectors in aligned "
                                     "power-of-two pieces (one per write-back when unsectored)")),
      inputFullCycles_(stats.counter(sliceStat(index, "input_full_cycles"),
                                     "Cycles a NoC request waited for END_REQ (input queue full)")),
      atomics_(stats.counter(sliceStat(index, "atomics"),
                             "Global atomic line requests looked up (not in the read or write counts)")),
      atomicLanes_(stats.counter(sliceStat(index, "atomic_lanes"),
                                 "Lane updates those requests carried")),
      atomicHits_(stats.counter(sliceStat(index, "atomic_hits"),
                                "Atomic requests that found their line")),
      atomicMisses_(stats.counter(sliceStat(index, "atomic_misses"),
                                  "Atomic requests that waited for their line from memory, MSHR merges "
                                  "included")),
      atomicSerialiseCycles_(stats.counter(sliceStat(index, "atomic_serialise_cycles"),
                                           "Cycles the read-modify-write unit's next request waited for an "
                                           "earlier atomic of its line")),
      atomicBusyCycles_(stats.counter(sliceStat(index, "atomic_busy_cycles"),
                                      "Cycles with at least one atomic in the read-modify-write unit")),
      latency_(stats.histogram(sliceStat(index, "latency"),
                               "L2 cycles from accepting a request to sending its answer",
                               kL2LatencyBucketCycles, kL2LatencyBuckets)) {
    nocSide.register_nb_transport_fw(this, &L2Slice::nocFw);
    memSide.register_nb_transport_bw(this, &L2Slice::memBw);
    // The platform's link names (platforms/Gpu.cpp), so an error names the link a user hooks.
    const std::string part = std::to_string(partition_), self = std::to_string(index_);
    const bool singleSlice = slicesPerPartition_ == 1;
    nocPort_.bind(singleSlice ? "noc->l2." + part : "l2." + part + ".router->slice" + self,
                  BwPeerFn([this] { return nocSide.operator->(); }),
                  [this](Payload& p) { return takeFromNoc(p); },
                  // The next answer may have been waiting for this one's END_RESP.
                  [this] { clock_.wake(); });
    memPort_.bind(singleSlice ? "l2." + part + "->mem" : "slice" + self + "->l2." + part + ".arbiter",
                  FwPeerFn([this] { return memSide.operator->(); }),
                  [this](Payload& p) { return takeFromMemory(p); },
                  // The next miss may have been waiting for this one's END_REQ.
                  [this] { clock_.wake(); });
    clock.add(this);
}

tlm::tlm_sync_enum L2Slice::nocFw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    return nocPort_.nbTransportFw(p, ph, t);
}

tlm::tlm_sync_enum L2Slice::memBw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    return memPort_.nbTransportBw(p, ph, t);
}

unsigned L2Slice::setOf(uint64_t addr) const {
    // Sets come from the partition-local address: the global address's low chunk bits select
    // the partition and would leave most sets of a slice unused.
    return static_cast<unsigned>((map_.subLocalAddress(addr, slicesPerPartition_) >> lineShift_) &
                                 (tags_.sets() - 1));
}

uint64_t L2Slice::eligibleAfterNow() const {
    // The first edge strictly after now (as ClockDomain::wake), so what arrives on an edge is
    // handled on the next one whatever order the kernel ran the processes of that instant in.
    return simNow() / clock_.period().value() + 1;
}

bool L2Slice::takeFromNoc(Payload& p) {
    if (input_.size() >= inputCap_) return false;
    const unsigned part = map_.partition(p.get_address());
    const unsigned sub = map_.subPartition(p.get_address(), slicesPerPartition_);
    if (part != partition_ || sub != sub_) {
        std::ostringstream os;
        os << name() << ": request for 0x" << std::hex << p.get_address() << std::dec
           << " belongs to partition " << part;
        if (slicesPerPartition_ > 1) os << " slice " << sub;
        throw ModelError(os.str());
    }
    const uint64_t now = simNow();
    const uint64_t units = requestUnits(p);
    if (const int n = std::popcount(units); n > 1) pending_.emplace(&p, Pending{static_cast<unsigned>(n), true});
    input_.push_back({&p, now, eligibleAfterNow(), units});
    clock_.wake();
    return true;
}

uint64_t L2Slice::requestUnits(const Payload& p) const {
    const uint64_t full = tags_.fullMask();
    if (full == 1) return 1;
    const GpuExtension& e = gpuExt(const_cast<Payload&>(p));
    const uint64_t offset = p.get_address() - lineOf(p.get_address());
    uint64_t units = 0;
    if ((e.kind != AccessKind::Read || e.atomic) && e.chunks != 0) {
        // The store's (or atomic's) 32-byte chunks, grouped into sectors.
        const uint64_t perUnit = unitBytes_ / kChunkBytes;
        for (uint64_t c = 0; c < 32; ++c)
            if (e.chunks >> c & 1u) units |= uint64_t(1) << ((offset / kChunkBytes + c) / perUnit);
    } else {
        // The byte range: a line read from an L1D covers every sector.
        const uint64_t bytes = std::max<uint64_t>(1, e.bytes ? e.bytes : p.get_data_length());
        const uint64_t last = std::min<uint64_t>(offset + bytes, lineBytes_) - 1;
        for (uint64_t u = offset / unitBytes_; u <= last / unitBytes_; ++u) units |= uint64_t(1) << u;
    }
    return units & full;
}

bool L2Slice::takeFromMemory(Payload& p) {
    if (p.is_response_error()) {
        // Name who waits for the line: the SMs' requests merged into its MSHR entry.
        std::ostringstream os;
        os << name() << ": memory (" << memPort_.link() << ") answered " << describeTransaction(p) << " with "
           << p.get_response_string();
        if (gpuExt(p).kind == AccessKind::Writeback) {
            os << "; a write-back of a dirty line, no warp waits for it";
        } else {
            os << "; waiting for the line:";
            const std::vector<L2Mshr::Target>& waiting = mshr_.waiting(unitOf(p.get_address()));
            if (waiting.empty()) os << " none";
            const char* sep = " ";
            for (const L2Mshr::Target& t : waiting) {
                const GpuExtension& e = gpuExt(*t.payload);
                os << sep << "sm" << e.smId << " warp " << e.warpId << " (" << accessKindName(e.kind) << " 0x"
                   << std::hex << t.payload->get_address() << std::dec << ", request " << e.requestId << ", pc 0x"
                   << std::hex << e.pc << std::dec << ")";
                sep = "; ";
            }
        }
        throw ModelError(os.str());
    }
    if (gpuExt(p).kind == AccessKind::Writeback) {
        p.release();  // nothing waits for a write-back's answer
        return true;
    }
    // Bounded by l2.mshr_entries (one line read per entry), so never refused.
    fills_.push_back({&p, eligibleAfterNow()});
    clock_.wake();
    return true;
}

Payload* L2Slice::memoryRequest(uint64_t addr, AccessKind kind, uint64_t bytes) {
    Payload& p = pool_.allocate();
    p.set_command(kind == AccessKind::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    p.set_address(addr);  // global address: a controller applies the address map itself
    const unsigned len = std::min<unsigned>(static_cast<unsigned>(bytes), p.get_data_length());
    p.set_data_length(len);
    p.set_streaming_width(len);
    GpuExtension& e = gpuExt(p);
    e.requestId = kIdL2Tag | (uint64_t(index_) << kIdSliceShift) | (nextId_++ & kIdCounterMask);
    e.smId = -1;
    e.kind = kind;
    e.partition = static_cast<int>(partition_);
    e.bytes = static_cast<uint32_t>(bytes);
    e.issueTime = simNow();
    return &p;
}

void L2Slice::writeback(const L2TagArray::Victim& out) {
    // Exactly the dirty bytes, each piece a contiguous aligned power-of-two write (no byte enables:
    // a memory that ignores them would overwrite the clean sectors; docs/cosimulation.md).
    writebacks_.inc();
    pieces_.clear();
    forEachWritebackPiece(out.dirtySectors, [&](unsigned first, unsigned sectors) {
        pieces_.push_back(memoryRequest(out.line + first * unitBytes_, AccessKind::Writeback, sectors * unitBytes_));
    });
    writebackWrites_.inc(pieces_.size());
}

void L2Slice::queueToMemory(Payload* first, unsigned morePieces) {
    misses_.push_back({first, morePieces == 0});
    for (unsigned i = 1; i <= morePieces; ++i) {
        misses_.push_back({pipePieces_.front(), i == morePieces});
        pipePieces_.pop_front();
    }
    ++missEntries_;
}

void L2Slice::queueWriteback() {
    for (size_t i = 0; i < pieces_.size(); ++i) misses_.push_back({pieces_[i], i + 1 == pieces_.size()});
    ++missEntries_;
}

bool L2Slice::wouldComplete(Payload* p) const {
    if (pending_.empty()) return true;
    const auto it = pending_.find(p);
    return it == pending_.end() || it->second.remaining == 1;
}

std::optional<L2Slice::Answer> L2Slice::resolve(Payload* p, uint64_t acceptPs, bool hit) {
    if (pending_.empty()) return Answer{p, acceptPs, hit};
    const auto it = pending_.find(p);
    if (it == pending_.end()) return Answer{p, acceptPs, hit};
    Pending& q = it->second;
    q.allHit = q.allHit && hit;
    if (--q.remaining != 0) return std::nullopt;
    const Answer a{p, acceptPs, q.allHit};
    pending_.erase(it);
    return a;
}

void L2Slice::tick(uint64_t cycle) {
    // Counted before the lookup can free a slot: a cycle in which an upstream request waited.
    if (nocPort_.hasHeldRequest()) inputFullCycles_.inc();
    // The stages below whose queues are all empty would do nothing: not called (most ticks of a
    // slice find no fill and no atomic; issue 19).
    if (!fills_.empty() || !prefetchFills_.empty()) installFill(cycle);
    // Before the pipeline: older requests first, and no starvation by hits.
    if (!fillAnswers_.empty()) forwardFillAnswer();
    const bool frozen = !pipe_.empty() && !advancePipe();
    // After the pipeline: an atomic whose tag latency ends now starts now.
    if (!rmwUnit_.empty() || !rmwQueue_.empty() || !rmwDone_.empty()) stepRmw(cycle);
    if (frozen)
        pipeStallCycles_.inc();
    else if (!input_.empty())
        lookup(cycle);
    if (!misses_.empty()) sendToMemory();
    // The port's test here: most ticks with answers queued find the NoC's END_RESP still
    // outstanding, and the call cost more than the test (issue 19).
    if (!responses_.empty() && nocPort_.canRespond()) sendResponse();
    if (!frozen) ++pipeStep_;
}

void L2Slice::enablePrefetchFills() {
    if (pfFills_) return;
    if (tags_.fullMask() != 1)
        throw InputError(std::string(name()) + ": OWL's prefetch (dram.prefetch = owl, or --scheduler owl) needs an "
                                               "unsectored L2: set l2.sector_bytes = 0");
    const std::string p = "l2.slice" + std::to_string(index_) + ".prefetch_";
    pfFills_ = &stats_.counter(p + "fills", "Prefetched lines installed (OWL prefetch)");
    pfUseful_ = &stats_.counter(p + "useful", "Demand read hits on a prefetched line (the first per installation)");
    pfRedundant_ = &stats_.counter(p + "redundant", "Prefetched lines dropped: already resident or in flight");
    pfRedundantInFlight_ = &stats_.counter(p + "redundant_in_flight",
                                           "Of prefetch_redundant: a demand read miss of the line was in flight "
                                           "(MSHR entry), not resident");
    pfDropped_ = &stats_.counter(p + "dropped", "Prefetched lines dropped: l2.prefetch_queue full");
    pfUnused_ = &stats_.counter(p + "unused_evicted", "Prefetched lines evicted before any demand hit");
}

void L2Slice::prefetchFill(uint64_t lineAddr) {
    if (!pfFills_) throw ModelError(std::string(name()) + ": prefetch fill without enablePrefetchFills()");
    if (map_.partition(lineAddr) != partition_ || map_.subPartition(lineAddr, slicesPerPartition_) != sub_) {
        std::ostringstream os;
        os << name() << ": prefetched line 0x" << std::hex << lineAddr << std::dec << " belongs to another slice";
        throw ModelError(os.str());
    }
    const uint64_t now = simNow();
    const size_t occupancy = prefetchFills_.size() + (lastPrefetchPopPs_ == now ? 1 : 0);
    if (occupancy >= prefetchCap_) {
        pfDropped_->inc();
        return;
    }
    prefetchFills_.push_back({lineOf(lineAddr), eligibleAfterNow()});
    clock_.wake();
}

void L2Slice::forgetPrefetched(const L2TagArray::Victim& out) {
    if (!out.valid || prefetched_.empty()) return;
    if (prefetched_.erase(out.line)) pfUnused_->inc();
}

void L2Slice::installPrefetch(uint64_t cycle) {
    if (prefetchFills_.empty() || prefetchFills_.front().eligibleCycle > cycle) return;
    const uint64_t line = prefetchFills_.front().line;
    const unsigned set = setOf(line);
    const bool redundant = tags_.find(set, line).has_value() || mshr_.inFlight(line);
    if (!redundant && missEntries_ >= missCap_ && tags_.victim(set).dirty) {
        fillStallCycles_.inc();
        return;
    }
    prefetchFills_.pop_front();
    lastPrefetchPopPs_ = simNow();
    if (redundant) {
        pfRedundant_->inc();
        if (mshr_.inFlight(line)) pfRedundantInFlight_->inc();
        return;
    }
    const L2TagArray::Victim out = tags_.install(set, line, false);
    if (out.dirty) {
        writeback(out);
        queueWriteback();
    }
    forgetPrefetched(out);
    prefetched_.insert(line);
    pfFills_->inc();
}

void L2Slice::installFill(uint64_t cycle) {
    // A demand fill first; the fill slot goes to a prefetched line only when none is ready.
    if (fills_.empty() || fills_.front().eligibleCycle > cycle) {
        installPrefetch(cycle);
        return;
    }
    Payload* p = fills_.front().payload;
    const uint64_t unit = p->get_address();
    const uint64_t line = lineOf(unit);
    const unsigned set = setOf(line);
    const auto way = tags_.find(set, line);  // sectored: another sector may be resident
    // The victim only when the miss queue is full (its write-back could not be queued).
    if (!way && missEntries_ >= missCap_ && tags_.victim(set).dirty) {
        fillStallCycles_.inc();
        return;
    }
    fills_.pop_front();
    std::vector<L2Mshr::Target>& targets = completed_;
    mshr_.complete(unit, targets);
    const bool dirty = std::any_of(targets.begin(), targets.end(),
                                   [](const L2Mshr::Target& t) { return t.write; });
    const uint64_t bit = uint64_t(1) << ((unit - line) / unitBytes_);
    if (way) {
        tags_.addSectors(set, *way, bit, dirty ? bit : 0);
        tags_.touch(set, *way);
    } else {
        const L2TagArray::Victim out = tags_.install(set, line, bit, dirty ? bit : 0);
        if (out.dirty) {
            writeback(out);
            queueWriteback();
        }
        forgetPrefetched(out);
    }
    p->release();
    for (const L2Mshr::Target& t : targets)
        if (const auto a = resolve(t.payload, t.acceptPs, false)) answered(*a, fillAnswers_);
}

void L2Slice::answered(const Answer& a, RingQueue<Answer>& to) {
    (gpuExt(*a.payload).atomic ? rmwQueue_ : to).push_back(a);
}

void L2Slice::stepRmw(uint64_t cycle) {
    while (!rmwUnit_.empty() && rmwUnit_.front().doneCycle <= cycle) {
        rmwDone_.push_back(rmwUnit_.front().answer);
        rmwUnit_.pop_front();
    }
    if (!rmwQueue_.empty()) {
        const uint64_t line = lineOf(rmwQueue_.front().payload->get_address());
        // At most atomic_cycles requests are in the unit: the scan is short.
        const bool lineBusy = std::any_of(rmwUnit_.begin(), rmwUnit_.end(),
                                          [line](const InRmw& r) { return r.line == line; });
        if (lineBusy) {
            atomicSerialiseCycles_.inc();
        } else {
            rmwUnit_.push_back({rmwQueue_.front(), line, cycle + atomicCycles_});
            rmwQueue_.pop_front();
        }
    }
    if (!rmwUnit_.empty()) atomicBusyCycles_.inc();
    if (!rmwDone_.empty() && responses_.size() < responseCap_) {
        responses_.push_back(rmwDone_.front());
        rmwDone_.pop_front();
    }
}

void L2Slice::forwardFillAnswer() {
    if (fillAnswers_.empty() || responses_.size() >= responseCap_) return;
    responses_.push_back(fillAnswers_.front());
    fillAnswers_.pop_front();
}

bool L2Slice::advancePipe() {
    while (!pipe_.empty() && pipe_.front().exitAt <= pipeStep_) {
        const PipeEntry& e = pipe_.front();
        // An atomic's answer goes to the RMW unit's queue, which has no bound of its own (every
        // request in it was admitted through the input queue).
        const bool toResponses = e.resolves && !e.atomic;
        if (toResponses && responses_.size() >= responseCap_ && wouldComplete(e.resolves)) return false;
        if (e.toMemory && missEntries_ >= missCap_) return false;
        if (e.resolves)
            if (const auto a = resolve(e.resolves, e.acceptPs, e.hit)) answered(*a, responses_);
        if (e.toMemory) queueToMemory(e.toMemory, e.morePieces);
        pipe_.pop_front();
    }
    return true;
}

void L2Slice::lookup(uint64_t cycle) {
    if (input_.empty() || input_.front().eligibleCycle > cycle) return;
    Request& r = input_.front();
    const uint64_t addr = r.payload->get_address();
    const uint64_t line = lineOf(addr);
    const unsigned set = setOf(addr);
    // One sector per cycle, lowest first; unsectored the one "sector" is the line.
    const unsigned index = static_cast<unsigned>(std::countr_zero(r.units));
    const uint64_t bit = uint64_t(1) << index;
    const uint64_t unit = line + index * unitBytes_;
    const GpuExtension& ext = gpuExt(*r.payload);
    // An atomic (ATOM or RED) needs its line like a read and dirties it like a write.
    const bool atomic = ext.atomic;
    const bool write = ext.kind != AccessKind::Read && !atomic;
    const bool dirties = write || atomic;
    // Instruction-line reads are counted apart: read_hits/read_misses are the data reads.
    const bool inst = ext.instruction;
    Counter& missCounter = atomic ? atomicMisses_ : inst ? instReadMisses_ : readMisses_;
    const uint64_t exitAt = pipeStep_ + tagLatency_;

    const auto way = tags_.find(set, line);
    if (way && (tags_.validSectors(set, *way) & bit)) {
        tags_.touch(set, *way);
        if (dirties) tags_.addSectors(set, *way, 0, bit);
        if (!prefetched_.empty() && prefetched_.erase(line) && !write) pfUseful_->inc();
        (atomic ? atomicHits_ : write ? writeHits_ : inst ? instReadHits_ : readHits_).inc();
        pipe_.push_back({exitAt, r.payload, r.acceptPs, true, atomic, 0, nullptr});
    } else if (!write || mshr_.inFlight(unit)) {
        switch (mshr_.probe(unit)) {
        case L2Mshr::Probe::Merge:
            mshr_.merge(unit, {r.payload, r.acceptPs, dirties});
            mshrMerges_.inc();
            if (write) writeMerges_.inc();
            (write ? writeMisses_ : missCounter).inc();
            break;
        case L2Mshr::Probe::Allocate:
            mshr_.allocate(unit, {r.payload, r.acceptPs, dirties});
            missCounter.inc();
            pipe_.push_back({exitAt, nullptr, 0, false, false, 0, memoryRequest(unit, AccessKind::Read, unitBytes_)});
            break;
        case L2Mshr::Probe::MergeFull:
        case L2Mshr::Probe::Full:
            mshrStallCycles_.inc();
            return;  // retried next cycle, still at the head
        }
    } else if (way) {
        // A sectored line without this sector: write-validate the sector alone.
        tags_.touch(set, *way);
        tags_.addSectors(set, *way, 0, bit);
        writeMisses_.inc();
        pipe_.push_back({exitAt, r.payload, r.acceptPs, false, false, 0, nullptr});
    } else {
        // Write-validate: allocate without fetching, since no data is modelled (see header).
        const L2TagArray::Victim out = tags_.install(set, line, bit, bit);
        forgetPrefetched(out);
        Payload* wb = nullptr;
        uint8_t more = 0;
        if (out.dirty) {
            writeback(out);
            wb = pieces_.front();
            more = static_cast<uint8_t>(pieces_.size() - 1);
            for (size_t i = 1; i < pieces_.size(); ++i) pipePieces_.push_back(pieces_[i]);
        }
        writeMisses_.inc();
        pipe_.push_back({exitAt, r.payload, r.acceptPs, false, false, more, wb});
    }
    r.units &= ~bit;
    if (r.units != 0) return;  // the request's next sector next cycle
    accesses_.inc();
    if (atomic) {
        atomics_.inc();
        atomicLanes_.inc(ext.atomicLanes);
    }
    input_.pop_front();
    nocPort_.retryHeldRequest();
}

void L2Slice::sendToMemory() {
    if (misses_.empty() || !memPort_.canSend()) return;
    const ToMemory m = misses_.front();
    misses_.pop_front();
    if (m.endsEntry) --missEntries_;
    memPort_.send(*m.payload);
}

void L2Slice::sendResponse() {
    if (responses_.empty() || !nocPort_.canRespond()) return;
    const Answer a = responses_.front();
    responses_.pop_front();
    a.payload->set_response_status(tlm::TLM_OK_RESPONSE);
    gpuExt(*a.payload).l2Hit = a.hit;
    const uint64_t now = simNow();
    latency_.sample(double(now - a.acceptPs) / double(clock_.period().value()));
    nocPort_.respond(*a.payload);
}

bool L2Slice::busy() const {
    // Waiting only for memory answers, END_REQ or END_RESP needs no edges: those callbacks wake
    // the domain.
    return !input_.empty() || !pipe_.empty() || !fills_.empty() || !fillAnswers_.empty() || !prefetchFills_.empty() ||
           !rmwQueue_.empty() || !rmwUnit_.empty() || !rmwDone_.empty() ||
           (!responses_.empty() && nocPort_.canRespond()) ||
           (!misses_.empty() && memPort_.canSend()) || nocPort_.hasHeldRequest();
}

bool L2Slice::quiescent() const {
    return input_.empty() && pipe_.empty() && fills_.empty() && fillAnswers_.empty() && prefetchFills_.empty() &&
           rmwQueue_.empty() && rmwUnit_.empty() && rmwDone_.empty() &&
           responses_.empty() && misses_.empty() && mshr_.empty() && pending_.empty() && !nocPort_.hasHeldRequest() &&
           !nocPort_.hasQueuedPhase() && nocPort_.canRespond() && memPort_.canSend() && !memPort_.hasHeldResponse() &&
           memPort_.outstanding() == 0;  // write-backs too: nothing waits for them but the memory
}

std::string L2Slice::dumpState() const {
    std::ostringstream os;
    os << "input " << input_.size() << "/" << inputCap_
       << (nocPort_.hasHeldRequest() ? " (+1 held, END_REQ withheld)" : "");
    if (!input_.empty())
        os << " head 0x" << std::hex << input_.front().payload->get_address() << std::dec;
    os << "; tag pipeline " << pipe_.size();
    os << "; responses " << responses_.size() << "/" << responseCap_
       << (nocPort_.canRespond() ? "" : " (one awaits END_RESP)");
    os << "; fill answers " << fillAnswers_.size();
    if (!rmwQueue_.empty() || !rmwUnit_.empty() || !rmwDone_.empty())
        os << "; atomics waiting " << rmwQueue_.size() << ", in the RMW unit " << rmwUnit_.size() << ", done "
           << rmwDone_.size();
    os << "; miss queue " << missEntries_ << "/" << missCap_
       << (memPort_.canSend() ? "" : " (one awaits END_REQ)");
    os << "; fills " << fills_.size();
    if (!prefetchFills_.empty()) os << "; prefetched lines " << prefetchFills_.size() << "/" << prefetchCap_;
    os << "; MSHR " << mshr_.size() << "/" << mshr_.capacity();
    if (!mshr_.empty()) os << " [" << mshr_.describe() << "]";
    os << "; awaiting memory (" << memPort_.link() << ") " << memPort_.outstanding();
    if (memPort_.outstanding()) os << ": " << memPort_.describeOutstanding(kL2DumpedMemoryRequests);
    return os.str();
}

} // namespace gpusim
