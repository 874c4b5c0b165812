#pragma once
// The FR-FCFS GDDR memory controller of one partition (DESIGN.md section 7), a TLM-2.0 AT
// target ticked by the DRAM command clock. Built from separate units, DRAMSys-style:
//   front end (this class): the request queue (`dram.queue_size`) with back-pressure (a full
//     queue withholds END_REQ until a request leaves it), decoding of the global address to
//     bank/row/column through the AddressMap, the answers, statistics and the command log;
//   DramBank: one state machine per bank (idle, activating, row open, precharging);
//   DramScheduler: which command goes this cycle (FR-FCFS or FCFS);
//   DramTimingChecker: whether a command is legal now (every constraint listed there);
//   DramRowHook: called before a row is closed (a user's observer);
//   OwlPrefetcher: OWL's opportunistic prefetch of open rows into the L2, off unless
//     enablePrefetch() is called (the platform does so for dram.prefetch = owl or --scheduler owl).
// Per DRAM cycle (tick): answers whose data has completed are sent (completion order), then at
// most one command is issued (one command bus). A request that arrives at time t is eligible
// at the first DRAM edge strictly after t, plus dram.frontend_latency_cycles (a fixed delay in
// front of the scheduler, GPGPU-Sim's -dram_latency; the request holds its queue slot meanwhile). A request of N bytes takes ceil(N / burst bytes)
// column commands; it leaves the queue when its last one issues, and is answered (read data or
// write acknowledgement) at the edge its last data beat has been transferred:
//   read:  last RD cycle + tCL + burst cycles;   write: last WR cycle + tWL + burst cycles.
// Open-page policy: a row stays open until a request to another row of its bank needs it closed.
// Leaves out: refresh, power-down, tFAW, bank groups, write queues and write draining, data
// values (payload data is not touched), read/write reordering beyond what FR-FCFS does.
#include <cstdint>
#include <memory>
#include <optional>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "common/AddressMap.hpp"
#include "common/AtPorts.hpp"
#include "common/ClockDomain.hpp"
#include "common/RingQueue.hpp"
#include "memory/DramBank.hpp"
#include "memory/DramCommand.hpp"
#include "memory/DramQueueMasks.hpp"
#include "memory/DramConfig.hpp"
#include "memory/DramControllerParams.hpp"
#include "memory/DramRequest.hpp"
#include "memory/DramRowHook.hpp"
#include "memory/DramScheduler.hpp"
#include "memory/DramTimingChecker.hpp"
#include "memory/OwlPrefetcher.hpp"
#include "memory/PartitionMemory.hpp"

namespace gpusim {

class Average;
class Counter;
class Histogram;
class StatRegistry;

class DramController : public sc_core::sc_module, public Tickable, public PartitionMemory {
public:
    DramController(sc_core::sc_module_name name, const DramControllerParams& params, StatRegistry& stats,
                   ClockDomain& clock, const AddressMap& map, unsigned index);

    tlm_utils::simple_target_socket<DramController> socket;

    void tick(uint64_t cycle) override;
    bool busy() const override;
    bool quiescent() const override;
    std::string dumpState() const override;
    tlm::tlm_target_socket<32>& target() override { return socket; }
    const char* moduleName() const override { return name(); }

    // nullptr restores the no-op hook. The hook must outlive the controller.
    void setRowHook(DramRowHook* hook) { hook_ = hook ? hook : &noHook_; }
    // Turns on OWL's opportunistic prefetch (memory/OwlPrefetcher.hpp) with the dram.prefetch_*
    // parameters: lines of `lineBytes` (the L2 line) read from open rows are handed to `fill`
    // (the partition's L2 slice) when their data are complete. Call before simulation starts.
    void enablePrefetch(unsigned lineBytes, PrefetchFill fill);
    const OwlPrefetcher* prefetcher() const { return prefetch_.get(); }
    DramCommandLog& commandLog() { return log_; }
    const DramTiming& timing() const { return timing_; }
    const std::vector<DramBank>& banks() const { return banks_; }
    const std::vector<DramRequest>& queue() const { return queue_; }
    size_t queueCapacity() const { return queueCap_; }

private:
    struct Completion {
        Payload* payload;
        bool write;
        unsigned bank;
        uint64_t acceptPs;
        uint64_t firstCmdCycle;
    };

