#pragma once
// Bit masks over the positions of the DRAM controller's request queue (arrival order, at most
// 64 entries): which positions hold a request of each bank, a write, a row hit (its bank's open
// row is its row) and a request not yet eligible. The controller keeps them in step with the
// queue and the banks; DramScheduler's masked pick reads them instead of scanning the queue, so
// a pick costs a few instructions per bank with work rather than per queued request (the
// streaming run's FR-FCFS scan was 9 % of its host instructions; issue 19).
// A queue of more than 64 entries (dram.queue_size) has no masks: the controller keeps the scan
// (enabled() is false). Pure logic, no SystemC.
#include <bit>
#include <cstdint>
#include <vector>

#include "memory/DramBank.hpp"
#include "memory/DramRequest.hpp"

namespace gpusim {

class DramQueueMasks {
public:
    static constexpr size_t kMaxEntries = 64;

    DramQueueMasks(unsigned banks, size_t capacity) : enabled_(capacity <= kMaxEntries), bank_(banks, 0) {}
    bool enabled() const { return enabled_; }

    // `r` was appended to the queue at position `pos`; `b` is its bank.
    void pushed(size_t pos, const DramRequest& r, const DramBank& b) {
        const uint64_t bit = uint64_t(1) << pos;
        bank_[r.coord.bank] |= bit;
        all_ |= bit;
        if (r.write) write_ |= bit;
        if (b.rowOpen() && b.openRow() == r.coord.row) hit_ |= bit;
        waiting_ |= bit;
        if (r.eligibleCycle < nextEligible_) nextEligible_ = r.eligibleCycle;
    }
    // The request at `pos` left the queue: the positions above it move down one.
    void erased(size_t pos) {
        uint64_t* const banks = bank_.data();
        auto shift = [&](size_t n) {
            for (size_t k = 0; k < n; ++k) banks[k] = remove(banks[k], pos);
        };
        // The presets' bank counts with a constant bound, which g++ -O2 vectorises (it leaves a
        // loop of run-time length scalar; issue 19).
        switch (bank_.size()) {
        case 8: shift(8); break;
        case 16: shift(16); break;
        default: shift(bank_.size());
        }
        all_ = remove(all_, pos);
        write_ = remove(write_, pos);
        hit_ = remove(hit_, pos);
        waiting_ = remove(waiting_, pos);
    }
    // Bank `bank` opened `row` (ACT): its requests for that row become hits.
    void activated(unsigned bank, uint64_t row, const std::vector<DramRequest>& q) {
        for (uint64_t m = bank_[bank]; m; m &= m - 1)
            if (q[unsigned(std::countr_zero(m))].coord.row == row) hit_ |= m & -m;
    }
    // Bank `bank` was precharged: none of its requests hits.
    void precharged(unsigned bank) { hit_ &= ~bank_[bank]; }

    // The eligible positions at `cycle` (eligibleCycle <= cycle); `quiet` takes the first cycle a
    // waiting one becomes eligible.
    uint64_t eligible(const std::vector<DramRequest>& q, uint64_t cycle, uint64_t& quiet) {
        if (cycle >= nextEligible_) {
            nextEligible_ = UINT64_MAX;
            for (uint64_t m = waiting_; m; m &= m - 1) {
                const unsigned p = unsigned(std::countr_zero(m));
                if (q[p].eligibleCycle <= cycle)
                    waiting_ &= ~(uint64_t(1) << p);
                else if (q[p].eligibleCycle < nextEligible_)
                    nextEligible_ = q[p].eligibleCycle;
            }
        }
        if (nextEligible_ < quiet) quiet = nextEligible_;
        return all_ & ~waiting_;
    }

    uint64_t bank(unsigned b) const { return bank_[b]; }
    uint64_t writes() const { return write_; }
    uint64_t hits() const { return hit_; }
    uint64_t all() const { return all_; }

private:
    // `m` without bit `pos`, the bits above it moved down one.
    static uint64_t remove(uint64_t m, size_t pos) {
        const uint64_t low = (uint64_t(1) << pos) - 1;
        return (m & low) | ((m >> 1) & ~low);
    }
    bool enabled_;
    std::vector<uint64_t> bank_;
    uint64_t all_ = 0, write_ = 0, hit_ = 0, waiting_ = 0;
    uint64_t nextEligible_ = UINT64_MAX;  // the smallest eligible cycle among `waiting_`
};

} // namespace gpusim
