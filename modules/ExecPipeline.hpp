#pragma once
// A pool of identical execution pipelines (the ALU's SIMD groups, the SFU): each accepts a warp
// instruction every `interval` cycles (a 32-thread warp on a 16-lane unit needs 2) and delivers
// its result `latency` cycles after issue. Results leave in issue order (fixed latency).
#include <cstdint>
#include <vector>

#include "common/RingQueue.hpp"

namespace gpusim {

class ExecPipeline {
public:
    struct Result {
        uint64_t readyCycle;
        unsigned warp;
        uint16_t dst[2];
    };

    ExecPipeline(unsigned units, unsigned latency, unsigned interval)
        : nextFree_(units, 0), latency_(latency), interval_(interval) {}

    bool canAccept(uint64_t cycle) const {
        for (auto f : nextFree_)
            if (f <= cycle) return true;
        return false;
    }
    void issue(uint64_t cycle, unsigned warp, uint16_t dst0, uint16_t dst1) {
        for (auto& f : nextFree_) {
            if (f <= cycle) {
                f = cycle + interval_;
                inflight_.push_back({cycle + latency_, warp, {dst0, dst1}});
                return;
            }
        }
    }
    // Results due at or before `cycle`, oldest first.
    template <class F>
    void drain(uint64_t cycle, F&& f) {
        while (!inflight_.empty() && inflight_.front().readyCycle <= cycle) {
            f(inflight_.front());
            inflight_.pop_front();
        }
    }
    bool empty() const { return inflight_.empty(); }
    // The cycle the oldest result is due (UINT64_MAX: none in flight).
    uint64_t nextReady() const { return inflight_.empty() ? UINT64_MAX : inflight_.front().readyCycle; }
    size_t inflight() const { return inflight_.size(); }

private:
    std::vector<uint64_t> nextFree_;
    RingQueue<Result> inflight_;
    unsigned latency_, interval_;
};

} // namespace gpusim