    tlm::tlm_sync_enum nbTransportFw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    bool take(Payload& p);
    void sendAnswers(uint64_t cycle);
    void sample(uint64_t cycle);
    void issue(const DramScheduler::Decision& d, uint64_t cycle);
    void finish(size_t index, DramCmd cmd, uint64_t cycle);
    // With the prefetcher: the demand decision `d` unless it closes a held row, else the best
    // other demand command, else a prefetch burst.
    void tickPrefetch(std::optional<DramScheduler::Decision> d, uint64_t cycle);
    void issuePrefetch(const OwlPrefetcher::Burst& b, uint64_t cycle);

    ClockDomain& clock_;
    const AddressMap& map_;
    unsigned index_;
    DramTiming timing_;
    size_t queueCap_;
    unsigned frontendLatency_;
    DramScheduler scheduler_;
    DramTimingChecker checker_;
    std::vector<DramBank> banks_;
    AtTargetPort port_;
    NoRowHook noHook_;
    DramRowHook* hook_ = &noHook_;
    DramCommandLog log_;
    StatRegistry& stats_;
    OwlPrefetchParams prefetchParams_;
    std::unique_ptr<OwlPrefetcher> prefetch_;  // null: prefetch off (the default, no cost)
    PrefetchFill prefetchFill_;
    std::vector<DramRequest> unheld_;          // scratch of tickPrefetch
    std::vector<size_t> unheldIndex_;

    std::vector<DramRequest> queue_;  // arrival order
    // Bank, write, row-hit and waiting positions of queue_ for the scheduler's masked pick (a
    // queue of at most 64 entries; a longer one is scanned).
    DramQueueMasks masks_;
    // Answers by (data-complete cycle, arrival sequence): a write issued after a read can finish
    // first (tWL < tCL), and ties go by age. A binary heap: the keys are unique, so it gives the
    // order a sorted map would, without a node allocated per request (issue 19).
    struct Answering {
        uint64_t doneCycle, seq;
        Completion c;
        // The heap's top is the smallest key.
        bool operator<(const Answering& o) const {
            return doneCycle != o.doneCycle ? doneCycle > o.doneCycle : seq > o.seq;
        }
    };
    std::priority_queue<Answering> completions_;
    std::vector<unsigned> outstandingPerBank_;  // queued or answering, per bank
    unsigned busyBanks_ = 0;                    // banks with a non-zero count above
    RingQueue<std::pair<uint64_t, uint64_t>> bursts_;  // data-bus intervals [start, end) not yet past
    uint64_t nextSeq_ = 0;
    // Without the prefetcher: the scheduler found nothing to issue and nothing can be legal
    // before this cycle while the queue and the command history stay as they are
    // (DramScheduler::pick's quietUntil), so the ticks before it skip the queue scan. An arrival
    // resets it; an issued command means a pick found something, which leaves it behind.
    uint64_t quietUntil_ = 0;

    Counter& reads_;
    Counter& writes_;
    Counter& rowHits_;
    Counter& rowMisses_;
    Counter& rowConflicts_;
    Counter& cmdAct_;
    Counter& cmdPre_;
    Counter& cmdRd_;
    Counter& cmdWr_;
    Counter& queueFullCycles_;
    Average& rowHitRate_;
    Average& busUtil_;
    Average& bankParallelism_;
    Histogram& latency_;
    Histogram& readQueueLat_;
    Histogram& readServiceLat_;
    Histogram& writeQueueLat_;
    Histogram& writeServiceLat_;
};

} // namespace gpusim
