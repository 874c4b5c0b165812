#pragma once
// The operand collector between the issue stage and the execution units (GPGPU-Sim's
// opndcoll_rfu_t, sm.collector.*; off with sm.collector.register_banks = 0, the default, where an
// instruction goes from issue straight into its unit).
//
// What it models. Four collector sets, one per unit class (ALU = GPGPU-Sim's SP, SFU, MEM,
// TENSOR_CORE), each with an issue register of `ports` slots (ID_OC_*), `units` collector units
// and an execute register of `ports` slots (OC_EX_*). The register file has `register_banks`
// banks; register r of the warp in slot w lives in bank (r + w) mod banks (GPGPU-Sim's
// register_bank with its bank_warp_shift). Every bank serves one read per cycle, the oldest of its FIFO of requests, and
// none in a cycle a result is written to it (writes have priority). A collector unit asks for each
// distinct source register once; reads of one unit in different banks are served in the same cycle
// (GPGPU-Sim's arbiter lets one collector take several banks a cycle). Per cycle, step() does what
// GPGPU-Sim's step does, in its order:
//   1. dispatch: each of a set's `ports` dispatch units moves one collector unit whose operands
//      are all read into the execute register, if it has a free slot (round-robin from the unit
//      it served last);
//   2. reads: each bank serves the head of its queue (unless written this cycle);
//   3. allocation: each of a set's `ports` input ports moves the oldest instruction of the issue
//      register into the set's first free collector unit and queues its reads.
// So an instruction issued at cycle t is in a collector unit at t + 1, has its operands at t + 2
// without conflicts, is in the execute register at t + 3 and enters its unit at t + 4 (the SM runs
// its units before the collector in a cycle, as GPGPU-Sim runs execute() before read_operands()).
//
// Left out (approximations): a write always finds its bank (GPGPU-Sim stalls the second of two
// writebacks to one bank in a cycle); the writeback width; GPGPU-Sim's separate counts of input
// ports, output ports and pipeline-register widths are one `ports` per set (they are equal in the
// GTX480 configuration: SP 2, SFU 1, MEM 1); barriers and EXIT bypass it (they need no unit);
// uniform registers and predicates (Turing and later, from traces) are read and written outside
// the banks, without a cost of their own.
#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "common/Stats.hpp"
#include "workloads/WarpInstruction.hpp"

namespace gpusim {

// Tensor last: sets are stepped in this order, so runs without tensor instructions keep the
// bank-queue order they had before it existed (GPGPU-Sim steps SP, DP, TENSOR_CORE, SFU, MEM).
enum class CollectorSet : uint8_t { Alu, Sfu, Mem, Tensor };
inline constexpr unsigned kCollectorSets = 4;

struct CollectorConfig {
    unsigned banks = 0;  // 0: no operand collector
    std::array<unsigned, kCollectorSets> units{6, 8, 2, 4};
    std::array<unsigned, kCollectorSets> ports{2, 1, 1, 1};
    bool enabled() const { return banks > 0; }
};

class OperandCollector {
public:
    struct Entry {
        uint64_t seq = 0;  // issue order: the oldest ready entry goes first
        unsigned warp = 0;
        WarpInstruction inst;
    };
    // Statistics under prefix: reads, bank_conflicts, write_conflicts.
    OperandCollector(const CollectorConfig& cfg, StatRegistry& stats, const std::string& prefix);

    static unsigned bank(uint16_t reg, unsigned warp, unsigned banks) { return (reg + warp) % banks; }

    // The issue register of the set has a free slot.
    bool canIssue(CollectorSet s) const { return set(s).in.size() < set(s).ports; }
    void issue(CollectorSet s, unsigned warp, const WarpInstruction& inst);
    // A result written to `reg` of `warp` this cycle (before step): its bank serves no read.
    void write(unsigned warp, uint16_t reg);
    void step();

    // The oldest instruction in the set's execute register (null: none); pop() removes it once its
    // unit took it.
    const Entry* ready(CollectorSet s) const;
    void pop(CollectorSet s);

    bool empty() const { return occupied_ == 0; }
    std::string dumpState() const;

private:
    struct Unit {
        bool busy = false;
        unsigned pending = 0;  // reads not yet served
        Entry entry;
    };
    struct Set {
        unsigned ports = 0;
        std::deque<Entry> in, out;  // ID_OC_*, OC_EX_*
        std::vector<Unit> units;
        std::vector<unsigned> lastDispatched;  // per dispatch unit: the collector unit served last
    };
    Set& set(CollectorSet s) { return sets_[static_cast<unsigned>(s)]; }
    const Set& set(CollectorSet s) const { return sets_[static_cast<unsigned>(s)]; }
    static std::deque<Entry>::const_iterator oldest(const std::deque<Entry>& q);
    void dispatch(Set& s);
    void serveReads();
    void allocate(unsigned setIndex);

    unsigned banks_;
    std::array<Set, kCollectorSets> sets_;
    // Per bank: the waiting reads, as (set index, unit index) of the unit that asked.
    std::vector<std::deque<std::pair<uint8_t, uint16_t>>> queues_;
    std::vector<uint8_t> written_;  // banks written this cycle
    uint64_t nextSeq_ = 0;
    unsigned occupied_ = 0;  // entries anywhere in the collector
    Counter &reads_, &bankConflicts_, &writeConflicts_;
};

} // namespace gpusim
