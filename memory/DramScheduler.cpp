#include "memory/DramScheduler.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace gpusim {

DramScheduler::Policy DramScheduler::parse(const std::string& name) {
    if (name == "frfcfs") return Policy::FrFcfs;
    if (name == "fcfs") return Policy::Fcfs;
    throw std::invalid_argument("unknown DRAM scheduler: " + name);
}

DramCmd DramScheduler::nextCommand(const DramRequest& r, const DramBank& b) {
    if (!b.rowOpen()) return DramCmd::Act;
    if (b.openRow() != r.coord.row) return DramCmd::Pre;
    return r.write ? DramCmd::Wr : DramCmd::Rd;
}

uint32_t* DramScheduler::beginMarks(size_t banks) const {
    if (marks_.size() < banks) marks_.resize(banks, 0);  // 0: never a pick's mark
    if (++markNo_ == 0) {  // wrapped: a mark of 2^32 picks ago would read as set
        std::fill(marks_.begin(), marks_.end(), 0);
        std::fill(rowMarks_.begin(), rowMarks_.end(), 0);
        std::fill(columnMarks_.begin(), columnMarks_.end(), 0);
        markNo_ = 1;
    }
    return marks_.data();
}

// In both policies `quiet` takes the minimum of what every candidate waits for: a request not
// yet eligible its eligible cycle, a request whose next command is not legal yet that command's
// earliest cycle. A PRE held back by a bank's pending hits waits for a hit's command, which is a
// candidate of its own (and issuing it ends the quiet period). FR-FCFS's row hits of a column
// command kind that the command's per-command bound rules out this cycle (the data bus, the last
// column command: the same for every bank) count with that bound instead of their banks' own
// earliest cycles, which are no earlier: `quiet` may then come earlier than the first cycle a
// candidate can go, which costs a scan that finds nothing, never a decision (issue 19: in a
// streaming run most picks found every hit's bank refused by the bus, one bank at a time).
std::optional<DramScheduler::Decision> DramScheduler::pickFrFcfs(const std::vector<DramRequest>& q,
                                                                 const std::vector<DramBank>& banks,
                                                                 const DramTimingChecker& timing,
                                                                 uint64_t cycle, uint64_t& quiet) const {
    // The queue's and the banks' bounds in locals: `q.size()` in the loop condition was
    // reloaded past the stores into the marks and divided by the request's size at every
    // iteration (issue 19).
    const DramRequest* const rq = q.data();
    const size_t n = q.size();
    const DramBank* const bk = banks.data();
    // Pass 1: the oldest row hit whose column command is legal now. Also mark the banks with a
    // pending hit (their rows stay open) and note each bank's oldest other request, in order
    // of first sight.
    uint32_t* const hasHit = beginMarks(banks.size());
    const uint32_t hit = markNo_;
    if (rowFirst_.size() < banks.size()) {
        rowFirst_.resize(banks.size());
        rowMarks_.resize(banks.size(), 0);
        rowBanks_.resize(banks.size());
        columnMarks_.resize(2 * banks.size(), 0);
    }
    size_t* const rowFirst = rowFirst_.data();
    uint32_t* const rowMarks = rowMarks_.data();
    uint32_t* const columnMarks = columnMarks_.data();
    unsigned* const rowBanks = rowBanks_.data();
    size_t nRowBanks = 0;
    const uint64_t rdBound = timing.globalEarliest(DramCmd::Rd), wrBound = timing.globalEarliest(DramCmd::Wr);
    for (size_t i = 0; i < n; ++i) {
        const DramRequest& r = rq[i];
        if (r.eligibleCycle > cycle) {
            quiet = std::min(quiet, r.eligibleCycle);
            continue;
        }
        const unsigned bank = r.coord.bank;
        const DramBank& b = bk[bank];
        if (!b.rowOpen() || b.openRow() != r.coord.row) {
            if (rowMarks[bank] != hit) {
                rowMarks[bank] = hit;
                rowFirst[bank] = i;
                rowBanks[nRowBanks++] = bank;
            }
            continue;
        }
        hasHit[bank] = hit;
        if (const uint64_t bound = r.write ? wrBound : rdBound; bound > cycle) {
            quiet = std::min(quiet, bound);
            continue;
        }
        // A bank's column command has one earliest cycle for every request in the pick: once
        // found not legal, the bank's younger hits of the same kind are not legal either (and
        // bring `quiet` nothing new). In a streaming run most of the queue is such hits.
        uint32_t& tried = columnMarks[2 * bank + (r.write ? 1 : 0)];
        if (tried == hit) continue;
        tried = hit;
        const DramCmd c = r.write ? DramCmd::Wr : DramCmd::Rd;
        const uint64_t at = timing.earliest(c, bank);
        if (at <= cycle) return Decision{i, c};
        quiet = std::min(quiet, at);
    }
    // Pass 2: oldest first, the first row command that is legal now. Every other request of a
    // bank needs the same command (ACT if the bank is precharged, else PRE), legal from the same
    // cycle, so the first legal one in queue order is the oldest among the banks' oldest whose
    // command is legal: a loop over the banks with such requests instead of a second pass over
    // the queue (issue 19).
    size_t best = SIZE_MAX;
    DramCmd bestCmd = DramCmd::Act;
    for (size_t k = 0; k < nRowBanks; ++k) {
        const unsigned bank = rowBanks[k];
        const DramCmd c = bk[bank].rowOpen() ? DramCmd::Pre : DramCmd::Act;
        if (c == DramCmd::Pre && hasHit[bank] == hit) continue;  // hits keep the row open
        const uint64_t at = timing.earliest(c, bank);
        if (at > cycle) {
            quiet = std::min(quiet, at);
            continue;
        }
        if (rowFirst[bank] < best) {
            best = rowFirst[bank];
            bestCmd = c;
        }
    }
    if (best != SIZE_MAX) return Decision{best, bestCmd};
    return std::nullopt;
}

