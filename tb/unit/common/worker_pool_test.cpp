// WorkerPool (common/WorkerPool.hpp) and ClockDomain's phased ticking: every job runs once, on
// the thread the static split gives it; the exception of the lowest job index is the one
// rethrown; a phased domain steps every unit of a run before committing any, and commits in
// registration order whatever the thread count.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "common/ClockDomain.hpp"
#include "common/WorkerPool.hpp"

namespace worker_pool_test {

using namespace gpusim;

TEST(WorkerPool, EveryJobRunsOnceOnItsThreadEveryBatch) {
    WorkerPool pool(3);
    ASSERT_EQ(pool.threads(), 3u);
    const std::thread::id caller = std::this_thread::get_id();
    for (int batch = 0; batch < 200; ++batch) {
        std::vector<std::atomic<int>> runs(10);
        std::vector<std::thread::id> by(10);
        pool.run(10, [&](size_t i) {
            ++runs[i];
            by[i] = std::this_thread::get_id();
        });
        for (size_t i = 0; i < 10; ++i) {
            EXPECT_EQ(runs[i].load(), 1) << "job " << i;
            // Job i goes to thread i mod 3, the caller being thread 0.
            EXPECT_EQ(by[i] == caller, i % 3 == 0) << "job " << i;
            EXPECT_EQ(by[i], by[i % 3]) << "job " << i;
        }
    }
}

TEST(WorkerPool, OneThreadIsAPlainLoopInOrder) {
    WorkerPool pool(1);
    std::vector<size_t> order;
    pool.run(5, [&](size_t i) { order.push_back(i); });
    EXPECT_EQ(order, (std::vector<size_t>{0, 1, 2, 3, 4}));
}

TEST(WorkerPool, TheLowestFailingJobsExceptionIsRethrownAfterTheBatch) {
    WorkerPool pool(2);
    std::vector<std::atomic<int>> runs(6);
    try {
        pool.run(6, [&](size_t i) {
            ++runs[i];
            if (i == 3 || i == 4) throw std::runtime_error("job " + std::to_string(i));
        });
        FAIL() << "no exception";
    } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "job 3");
    }
    for (size_t i = 0; i < 6; ++i) EXPECT_EQ(runs[i].load(), 1) << "job " << i;
    // The pool is usable again, with no stale error.
    pool.run(6, [&](size_t i) { ++runs[i]; });
    for (size_t i = 0; i < 6; ++i) EXPECT_EQ(runs[i].load(), 2) << "job " << i;
}

// A unit that records its steps and commits in a shared log (guarded: steps run concurrently).
struct Logged : PhasedTickable {
    Logged(int id, std::vector<std::string>& log, std::mutex& m) : id(id), log(log), m(m) {}
    void step(uint64_t) override {
        std::lock_guard<std::mutex> g(m);
        log.push_back("s" + std::to_string(id));
    }
    void commit() override { log.push_back("c" + std::to_string(id)); }
    bool busy() const override { return false; }
    int id;
    std::vector<std::string>& log;
    std::mutex& m;
};

struct Plain : Tickable {
    explicit Plain(std::vector<std::string>& log) : log(log) {}
    void tick(uint64_t) override { log.push_back("t"); }
    bool busy() const override { return false; }
    std::vector<std::string>& log;
};

// Units A B (phased), P (plain), C (phased): one edge. Steps of a run in any order (threads),
// then its commits in order; the plain unit between the two runs.
void phasedEdge(unsigned threads) {
    std::vector<std::string> log;
    std::mutex m;
    Logged a(0, log, m), b(1, log, m), c(2, log, m);
    Plain p(log);
    ClockDomain clock("clk", sc_core::sc_time(1, sc_core::SC_NS));
    clock.add(&a);
    clock.add(&b);
    clock.add(&p);
    clock.add(&c);
    clock.setPhased(threads);
    EXPECT_EQ(clock.threads(), threads);
    clock.wake();
    sc_core::sc_start(sc_core::sc_time(1500, sc_core::SC_PS));  // one edge, at 1 ns
    ASSERT_EQ(log.size(), 7u);
    std::vector<std::string> firstTwo{log[0], log[1]};
    std::sort(firstTwo.begin(), firstTwo.end());
    EXPECT_EQ(firstTwo, (std::vector<std::string>{"s0", "s1"}));
    EXPECT_EQ(std::vector<std::string>(log.begin() + 2, log.end()),
              (std::vector<std::string>{"c0", "c1", "t", "s2", "c2"}));
}

