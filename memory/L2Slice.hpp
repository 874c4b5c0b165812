#pragma once
// One L2 slice (the cache in front of one memory partition): sets x ways x line, write-back,
// write-allocate, true LRU, its own MSHRs, a fixed tag latency and bounded queues on both sides.
//
// Per L2 cycle (see tick() for the order): one fill from memory installs a line, one answer of a
// filled MSHR entry moves to the response queue, the tag pipeline advances, one request from the
// input queue is looked up, one request goes to memory and one answer to the NoC.
//  - A lookup's outcome (hit answer, write acknowledgement, miss request, write-back) leaves the
//    tag pipeline `l2.tag_latency_cycles` after the lookup. The pipeline freezes while its head
//    cannot enter a full response or miss queue, and a frozen pipeline stalls lookups.
//  - A read miss merges into the MSHR entry of its line or allocates one; with neither possible
//    the lookup stalls and retries next cycle. Its fill answers every merged request.
//  - Writes allocate without fetching (write-validate): the line becomes valid and dirty at once.
//    The model carries no data and no byte masks, so a partial store still makes the whole line
//    valid and a later read of it hits. A write to a line with a read miss in flight merges into
//    that entry and is acknowledged at the fill, which installs the line dirty.
//  - Back-pressure to the NoC: a request arriving at a full input queue is held and its END_REQ
//    withheld until a lookup frees a slot.
// OWL prefetch (off unless enablePrefetchFills() is called; memory/OwlPrefetcher.hpp): the
// partition's controller hands prefetched lines to prefetchFill() (a plain C++ side channel bound
// by the platform, not a TLM socket: a user's own memory target gets no prefetch). They wait in a
// queue of `l2.prefetch_queue` entries (a line arriving at a full queue is dropped) and are
// installed clean as most recently used when no demand fill is ready that cycle; a line already
// resident or in flight is dropped. The first demand read hit on a prefetched line counts as
// useful.
// Sectors (l2.sector_bytes > 0, GPGPU-Sim's sectored L2): a line's sectors are valid and dirty
// apart. A request is looked up one sector per cycle (a line read takes as many cycles as it has
// sectors; a store only the sectors its bytes touch, GpuExtension::chunks); each sector hits,
// merges or allocates an MSHR entry of its own (the entries count sectors) and a miss reads only
// that sector from memory; the request is answered when its last sector is. A store to an
// absent sector makes it valid and dirty without a fetch. A write-back writes exactly the dirty
// sectors' bytes: each run of dirty sectors as aligned power-of-two pieces, one memory write each
// (memory/WritebackPieces.hpp), which share the write-back's one miss-queue entry and leave it one
// per L2 cycle. Statistics then count sector accesses (accesses: requests). OWL prefetch needs an
// unsectored L2.
// Atomics (issue 18; GpuExtension::atomic): a global atomic's line request needs its line, so it
// is looked up like a read (a hit, or a miss that merges into or allocates an MSHR entry and waits
// for the fill), and the line becomes dirty. When its tag latency is over (a hit) or its fill is
// installed (a miss) it enters the slice's read-modify-write unit, in arrival order: the unit
// takes one request per cycle, keeps each `l2.atomic_cycles`, and holds back the queue's head
// while an earlier request of the same line is still in it (in order: the requests behind wait
// too), so atomics on one line answer `l2.atomic_cycles` apart. Its answer then enters the
// response queue: the old values for an ATOM (kind Read), an acknowledgement for a RED (kind
// Write). The per-lane work of a request is not charged apart (lanes on one address arrive as
// separate requests; GpuExtension::atomicLanes is counted in atomic_lanes).
// Leaves out: data, byte masks within a sector, bank conflicts inside the slice, a separate fill
// latency (a fill answers its first request on the cycle it is installed), coherence.
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/AtPorts.hpp"
#include "common/ClockDomain.hpp"
#include "common/GpuExtension.hpp"
#include "common/RingQueue.hpp"
#include "memory/L2Mshr.hpp"
#include "memory/L2SliceParams.hpp"
#include "memory/L2TagArray.hpp"

