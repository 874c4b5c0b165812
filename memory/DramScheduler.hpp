#pragma once
// Chooses the one command the controller issues this cycle (one command bus), from the request
// queue (in arrival order), the banks' open rows and the timing checker.
//
// FR-FCFS (Rixner et al.): first the oldest request whose row is open and whose column command
// is allowed now (row hit first); otherwise, oldest first, the first row command allowed now:
// ACT for a request whose bank is precharged, PRE for one whose bank has another row open. A
// bank's open row is not closed while any queued request still hits it (those hits go first,
// when their column commands become legal), so a younger row hit overtakes an older row miss.
// FCFS: only the oldest request of each bank is considered (arrival order per bank), and the
// oldest of those whose next command is allowed now goes; banks still work in parallel.
// Requests not yet eligible (arrived after this cycle's edge) are ignored. Pure logic: no
// SystemC, tested on its own.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "memory/DramBank.hpp"
#include "memory/DramCommand.hpp"
#include "memory/DramQueueMasks.hpp"
#include "memory/DramRequest.hpp"
#include "memory/DramTimingChecker.hpp"

namespace gpusim {

class DramScheduler {
public:
    enum class Policy { FrFcfs, Fcfs };
    struct Decision {
        size_t index;  // into the queue
        DramCmd cmd;
    };
    explicit DramScheduler(Policy p) : policy_(p) {}
    static Policy parse(const std::string& name);

    // The command a request needs next, given its bank's state.
    static DramCmd nextCommand(const DramRequest& r, const DramBank& b);

    // With `quietUntil`, a pick that finds nothing also gives a cycle no later than the first at
    // which one could find something if the queue, the banks and the timing checker stay as they
    // are (no request arrives or leaves, no command is issued): the earliest cycle any
    // candidate's command becomes legal or a waiting request becomes eligible (UINT64_MAX:
    // never), or, for FR-FCFS row hits whose command kind its per-command bound rules out, that
    // bound (DramScheduler.cpp). Picks before it would find nothing either, so the controller
    // skips them. Unchanged when a decision is made.
    // Inline: called every DRAM cycle, and the wrapper alone cost about 25 instructions a call.
    std::optional<Decision> pick(const std::vector<DramRequest>& queue, const std::vector<DramBank>& banks,
                                 const DramTimingChecker& timing, uint64_t cycle,
                                 uint64_t* quietUntil = nullptr) const {
        uint64_t quiet = UINT64_MAX;
        const auto d = policy_ == Policy::FrFcfs ? pickFrFcfs(queue, banks, timing, cycle, quiet)
                                                 : pickFcfs(queue, banks, timing, cycle, quiet);
        if (!d && quietUntil) *quietUntil = quiet;
        return d;
    }
    // The same decision and `quietUntil` as pick() above, from the masks of `queue` (kept in step
    // with it and the banks; masks.enabled()) instead of a scan of it.
    std::optional<Decision> pick(const std::vector<DramRequest>& queue, DramQueueMasks& masks,
                                 const std::vector<DramBank>& banks, const DramTimingChecker& timing,
                                 uint64_t cycle, uint64_t* quietUntil = nullptr) const {
        uint64_t quiet = UINT64_MAX;
        const auto d = policy_ == Policy::FrFcfs ? maskedFrFcfs(queue, masks, banks, timing, cycle, quiet)
                                                 : maskedFcfs(queue, masks, banks, timing, cycle, quiet);
        if (!d && quietUntil) *quietUntil = quiet;
        return d;
    }
    Policy policy() const { return policy_; }

private:
    std::optional<Decision> pickFrFcfs(const std::vector<DramRequest>& q, const std::vector<DramBank>& banks,
                                       const DramTimingChecker& timing, uint64_t cycle, uint64_t& quiet) const;
    std::optional<Decision> pickFcfs(const std::vector<DramRequest>& q, const std::vector<DramBank>& banks,
                                     const DramTimingChecker& timing, uint64_t cycle, uint64_t& quiet) const;
    std::optional<Decision> maskedFrFcfs(const std::vector<DramRequest>& q, DramQueueMasks& m,
                                         const std::vector<DramBank>& banks, const DramTimingChecker& timing,
                                         uint64_t cycle, uint64_t& quiet) const;
    std::optional<Decision> maskedFcfs(const std::vector<DramRequest>& q, DramQueueMasks& m,
                                       const std::vector<DramBank>& banks, const DramTimingChecker& timing,
                                       uint64_t cycle, uint64_t& quiet) const;
    // Per-bank marks of one pick: bank b is marked while marks_[b] == markNo_ (rowMarks_ below
    // likewise). A pick starts by moving markNo_ instead of clearing every bank (a call to fill
    // and memset per pick; issue 19).
    uint32_t* beginMarks(size_t banks) const;
    Policy policy_;
    mutable std::vector<uint32_t> marks_;
    mutable uint32_t markNo_ = 0;
    // FR-FCFS, per bank: its oldest eligible request that is not a row hit (valid while
    // rowMarks_[b] == markNo_), and the banks with one, in order of first sight.
    mutable std::vector<size_t> rowFirst_;
    mutable std::vector<uint32_t> rowMarks_;
    mutable std::vector<unsigned> rowBanks_;
    // FR-FCFS, per bank and column command (2 * bank + write): its earliest cycle was found not
    // yet reached in this pick (valid while == markNo_).
    mutable std::vector<uint32_t> columnMarks_;
};

} // namespace gpusim
