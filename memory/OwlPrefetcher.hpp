#pragma once
// OWL's opportunistic prefetch (Jog et al., ASPLOS 2013, section "Opportunistic Prefetching"),
// the decision logic of one FR-FCFS controller's prefetcher; the controller (DramController,
// option `dram.prefetch = owl` or a scheduler policy that asks for it) issues what it decides.
//   What: the lines of a bank's open row that no demand has read or written since its ACT
//     (a per-bank bit vector, the paper's per-row bits), lowest column first, one L2 line at a
//     time (ceil(line / burst bytes) RD commands), while no queued demand wants that row.
//   When to start: only on a bank with no queued demand at all ("starts prefetching when there
//     are no more demand requests to an open row"); a row whose bank already has a demand to
//     another row waiting is about to close and is not started (nor held).
//   When to stop: once at least C lines of the row were prefetched, the first demand to another
//     row of the bank stops it (the row then closes as FR-FCFS decides). Before that a started
//     row is held: the controller refuses the PRE that demand would need and uses the cycle for
//     other demand commands or the prefetch. C = `dram.prefetch_min_lines` (8), raised to
//     `dram.prefetch_min_lines_high` (16) while fewer than `dram.prefetch_queue_threshold`
//     demand requests are queued. Without such a demand, prefetching goes on to the row's end.
//   Priority: demand first. A prefetch RD goes only on a cycle where the scheduler has no demand
//     command to issue (or only the refused PRE); between banks, a line already started first,
//     then banks holding a waiting demand, then the lowest bank.
// Choices where the paper is silent: lines written since the ACT count as fetched (they just left
// the L2 as dirty victims); a new line starts only while at least one demand request is queued
// at the controller (an idle controller stays idle, so a finished workload does not keep
// prefetching); the data go to the partition's L2 through the fill callback at the cycle their
// last beat ends, as a demand answer would leave. Statistics under mem<i>.prefetch_*.
// Leaves out: the paper's hardware budget (bits per row are kept for every bank, not 32 rows).
#include <cstdint>
#include <deque>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "common/AddressMap.hpp"
#include "memory/DramBank.hpp"
#include "memory/DramRequest.hpp"
#include "memory/DramTimingChecker.hpp"
#include "memory/OwlPrefetchParams.hpp"

namespace gpusim {

class Counter;
class StatRegistry;

// The L2 side of a prefetch: called with the global line address when its data are complete.
using PrefetchFill = std::function<void(uint64_t lineAddr)>;

// DramCommandRecord::request of a prefetch RD (no demand request behind it).
constexpr uint64_t kPrefetchRequest = std::numeric_limits<uint64_t>::max();

class OwlPrefetcher {
public:
    struct Burst {                // a prefetch RD to issue now
        unsigned bank;
        uint64_t row;
        uint64_t column;          // byte offset of the burst in the row
    };

    OwlPrefetcher(const OwlPrefetchParams& p, const AddressMap& map, unsigned partition, unsigned lineBytes,
                  unsigned burstBytes, StatRegistry& stats, const std::string& prefix);

    // What the controller did (demand and prefetch alike go through the controller).
    void activated(unsigned bank, uint64_t row);
    void demandColumn(unsigned bank, uint64_t column);  // a demand RD/WR burst at this column
    void precharged(unsigned bank);

    // Once per cycle before deciding: the demand queue as it is now.
    void update(const std::vector<DramRequest>& queue);
    // The bank's open row must not be closed yet (a PRE for it is refused).
    bool holds(unsigned bank) const;
    void heldPre() const;  // a demand PRE was refused this cycle (statistics)
    // The prefetch RD to issue this cycle, if any is allowed by the timing checker.
    std::optional<Burst> pick(const DramTimingChecker& timing, uint64_t cycle) const;
    // The controller issued `b` (through the timing checker) with its data ending at `dataEnd`.
    void issued(const Burst& b, uint64_t dataEnd);
    // Hands every line whose data ended by `cycle` to `fill`.
    void deliver(uint64_t cycle, const PrefetchFill& fill);

    // A line half issued or data not yet delivered: the controller needs edges.
    bool busy() const { return !deliveries_.empty() || linesInProgress_ > 0; }
    unsigned minLinesNow() const { return c_; }
    std::string dumpState() const;

private:
    struct Bank {
        bool open = false;
        uint64_t row = 0;
        std::vector<uint8_t> fetched;  // per line of the row
        unsigned unfetched = 0;
        unsigned prefetched = 0;       // lines prefetched since the ACT
        bool inLine = false;           // a line's bursts partly issued
        uint64_t lineColumn = 0;
        uint64_t nextColumn = 0;
        unsigned burstsLeft = 0;
        bool hitQueued = false;        // a demand for the open row is queued
        bool otherQueued = false;      // a demand for another row of this bank is queued
    };
    void markFetched(Bank& b, uint64_t column);
    std::optional<uint64_t> firstUnfetched(const Bank& b) const;

    OwlPrefetchParams p_;
    const AddressMap& map_;
    unsigned partition_;
    uint64_t lineBytes_;
    uint64_t burstBytes_;
    unsigned linesPerRow_;
    unsigned burstsPerLine_;
    std::vector<Bank> banks_;
    unsigned c_ = 0;                   // C for this cycle
    bool demandQueued_ = false;
    unsigned linesInProgress_ = 0;
    std::deque<std::pair<uint64_t, uint64_t>> deliveries_;  // (data end cycle, line address)

    Counter& lines_;
    Counter& episodes_;
    Counter& stoppedByDemand_;
    Counter& rowsExhausted_;
    Counter& heldPreCycles_;
};

} // namespace gpusim