namespace gpusim {

class AddressMap;
class Counter;
class Histogram;
class PayloadPool;
class StatRegistry;

class L2Slice : public sc_core::sc_module, public Tickable {
public:
    // `index` is the global slice index; with l2.slices_per_partition = S, slice `index` serves
    // sub-partition index % S of partition index / S (S = 1: the partition index).
    L2Slice(sc_core::sc_module_name name, const L2SliceParams& params, StatRegistry& stats,
            ClockDomain& clock, PayloadPool& pool, const AddressMap& map, unsigned index);

    tlm_utils::simple_target_socket<L2Slice> nocSide;     // requests from the NoC
    tlm_utils::simple_initiator_socket<L2Slice> memSide;  // misses and write-backs to memory

    void tick(uint64_t cycle) override;
    bool busy() const override;
    // Nothing queued, in flight or open on either socket (end-of-run invariant).
    bool quiescent() const;
    // How the slice finishes the memory's answers (tlm.response_completion; Gpu sets it per link).
    void setMemoryResponseCompletion(ResponseCompletion c) { memPort_.setResponseCompletion(c); }
    // What is outstanding, in one paragraph without the module name (watchdog dump).
    std::string dumpState() const;

    const L2TagArray& tags() const { return tags_; }

    // OWL prefetch: registers the l2.slice<i>.prefetch_* statistics and accepts prefetchFill().
    void enablePrefetchFills();
    // A prefetched line of this slice whose data are complete now (called by the controller's
    // prefetcher, any clock domain). Handled at the first L2 edge strictly after now.
    void prefetchFill(uint64_t lineAddr);
    unsigned setOf(uint64_t addr) const;

private:
    struct Request {            // accepted from the NoC, not yet (wholly) looked up
        Payload* payload;
        uint64_t acceptPs;
        uint64_t eligibleCycle; // first edge strictly after acceptance
        uint64_t units;         // sectors still to look up (bit i: sector i; 1 when unsectored)
    };
    struct Pending {            // a request of several sectors, some not resolved yet
        unsigned remaining;
        bool allHit;
    };
    struct Answer {             // to the NoC
        Payload* payload;
        uint64_t acceptPs;
        bool hit;
    };
    struct PipeEntry {          // a lookup's outcome waiting out the tag latency
        uint64_t exitAt;        // in pipeline steps (pipeStep_), not cycles: a freeze delays it
        Payload* resolves;      // the request one of whose sectors this resolves (hit, write), or null
        uint64_t acceptPs;      // of that request
        bool hit;
        bool atomic;            // `resolves` is an atomic (noted at lookup: a frozen head is asked
                                // again every cycle, and its extension cost a library call each time)
        uint8_t morePieces = 0; // a write-back's pieces after toMemory, waiting in pipePieces_
        Payload* toMemory;      // a miss request or a write-back's first piece, or null
    };
    struct ToMemory {           // a line (sector) read or one piece of a write-back
        Payload* payload;
        bool endsEntry;         // the last piece of its miss-queue entry (a read is one piece)
    };
    struct Fill {               // a memory answer to one of our line reads
        Payload* payload;
        uint64_t eligibleCycle;
    };

    tlm::tlm_sync_enum nocFw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    tlm::tlm_sync_enum memBw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    bool takeFromNoc(Payload& p);
    bool takeFromMemory(Payload& p);

    void installFill(uint64_t cycle);
    void installPrefetch(uint64_t cycle);
    void forgetPrefetched(const L2TagArray::Victim& out);
    void forwardFillAnswer();
    bool advancePipe();          // false: the head is due but its queue is full (frozen)
    void lookup(uint64_t cycle);
    void sendToMemory();
    void sendResponse();
    // An answer leaves the tag pipeline or a fill: an atomic's goes to the RMW unit's queue.
    void answered(const Answer& a, RingQueue<Answer>& to);
    // The read-modify-write unit's cycle: finished requests out, the queue's head in, one
    // finished answer to the response queue.
    void stepRmw(uint64_t cycle);