// A unit whose step leaves nothing to commit (commitDue_ false) is not committed that edge:
// unit A asks for its commit at even cycles only, B always; edges at cycles 1..4.
struct Sometimes : Logged {
    using Logged::Logged;
    void step(uint64_t cycle) override {
        Logged::step(cycle);
        commitDue_ = id != 0 || cycle % 2 == 0;
    }
};

// Phased units A and B, then a plain unit that keeps the domain busy for `edges` edges (cycles
// 1..edges), on `threads` threads.
void runTwoPhased(PhasedTickable& a, PhasedTickable& b, unsigned edges, unsigned threads) {
    struct Busy : Tickable {
        unsigned left;
        explicit Busy(unsigned n) : left(n) {}
        void tick(uint64_t) override { --left; }
        bool busy() const override { return left > 0; }
    } busy(edges);
    ClockDomain clock("clk", sc_core::sc_time(1, sc_core::SC_NS));
    clock.add(&a);
    clock.add(&b);
    clock.add(&busy);
    clock.setPhased(threads);
    clock.wake();
    sc_core::sc_start(sc_core::sc_time(2 * edges, sc_core::SC_NS));
}

void commitOnlyWhenDue(unsigned threads) {
    std::vector<std::string> log;
    std::mutex m;
    Sometimes a(0, log, m), b(1, log, m);
    runTwoPhased(a, b, 4, threads);
    std::vector<std::string> commits;
    for (const auto& e : log)
        if (e[0] == 'c') commits.push_back(e);
    EXPECT_EQ(commits, (std::vector<std::string>{"c1", "c0", "c1", "c1", "c0", "c1"}));  // cycles 1, 2, 3, 4
    EXPECT_EQ(log.size() - commits.size(), 8u);  // every step ran
}

// A unit asleep until a cycle (PhasedTickable::sleepUntil_) is not stepped nor committed before
// it; the domain counts each skipped edge for it. Unit A, at its step at cycle 1, asks for its
// commit and sleeps until cycle 4; B steps every edge. Edges at cycles 1..5: A steps at 1, 4
// and 5 (skipping 2 and 3: two skipped edges), is committed at 1 only (its step at 4 asks
// nothing), although its commitDue_ from cycle 1 would still say so at 2.
struct Sleeper : Logged {
    using Logged::Logged;
    void step(uint64_t cycle) override {
        Logged::step(cycle);
        commitDue_ = id != 0 || cycle == 1;
        if (id == 0 && cycle == 1) sleepUntil_ = 4;
    }
    uint64_t skipped() const { return skipped_; }
};

void sleepSkipped(unsigned threads) {
    std::vector<std::string> log;
    std::mutex m;
    Sleeper a(0, log, m), b(1, log, m);
    runTwoPhased(a, b, 5, threads);
    std::vector<std::string> ofA;
    for (const auto& e : log)
        if (e.size() == 2 && e[1] == '0') ofA.push_back(e);
    EXPECT_EQ(ofA, (std::vector<std::string>{"s0", "c0", "s0", "s0"}));
    EXPECT_EQ(a.skipped(), 2u);
    EXPECT_EQ(b.skipped(), 0u);
    EXPECT_EQ(std::count(log.begin(), log.end(), "s1"), 5);
}

TEST(PhasedClockDomain, AnAsleepUnitIsNeitherSteppedNorCommittedAndItsEdgesAreCounted) { sleepSkipped(1); }
TEST(PhasedClockDomain, AnAsleepUnitIsNeitherSteppedNorCommittedOnTwoThreads) { sleepSkipped(2); }

TEST(PhasedClockDomain, AUnitIsCommittedOnlyWhenItsStepLeftSomething) { commitOnlyWhenDue(1); }
TEST(PhasedClockDomain, AUnitIsCommittedOnlyWhenItsStepLeftSomethingOnTwoThreads) { commitOnlyWhenDue(2); }

TEST(PhasedClockDomain, OneThreadStepsTheRunThenCommitsInOrder) { phasedEdge(1); }
TEST(PhasedClockDomain, TwoThreadsStepTheRunThenCommitInOrder) { phasedEdge(2); }

} // namespace worker_pool_test
