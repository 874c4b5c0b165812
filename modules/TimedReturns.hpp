#pragma once
// The LD/ST unit's returns that complete at a cycle known when they start (L1D and constant
// hits, shared-memory passes, accesses that need no memory): taken in order of (ready cycle,
// start order), as one priority queue would give them. Most start in that order already (one
// hit latency, one access a cycle), so those wait in a FIFO and only the others in a heap; the
// next return is the earlier of the two fronts. The same order as the heap alone, without its
// sift on every push and pop (issue 19: the heap was 1.6 % of a divergent run).
#include <cstddef>
#include <cstdint>
#include <queue>
#include <vector>

#include "common/RingQueue.hpp"

namespace gpusim {

class TimedReturns {
public:
    void push(uint64_t ready, uint32_t token) {
        const Entry e{ready, seq_++, token};
        // Behind the FIFO's last entry in (ready, start) order: a later start with a ready cycle
        // no earlier.
        if (fifo_.empty() || ready >= fifoLastReady_) {
            fifo_.push_back(e);
            fifoLastReady_ = ready;
        } else {
            heap_.push(e);
        }
    }
    bool empty() const { return fifo_.empty() && heap_.empty(); }
    size_t size() const { return fifo_.size() + heap_.size(); }
    // The earliest ready cycle (UINT64_MAX: none).
    uint64_t nextReady() const {
        const uint64_t f = fifo_.empty() ? UINT64_MAX : fifo_.front().ready;
        const uint64_t h = heap_.empty() ? UINT64_MAX : heap_.top().ready;
        return f < h ? f : h;
    }
    // Takes the earliest return if it is due by `cycle`, its token in `token`.
    bool popDue(uint64_t cycle, uint32_t& token) {
        const bool f = !fifo_.empty(), h = !heap_.empty();
        if (f && (!h || Later{}(heap_.top(), fifo_.front()))) {
            if (fifo_.front().ready > cycle) return false;
            token = fifo_.front().token;
            fifo_.pop_front();
            return true;
        }
        if (!h || heap_.top().ready > cycle) return false;
        token = heap_.top().token;
        heap_.pop();
        return true;
    }

private:
    struct Entry {
        uint64_t ready;
        uint64_t seq;  // start order: breaks ties between equal ready cycles
        uint32_t token;
    };
    struct Later {  // a after b; the heap's "less", so the earliest is on top
        bool operator()(const Entry& a, const Entry& b) const {
            return a.ready != b.ready ? a.ready > b.ready : a.seq > b.seq;
        }
    };
    RingQueue<Entry> fifo_;
    uint64_t fifoLastReady_ = 0;
    std::priority_queue<Entry, std::vector<Entry>, Later> heap_;
    uint64_t seq_ = 0;
};

} // namespace gpusim
