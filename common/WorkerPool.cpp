#include "common/WorkerPool.hpp"

#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace gpusim {

namespace {

// Waiting for the other threads: a short spin (a batch is a few microseconds), then yielding (so
// that on a machine with more runnable threads than cores the thread we wait for can run), then
// sleeping on the atomic.
constexpr unsigned kSpins = 256, kYields = 64;

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#endif
}

// Returns when a.load() != old.
template <class T>
T waitChange(const std::atomic<T>& a, T old) {
    T v = a.load(std::memory_order_acquire);
    for (unsigned s = 0; v == old && s < kSpins; ++s) {
        relax();
        v = a.load(std::memory_order_acquire);
    }
    for (unsigned y = 0; v == old && y < kYields; ++y) {
        std::this_thread::yield();
        v = a.load(std::memory_order_acquire);
    }
    while (v == old) {
        a.wait(old, std::memory_order_acquire);
        v = a.load(std::memory_order_acquire);
    }
    return v;
}

} // namespace

WorkerPool::WorkerPool(unsigned threads) {
    for (unsigned t = 1; t < threads; ++t) workers_.emplace_back([this, t] { work(t); });
}

WorkerPool::~WorkerPool() {
    stop_.store(true, std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    for (auto& w : workers_) w.join();
}

void WorkerPool::jobs(unsigned t) {
    const size_t step = workers_.size() + 1;
    for (size_t i = t; i < n_; i += step) {
        try {
            (*f_)(i);
        } catch (...) {
            errors_[i] = std::current_exception();
            failed_.store(true, std::memory_order_relaxed);
        }
    }
}

void WorkerPool::work(unsigned t) {
    uint64_t seen = 0;
    for (;;) {
        seen = waitChange(generation_, seen);
        if (stop_.load(std::memory_order_relaxed)) return;
        jobs(t);
        if (pending_.fetch_sub(1, std::memory_order_acq_rel) == 1) pending_.notify_one();
    }
}

void WorkerPool::run(size_t n, const std::function<void(size_t)>& f) {
    if (workers_.empty() || n < 2) {
        for (size_t i = 0; i < n; ++i) f(i);
        return;
    }
    f_ = &f;
    n_ = n;
    if (errors_.size() < n) errors_.resize(n);
    pending_.store(static_cast<unsigned>(workers_.size()), std::memory_order_relaxed);
    generation_.fetch_add(1, std::memory_order_release);
    generation_.notify_all();
    jobs(0);
    for (unsigned left = pending_.load(std::memory_order_acquire); left;) left = waitChange(pending_, left);
    if (!failed_.load(std::memory_order_relaxed)) return;
    failed_.store(false, std::memory_order_relaxed);
    for (size_t i = 0; i < n; ++i)
        if (std::exception_ptr e = std::exchange(errors_[i], nullptr)) {
            for (size_t k = i + 1; k < n; ++k) errors_[k] = nullptr;
            std::rethrow_exception(e);
        }
}

} // namespace gpusim
