#pragma once
// A fixed set of threads that run one batch of independent jobs at a time, for --threads: the
// SMs of a core cycle (ClockDomain). run(n, f) calls f(0) .. f(n-1) and returns when all are
// done; job i always goes to thread i mod T (the caller is thread 0), so the split is the same
// every call. Between batches the workers spin briefly, then sleep on an atomic wait: a core
// cycle is a few microseconds of work, so waking by a condition variable would cost more than
// the jobs. An exception thrown by a job is caught and the one of the lowest job index is
// rethrown by run() after the whole batch finished, as a serial loop would have thrown it first.
// Not a general task pool: one batch at a time, from one calling thread.
#include <atomic>
#include <cstdint>
#include <exception>
#include <functional>
#include <thread>
#include <vector>

namespace gpusim {

class WorkerPool {
public:
    // `threads` >= 1 in all, the caller included (1: run() is a plain loop).
    explicit WorkerPool(unsigned threads);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }
    void run(size_t n, const std::function<void(size_t)>& f);

private:
    void work(unsigned t);
    void jobs(unsigned t);

    std::vector<std::thread> workers_;
    const std::function<void(size_t)>* f_ = nullptr;
    size_t n_ = 0;
    std::vector<std::exception_ptr> errors_;  // per job, this batch
    std::atomic<uint64_t> generation_{0};     // bumped to start a batch
    std::atomic<unsigned> pending_{0};        // workers not yet done with this batch
    std::atomic<bool> stop_{false};
    std::atomic<bool> failed_{false};  // some job of this batch threw
};

} // namespace gpusim
