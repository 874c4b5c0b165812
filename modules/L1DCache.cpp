#include "modules/L1DCache.hpp"

#include <sstream>

#include "scheduler/SchedulerPolicy.hpp"

namespace gpusim {

L1DCache::L1DCache(const SmConfig& cfg, StatRegistry& stats, const std::string& p)
    : lineBytes_(cfg.l1Line), sets_(cfg.l1Sets()), ways_(cfg.l1Ways), allocation_(cfg.allocation),
      writePolicy_(cfg.writePolicy),
      index_(cfg.setIndexing, cfg.l1Sets(), cfg.l1Line), lines_(size_t(sets_) * ways_),
      mshr_(cfg.mshrEntries, cfg.mshrMaxMerge), missQueueCap_(cfg.missQueue),
      repl_(makeL1Replacement(cfg.replacement, sets_, ways_, stats, p)),
      accesses_(stats.counter(p + "accesses", "L1D accesses (one per coalesced line)")),
      readHits_(stats.counter(p + "read_hits", "Reads that hit a valid line")),
      readHitsIntraWarp_(stats.counter(p + "read_hits_intra_warp",
                                       "Of read_hits: the line was brought in by the reading warp (CCWS Fig. 11)")),
      readHitsIntraThread_(stats.counter(p + "read_hits_intra_thread",
                                         "Of read_hits_intra_warp: a lane re-reads the line it read before, since the "
                                         "owner brought it in (intra-thread locality, CCWS Fig. 11)")),
      readMisses_(stats.counter(p + "read_misses", "Reads that allocated a new MSHR entry")),
      mshrMerges_(stats.counter(p + "mshr_merges", "Reads merged into an in-flight MSHR entry")),
      writes_(stats.counter(p + "writes", "Stores sent to L2 (no allocation)")),
      writeEvicts_(stats.counter(p + "write_evicts", "Valid lines invalidated by a store (l1d.write_policy = evict)")),
      writeHits_(stats.counter(p + "write_hits", "Valid lines a store updated and kept (l1d.write_policy = write-through)")),
      mshrStalls_(stats.counter(p + "mshr_stall_cycles", "Access replays: no MSHR or no merge room")),
      missQueueStalls_(stats.counter(p + "miss_queue_stall_cycles", "Access replays: miss queue full")),
      reservationFails_(stats.counter(p + "reservation_fail_cycles",
                                      "Access replays: every way of the set reserved")),
      fills_(stats.counter(p + "fills", "Lines filled from L2")),
      evictions_(stats.counter(p + "evictions", "Valid lines replaced by a fill or reservation")),
      flushedLines_(stats.counter(p + "flushed_lines", "Valid lines invalidated at kernel ends (l1d.flush_at_kernel_end)")),
      atomics_(stats.counter(p + "atomic_bypasses",
                             "Global atomic line requests passed to L2 without a lookup (not in accesses)")) {}

inline L1DCache::Line* L1DCache::find(uint64_t lineAddr) {
    const unsigned set = index_(lineAddr);
    // The tag first: it rules out almost every way, the state test is for the rare match of an
    // invalidated line's stale tag (issue 19: half the comparisons of a lookup).
    Line* const ways = &lines_[size_t(set) * ways_];
    auto scan = [&](unsigned n) -> Line* {
#pragma GCC unroll 8
        for (unsigned w = 0; w < n; ++w)
            if (ways[w].tag == lineAddr && ways[w].state != State::Invalid) return &ways[w];
        return nullptr;
    };
    // The shipped platforms' associativities with a constant bound, which g++ unrolls: the loop's
    // counter and bound test were half of a lookup's instructions (issue 19).
    switch (ways_) {
    case 4: return scan(4);
    case 8: return scan(8);
    default: return scan(ways_);
    }
}

const L1DCache::Line* L1DCache::find(uint64_t lineAddr) const {
    return const_cast<L1DCache*>(this)->find(lineAddr);
}

L1DCache::Line* L1DCache::victim(unsigned set) {
    Line* const ways = &lines_[size_t(set) * ways_];
    uint64_t candidates = 0;
    auto scan = [&](unsigned n) -> Line* {
#pragma GCC unroll 8
        for (unsigned w = 0; w < n; ++w) {
            Line& l = ways[w];
            if (l.state == State::Reserved) continue;
            if (l.state == State::Invalid) return &l;  // lowest invalid way first
            candidates |= uint64_t(1) << w;
        }
        return nullptr;
    };
    // Unrolled for the shipped associativities, as find().
    Line* const invalid = ways_ == 4 ? scan(4) : ways_ == 8 ? scan(8) : scan(ways_);
    if (invalid) return invalid;
    if (!candidates) return nullptr;
    return &ways[repl_->victim(set, candidates)];
}

void L1DCache::evict(Line& l) {
    if (l.state == State::Valid) {
        evictions_.inc();
        if (observer_) observer_->onL1Evict(l.tag, l.owner);
    }
    l.state = State::Invalid;
}

void L1DCache::notifyAccess(unsigned warp, uint64_t pc, uint64_t line, bool hit, bool merged, bool write,
                            bool predicted) {
    if (observer_) observer_->onL1Access({warp, pc, line, hit, merged, write, predicted});
}

L1Result L1DCache::readAccess(uint64_t line, unsigned warp, uint64_t pc, uint32_t token, uint32_t lanes) {
    Line* l = find(line);
    if (l && l->state == State::Valid) {
        accesses_.inc();
        readHits_.inc();
        // The owner is the warp that brought the line in, as CCWS's lost-locality detector keeps it;
        // a hit by another warp is inter-warp locality, by the owner intra-warp (CCWS Fig. 11).
        if (l->owner == static_cast<int>(warp)) {
            readHitsIntraWarp_.inc();
            // Intra-thread if any lane reads the line again; the CCWS paper splits its
            // intra-wavefront hits this way (a hit serving old and new lanes counts as intra-thread).
            if (lanes & l->ownerLanes) readHitsIntraThread_.inc();
            l->ownerLanes |= lanes;
        }
        const bool predicted = repl_->onHit(setOfSlot(*l), wayOf(*l), pc);
        l->pc = pc;
        notifyAccess(warp, pc, line, true, false, false, predicted);
        return L1Result::Hit;
    }
    if (mshr_.has(line)) {  // reserved line (on-miss) or pending fill (on-fill)
        if (!mshr_.canMerge(line)) {
            mshrStalls_.inc();
            return L1Result::StallMshr;
        }
        accesses_.inc();
        mshrMerges_.inc();
        mshr_.merge(line, token);
        addOwnerLanes(line, warp, lanes);
        notifyAccess(warp, pc, line, false, true, false);
        return L1Result::MissMerged;
    }
    if (mshr_.full()) {
        mshrStalls_.inc();
        return L1Result::StallMshr;
    }
    if (missQueue_.size() >= missQueueCap_) {
        missQueueStalls_.inc();
        return L1Result::StallMissQueue;
    }
    if (allocation_ == L1Allocation::OnMiss) {
        const unsigned set = index_(line);
        Line* v = victim(set);
        if (!v) {
            reservationFails_.inc();
            return L1Result::StallReservation;
        }
        evict(*v);
        *v = Line{line, State::Reserved, static_cast<int>(warp), pc, lanes};
        repl_->onAllocate(set, wayOf(*v), pc);
    } else {
        missOwner_.push_back({line, static_cast<int>(warp), pc, lanes});  // the line has no MSHR entry yet
    }
    accesses_.inc();
    readMisses_.inc();
    mshr_.allocate(line, token);
    missQueue_.push_back({line, false, lineBytes_, warp, pc});
    if (observer_) observer_->onMshrAlloc(line);
    notifyAccess(warp, pc, line, false, false, false);
    return L1Result::MissNew;
}

L1Result L1DCache::writeAccess(uint64_t line, uint32_t bytes, unsigned warp, uint64_t pc, uint32_t chunks) {
    if (missQueue_.size() >= missQueueCap_) {
        missQueueStalls_.inc();
        return L1Result::StallMissQueue;
    }
    accesses_.inc();
    writes_.inc();
    Line* l = find(line);
    const bool hit = l && l->state == State::Valid;
    const bool kept = hit && writePolicy_ == L1WritePolicy::WriteThrough;
    if (kept) {
        writeHits_.inc();
        repl_->onHit(setOfSlot(*l), wayOf(*l), pc);  // an access like a read hit (LRU order)
        l->pc = pc;
    } else if (hit) {
        // Not a replacement: no `evictions` count and no onL1Evict (a lost-locality detector
        // must not mistake a store's invalidation for the scheduler's fault).
        writeEvicts_.inc();
        l->state = State::Invalid;
    }
    // A reserved line keeps its reservation: the fill still has to land, and the load waiting
    // for it was issued before this store.
    missQueue_.push_back({line, true, bytes, warp, pc, chunks});
    notifyAccess(warp, pc, line, kept, false, true);
    return L1Result::WriteSent;
}

L1Result L1DCache::atomic(uint64_t line, uint32_t bytes, uint32_t chunks, uint32_t lanes, unsigned warp, uint64_t pc,
                          uint32_t token, bool returns) {
    if (missQueue_.size() >= missQueueCap_) {
        missQueueStalls_.inc();
        return L1Result::StallMissQueue;
    }
    atomics_.inc();
    MissRequest r{line, !returns, bytes, warp, pc, chunks};
    r.atomic = true;
    r.returns = returns;
    r.lanes = lanes;
    r.token = token;
    missQueue_.push_back(r);
    ++version_;
    return L1Result::AtomicSent;
}

void L1DCache::flush() {
    ++version_;
    // Like a store's invalidation, not a replacement: no `evictions` and no onL1Evict. An invalid
    // way is the first victim choice, so the replacement's order of the flushed ways is moot.
    for (Line& l : lines_)
        if (l.state == State::Valid) {
            flushedLines_.inc();
            l.state = State::Invalid;
        }
}

// A merge by the warp that missed: its lanes read the line too (for the intra-thread test).
void L1DCache::addOwnerLanes(uint64_t line, unsigned warp, uint32_t lanes) {
    if (lanes == 0) return;
    if (allocation_ == L1Allocation::OnMiss) {
        if (Line* l = find(line); l && l->owner == static_cast<int>(warp)) l->ownerLanes |= lanes;
        return;
    }
    for (MissOwner& o : missOwner_)
        if (o.line == line) {
            if (o.warp == static_cast<int>(warp)) o.lanes |= lanes;
            return;
        }
}

const std::vector<uint32_t>& L1DCache::fill(uint64_t line) {
    ++version_;
    fills_.inc();
    if (allocation_ == L1Allocation::OnMiss) {
        Line* l = find(line);
        if (l && l->state == State::Reserved) {
            l->state = State::Valid;
            repl_->onFill(setOfSlot(*l), wayOf(*l));
        }
    } else {
        int ownerWarp = -1;
        uint64_t ownerPc = 0;
        uint32_t ownerLanes = 0;
        for (size_t i = 0; i < missOwner_.size(); ++i) {
            if (missOwner_[i].line != line) continue;
            ownerWarp = missOwner_[i].warp;
            ownerPc = missOwner_[i].pc;
            ownerLanes = missOwner_[i].lanes;
            missOwner_[i] = missOwner_.back();
            missOwner_.pop_back();
            break;
        }
        const unsigned set = index_(line);
        Line* v = victim(set);
        if (v) {  // no reservations under on-fill, so a victim always exists
            evict(*v);
            *v = Line{line, State::Valid, ownerWarp, ownerPc, ownerLanes};
            repl_->onAllocate(set, wayOf(*v), v->pc);
        }
    }
    const auto& tokens = mshr_.release(line);
    if (observer_) observer_->onMshrFree(line);
    return tokens;
}

bool L1DCache::wouldStall(uint64_t line, bool write) const {
    // The same tests, in the same order, as read() and write().
    const bool queueFull = missQueue_.size() >= missQueueCap_;
    if (write) return queueFull;
    if (probe(line)) return false;
    if (mshr_.has(line)) return !mshr_.canMerge(line);
    if (mshr_.full() || queueFull) return true;
    if (allocation_ != L1Allocation::OnMiss) return false;
    const unsigned set = index_(line);
    for (unsigned w = 0; w < ways_; ++w)
        if (lines_[size_t(set) * ways_ + w].state != State::Reserved) return false;
    return true;
}

bool L1DCache::probe(uint64_t line) const {
    const Line* l = find(line);
    return l && l->state == State::Valid;
}

bool L1DCache::reserved(uint64_t line) const {
    const Line* l = find(line);
    return l && l->state == State::Reserved;
}

std::string L1DCache::dumpState() const {
    std::ostringstream os;
    os << "mshr " << mshr_.used() << "/" << mshr_.capacity() << " [";
    for (const auto& [line, tokens] : mshr_.entries())
        os << " 0x" << std::hex << line << std::dec << ":" << tokens;
    os << " ] miss_queue " << missQueue_.size() << "/" << missQueueCap_;
    return os.str();
}

} // namespace gpusim
