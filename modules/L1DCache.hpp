#pragma once
// The SM's L1 data cache: sets x ways of lines, a set-index function, a replacement plug-in
// (modules/L1Replacement.hpp: LRU or CWLP's LPC, chosen by cfg.replacement), MSHRs and
// the miss queue toward the NoC. One access per cycle (the caller enforces the single port).
// Reads: hit; miss merged into an in-flight MSHR entry; new miss (MSHR + miss-queue slot, and
// under allocate-on-miss a victim way reserved at once); or a stall the caller replays next cycle
// (no MSHR / merge room, miss queue full, every way of the set reserved). Stores go to L2
// through the miss queue, no MSHR, no allocation; a valid line is invalidated (write-evict) or
// kept (write-through), l1d.write_policy. Global atomics bypass the cache (atomic()). Fills
// install the line (allocate-on-fill picks the victim then) and return the waiting tokens.
// Data values are not modelled. Per-line owner warp and last PC feed the policy hooks.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "common/RingQueue.hpp"
#include "common/Stats.hpp"
#include "modules/L1Replacement.hpp"
#include "modules/MshrTable.hpp"
#include "modules/SetIndex.hpp"
#include "modules/SmConfig.hpp"

namespace gpusim {

class SchedulerPolicy;

enum class L1Result {
    Hit,
    MissMerged,        // joined an in-flight miss to the same line
    MissNew,           // new MSHR entry, read queued to the NoC
    WriteSent,         // store queued to the NoC
    AtomicSent,        // global atomic queued to the NoC (bypasses the cache)
    StallMshr,         // no free MSHR, or the line's entry has no merge room
    StallMissQueue,    // miss queue full (interconnect stall)
    StallReservation   // allocate-on-miss: every way of the set is reserved
};

inline bool isStall(L1Result r) {
    return r == L1Result::StallMshr || r == L1Result::StallMissQueue || r == L1Result::StallReservation;
}

struct MissRequest {
    uint64_t lineAddr = 0;
    bool write = false;
    uint32_t bytes = 0;
    unsigned warp = 0;
    uint64_t pc = 0;
    uint32_t chunks = 0;  // a store's 32-byte chunks (GpuExtension::chunks)
    // A global atomic: done at the L2, which answers ATOM (returns) with the old values for the
    // LD/ST unit's `token`, RED with an acknowledgement nothing waits for.
    bool atomic = false;
    bool returns = false;
    uint32_t lanes = 0;
    uint32_t token = 0;
};

class L1DCache {
public:
    L1DCache(const SmConfig& cfg, StatRegistry& stats, const std::string& prefix);
    void setObserver(SchedulerPolicy* p) { observer_ = p; }

    uint64_t lineOf(uint64_t addr) const { return addr & ~uint64_t(lineBytes_ - 1); }
    // `lanes`: the reading warp's lanes this line serves (0: not known), which tell an owner's
    // re-read of data one of its threads read before (intra-thread) from a sibling's (inter-thread).
    L1Result read(uint64_t lineAddr, unsigned warp, uint64_t pc, uint32_t token, uint32_t lanes = 0) {
        const L1Result r = readAccess(lineAddr, warp, pc, token, lanes);
        if (!isStall(r)) ++version_;
        return r;
    }
    // `chunks`: the 32-byte chunks of the line the store touches (Coalescer); 0: not known.
    L1Result write(uint64_t lineAddr, uint32_t bytes, unsigned warp, uint64_t pc, uint32_t chunks = 0) {
        const L1Result r = writeAccess(lineAddr, bytes, warp, pc, chunks);
        if (!isStall(r)) ++version_;
        return r;
    }
    // Changes with every change of state an access's answer depends on (lines, MSHRs, the miss
    // queue): a refused read or write changes nothing, so the same access refused at one version
    // is refused the same way, counting one more stall, while the version stays (the LD/ST
    // unit's repeated refusal, issue 19).
    uint64_t version() const { return version_; }
    // A global atomic's line request (Coalescer::coalesceAtomic): it only needs a miss-queue slot.
    // It bypasses the cache as GPGPU-Sim sends atomics (cache_op CACHE_GLOBAL: "all the atomics
    // should be done at L2"): no lookup, MSHR or allocation, and a valid copy of the line is left
    // as it is (GPGPU-Sim does not invalidate it either; no data is modelled). Counted apart
    // (atomics), not in accesses.
    L1Result atomic(uint64_t lineAddr, uint32_t bytes, uint32_t chunks, uint32_t lanes, unsigned warp, uint64_t pc,
                    uint32_t token, bool returns);
    // A read answer arrived: install the line, free the MSHR, return the tokens to wake.
    // The woken tokens; the reference is valid until the next fill.
    const std::vector<uint32_t>& fill(uint64_t lineAddr);