    Payload* memoryRequest(uint64_t addr, AccessKind kind, uint64_t bytes);
    // The dirty victim's write-back pieces, in address order, into pieces_ (overwritten).
    void writeback(const L2TagArray::Victim& out);
    // A write-back's pieces (pieces_) into the miss queue as one entry.
    void queueWriteback();
    void queueToMemory(Payload* first, unsigned morePieces);
    uint64_t lineOf(uint64_t addr) const { return addr & ~(lineBytes_ - 1); }
    uint64_t unitOf(uint64_t addr) const { return addr & ~(unitBytes_ - 1); }
    uint64_t requestUnits(const Payload& p) const;
    // One sector of request p is resolved; its answer when it was the last. A request of one
    // sector (every request of an unsectored slice) has no pending_ entry: it completes at once.
    bool wouldComplete(Payload* p) const;
    std::optional<Answer> resolve(Payload* p, uint64_t acceptPs, bool hit);
    uint64_t eligibleAfterNow() const;

    const AddressMap& map_;
    ClockDomain& clock_;
    PayloadPool& pool_;
    unsigned index_;               // global slice index: partition * slices per partition + sub
    unsigned slicesPerPartition_;
    unsigned partition_;
    unsigned sub_;
    uint64_t lineBytes_;
    unsigned lineShift_;
    uint64_t unitBytes_;        // the sector (l2.sector_bytes), or the line when not sectored
    uint64_t tagLatency_;
    size_t inputCap_, responseCap_, missCap_;

    L2TagArray tags_;
    L2Mshr mshr_;
    std::vector<L2Mshr::Target> completed_;  // scratch of installFill: the filled line's requests
    AtTargetPort nocPort_;
    AtInitiatorPort memPort_;

    RingQueue<Request> input_;
    std::unordered_map<Payload*, Pending> pending_;  // requests of several sectors, from acceptance; never iterated
    RingQueue<PipeEntry> pipe_;
    RingQueue<Answer> fillAnswers_;
    RingQueue<Answer> responses_;
    RingQueue<ToMemory> misses_;
    size_t missEntries_ = 0;       // miss-queue occupancy (l2.miss_queue): reads and whole write-backs
    RingQueue<Payload*> pipePieces_;  // the tag pipeline's write-backs' pieces after their first
    std::vector<Payload*> pieces_;    // scratch of writeback()
    RingQueue<Fill> fills_;
    uint64_t pipeStep_ = 0;     // advances once per cycle in which the pipeline is not frozen

    // The read-modify-write unit: atomics with their line present, waiting in arrival order; in
    // the unit (start order, which is also finish order: one start per cycle, a fixed occupancy);
    // finished, waiting for response-queue room.
    struct InRmw {
        Answer answer;
        uint64_t line;
        uint64_t doneCycle;
    };
    uint64_t atomicCycles_;
    RingQueue<Answer> rmwQueue_;
    std::deque<InRmw> rmwUnit_;
    RingQueue<Answer> rmwDone_;

    struct PrefetchedLine {
        uint64_t line;
        uint64_t eligibleCycle;
    };
    StatRegistry& stats_;
    size_t prefetchCap_;
    RingQueue<PrefetchedLine> prefetchFills_;
    // Admission sees the queue as before any pop at the current instant, whichever of the L2
    // and the controller runs first then (the result must not depend on process order).
    uint64_t lastPrefetchPopPs_ = ~uint64_t(0);
    std::unordered_set<uint64_t> prefetched_;  // installed by prefetch, no demand hit yet (no iteration)
    Counter* pfFills_ = nullptr;
    Counter* pfUseful_ = nullptr;
    Counter* pfRedundant_ = nullptr;
    Counter* pfRedundantInFlight_ = nullptr;
    Counter* pfDropped_ = nullptr;
    Counter* pfUnused_ = nullptr;
    uint64_t nextId_ = 0;

    Counter& accesses_;
    Counter& readHits_;
    Counter& readMisses_;
    Counter& writeHits_;
    Counter& instReadHits_;
    Counter& instReadMisses_;
    Counter& writeMisses_;
    Counter& mshrMerges_;
    Counter& writeMerges_;
    Counter& mshrStallCycles_;
    Counter& pipeStallCycles_;
    Counter& fillStallCycles_;
    Counter& writebacks_;
    Counter& writebackWrites_;
    Counter& inputFullCycles_;
    Counter& atomics_;
    Counter& atomicLanes_;
    Counter& atomicHits_;
    Counter& atomicMisses_;
    Counter& atomicSerialiseCycles_;
    Counter& atomicBusyCycles_;
    Histogram& latency_;
};

} // namespace gpusim
