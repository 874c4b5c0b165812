#pragma once
// Round-robin arbiter for one output port: priority starts just after the last winner, so
// under persistent contention every requester is served once per round (no starvation) and
// ties are settled by port index alone (deterministic). The first ever grant goes to the
// lowest-numbered requester. Left out: iSLIP's accept phase and multiple iterations, which only
// matter once an input can request several outputs (virtual output queues, the router family).
#include <cstddef>

namespace gpusim {

class RoundRobinArbiter {
public:
    static constexpr int kNone = -1;

    explicit RoundRobinArbiter(unsigned requesters)
        : n_(requesters), last_(requesters == 0 ? 0 : requesters - 1) {}

    // The requester that wins among those for which `requests(i)` is true, or kNone. Does not
    // move the priority pointer: the caller decides whether the grant is used (grant()).
    template <class Requests>
    int pick(Requests&& requests) const {
        for (unsigned k = 1; k <= n_; ++k) {
            const unsigned i = (last_ + k) % n_;
            if (requests(i)) return static_cast<int>(i);
        }
        return kNone;
    }

    void grant(unsigned winner) { last_ = winner; }
    unsigned lastWinner() const { return last_; }
    unsigned size() const { return n_; }

private:
    unsigned n_;
    unsigned last_;
};

} // namespace gpusim