    bool hasOutgoing() const { return !missQueue_.empty(); }
    const MissRequest& frontOutgoing() const { return missQueue_.front(); }
    void popOutgoing() {
        missQueue_.pop_front();
        ++version_;
    }

    // Set of a line (the DLC's #sets), and whether read()/write() would refuse the access now,
    // without counting anything (MASCAR's re-execution queue retries only when it would not).
    unsigned setOf(uint64_t lineAddr) const { return index_(lineAddr); }
    unsigned sets() const { return sets_; }
    bool wouldStall(uint64_t lineAddr, bool write) const;
    // Whether the access would put a request in the miss queue: a store, or a read that neither
    // hits a valid line nor merges into an MSHR entry (MASCAR's send gate asks this).
    bool wouldSendBelow(uint64_t lineAddr, bool write) const { return write || !(probe(lineAddr) || mshr_.has(lineAddr)); }
    // Counts `n` more refusals for want of an MSHR entry: the replays of a sleeping SM whose
    // LD/ST unit would have repeated one each cycle (nothing but a fill can change the answer).
    void countMshrStalls(uint64_t n) { mshrStalls_.inc(n); }
    void countMissQueueStalls(uint64_t n) { missQueueStalls_.inc(n); }

    unsigned mshrFree() const { return mshr_.free(); }
    unsigned mshrUsed() const { return mshr_.used(); }
    unsigned mshrCapacity() const { return mshr_.capacity(); }
    unsigned missQueueFree() const { return missQueueCap_ - static_cast<unsigned>(missQueue_.size()); }
    bool quiescent() const { return mshr_.used() == 0 && missQueue_.empty(); }
    // Invalidates every valid line (a kernel boundary with l1d.flush_at_kernel_end). Reserved
    // lines keep their reservation: their fills are still to come (none are at a kernel end,
    // which waits for quiescence). The replacement state goes with the lines.
    void flush();
    std::string dumpState() const;

    // For tests: is the line present and valid?
    bool probe(uint64_t lineAddr) const;
    bool reserved(uint64_t lineAddr) const;
    const L1Replacement& replacement() const { return *repl_; }

private:
    enum class State : uint8_t { Invalid, Reserved, Valid };
    struct Line {
        uint64_t tag = 0;  // full line address
        State state = State::Invalid;
        int owner = -1;    // warp that brought the line in
        uint64_t pc = 0;   // PC of the last access
        uint32_t ownerLanes = 0;  // lanes of the owner warp that have read the line (CCWS Fig. 11)
    };
    L1Result readAccess(uint64_t lineAddr, unsigned warp, uint64_t pc, uint32_t token, uint32_t lanes);
    L1Result writeAccess(uint64_t lineAddr, uint32_t bytes, unsigned warp, uint64_t pc, uint32_t chunks);
    // Inlined into its callers in L1DCache.cpp: once or twice per access (issue 19).
    [[gnu::always_inline]] Line* find(uint64_t lineAddr);
    const Line* find(uint64_t lineAddr) const;
    // The lowest invalid way, else the replacement's choice among valid ways; nullptr if every
    // way is reserved.
    Line* victim(unsigned set);
    void addOwnerLanes(uint64_t line, unsigned warp, uint32_t lanes);
    unsigned wayOf(const Line& l) const { return static_cast<unsigned>(&l - lines_.data()) % ways_; }
    // The set a found line sits in: its position, without hashing the address again.
    unsigned setOfSlot(const Line& l) const { return static_cast<unsigned>(&l - lines_.data()) / ways_; }
    void evict(Line& l);
    void notifyAccess(unsigned warp, uint64_t pc, uint64_t line, bool hit, bool merged, bool write,
                      bool predicted = false);

    unsigned lineBytes_, sets_, ways_;
    L1Allocation allocation_;
    L1WritePolicy writePolicy_;
    SetIndex index_;
    std::vector<Line> lines_;  // set-major
    MshrTable mshr_;
    RingQueue<MissRequest> missQueue_;
    unsigned missQueueCap_;
    uint64_t version_ = 0;
    std::unique_ptr<L1Replacement> repl_;
    SchedulerPolicy* observer_ = nullptr;
    // Fill-time info for allocate-on-fill: the warp/PC that missed.
    struct MissOwner {
        uint64_t line;
        int warp;
        uint64_t pc;
        uint32_t lanes;  // the owner warp's lanes that missed or merged on the line
    };
    std::vector<MissOwner> missOwner_;  // at most one per MSHR entry: a flat list, searched linearly

    Counter &accesses_, &readHits_, &readHitsIntraWarp_, &readHitsIntraThread_, &readMisses_, &mshrMerges_, &writes_, &writeEvicts_, &writeHits_,
        &mshrStalls_, &missQueueStalls_, &reservationFails_, &fills_, &evictions_, &flushedLines_, &atomics_;
};

} // namespace gpusim
