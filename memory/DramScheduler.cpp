#include "memory/DramScheduler.hpp"

#include <algorithm>
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
        markNo_ = 1;
    }
    return marks_.data();
}

// In both policies `quiet` takes the minimum of what every candidate waits for: a request not
// yet eligible its eligible cycle, a request whose next command is not legal yet that command's
// earliest cycle. A PRE held back by a bank's pending hits waits for a hit's command, which is a
// candidate of its own (and issuing it ends the quiet period).
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
    // pending hit: their rows stay open.
    uint32_t* const hasHit = beginMarks(banks.size());
    const uint32_t hit = markNo_;
    for (size_t i = 0; i < n; ++i) {
        const DramRequest& r = rq[i];
        if (r.eligibleCycle > cycle) {
            quiet = std::min(quiet, r.eligibleCycle);
            continue;
        }
        const DramBank& b = bk[r.coord.bank];
        if (!b.rowOpen() || b.openRow() != r.coord.row) continue;
        hasHit[r.coord.bank] = hit;
        const DramCmd c = r.write ? DramCmd::Wr : DramCmd::Rd;
        const uint64_t at = timing.earliest(c, r.coord.bank);
        if (at <= cycle) return Decision{i, c};
        quiet = std::min(quiet, at);
    }
    // Pass 2: oldest first, the first row command that is legal now.
    for (size_t i = 0; i < n; ++i) {
        const DramRequest& r = rq[i];
        if (r.eligibleCycle > cycle) continue;
        const DramCmd c = nextCommand(r, bk[r.coord.bank]);
        if (isColumn(c)) continue;                             // a hit not yet legal: wait
        if (c == DramCmd::Pre && hasHit[r.coord.bank] == hit) continue;  // hits keep the row open
        const uint64_t at = timing.earliest(c, r.coord.bank);
        if (at <= cycle) return Decision{i, c};
        quiet = std::min(quiet, at);
    }
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

} // namespace gpusim