std::optional<DramScheduler::Decision> DramScheduler::pickFcfs(const std::vector<DramRequest>& q,
                                                               const std::vector<DramBank>& banks,
                                                               const DramTimingChecker& timing,
                                                               uint64_t cycle, uint64_t& quiet) const {
    uint32_t* const seen = beginMarks(banks.size());  // this bank's oldest request was seen
    const uint32_t mark = markNo_;
    for (size_t i = 0; i < q.size(); ++i) {
        const DramRequest& r = q[i];
        if (r.eligibleCycle > cycle) {
            quiet = std::min(quiet, r.eligibleCycle);
            continue;
        }
        if (seen[r.coord.bank] == mark) continue;  // not the oldest of its bank
        seen[r.coord.bank] = mark;
        const DramCmd c = nextCommand(r, banks[r.coord.bank]);
        const uint64_t at = timing.earliest(c, r.coord.bank);
        if (at <= cycle) return Decision{i, c};
        quiet = std::min(quiet, at);
    }
    return std::nullopt;
}

// The two picks above from the queue's masks. The scan's order is the positions' order, so "the
// first in queue order" is the lowest set bit; a bank (and, for column commands, the kind) whose
// command was found not legal leaves the candidates as a whole, as the scan's marks skip it.
std::optional<DramScheduler::Decision> DramScheduler::maskedFrFcfs(const std::vector<DramRequest>& q,
                                                                   DramQueueMasks& m,
                                                                   const std::vector<DramBank>& banks,
                                                                   const DramTimingChecker& timing,
                                                                   uint64_t cycle, uint64_t& quiet) const {
    const uint64_t eligible = m.eligible(q, cycle, quiet);
    const uint64_t hits = eligible & m.hits();
    const uint64_t writes = m.writes();
    // Pass 1: the oldest hit whose column command is legal now. A kind of column command that
    // its per-command bound rules out this cycle is refused to every bank alike: its hits leave
    // at once, with that bound for `quiet` (see above).
    uint64_t hitCand = hits;
    if (const uint64_t at = timing.globalEarliest(DramCmd::Rd); at > cycle && (hits & ~writes)) {
        quiet = std::min(quiet, at);
        hitCand &= writes;
    }
    if (const uint64_t at = timing.globalEarliest(DramCmd::Wr); at > cycle && (hits & writes)) {
        quiet = std::min(quiet, at);
        hitCand &= ~writes;
    }
    for (uint64_t cand = hitCand; cand;) {
        const size_t i = size_t(std::countr_zero(cand));
        const DramRequest& r = q[i];
        const unsigned bank = r.coord.bank;
        const DramCmd c = r.write ? DramCmd::Wr : DramCmd::Rd;
        const uint64_t at = timing.earliest(c, bank);
        if (at <= cycle) return Decision{i, c};
        quiet = std::min(quiet, at);
        cand &= ~(m.bank(bank) & (r.write ? writes : ~writes));
    }
    // Pass 2: oldest first, the first legal row command of a bank's oldest non-hit.
    for (uint64_t cand = eligible & ~hits; cand;) {
        const size_t i = size_t(std::countr_zero(cand));
        const unsigned bank = q[i].coord.bank;
        cand &= ~m.bank(bank);
        const DramCmd c = banks[bank].rowOpen() ? DramCmd::Pre : DramCmd::Act;
        if (c == DramCmd::Pre && (hits & m.bank(bank))) continue;  // hits keep the row open
        const uint64_t at = timing.earliest(c, bank);
        if (at <= cycle) return Decision{i, c};
        quiet = std::min(quiet, at);
    }
    return std::nullopt;
}

std::optional<DramScheduler::Decision> DramScheduler::maskedFcfs(const std::vector<DramRequest>& q,
                                                                 DramQueueMasks& m,
                                                                 const std::vector<DramBank>& banks,
                                                                 const DramTimingChecker& timing,
                                                                 uint64_t cycle, uint64_t& quiet) const {
    for (uint64_t cand = m.eligible(q, cycle, quiet); cand;) {
        const size_t i = size_t(std::countr_zero(cand));
        const DramRequest& r = q[i];
        cand &= ~m.bank(r.coord.bank);  // only each bank's oldest
        const DramCmd c = nextCommand(r, banks[r.coord.bank]);
        const uint64_t at = timing.earliest(c, r.coord.bank);
        if (at <= cycle) return Decision{i, c};
        quiet = std::min(quiet, at);
    }
    return std::nullopt;
}

} // namespace gpusim
