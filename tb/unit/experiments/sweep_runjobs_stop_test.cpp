// runJobs' stop callback (experiments/Subprocess.hpp), which `gpusim sweep` uses for Ctrl-C: once
// it returns true no further job starts, the running ones get SIGINT, and runJobs returns when
// they have ended, reporting them with status 128 + SIGINT.
#include <gtest/gtest.h>

#include <chrono>
#include <csignal>

#include "experiments/Subprocess.hpp"

namespace sweep_runjobs_stop_test {

using namespace gpusim;

TEST(SweepRunJobsStop, StopsStartingAndInterruptsTheRunningJob) {
    // stop() is asked before the first start: true from the outset, so nothing may run.
    std::vector<ProcessJob> jobs(3, ProcessJob{{"/bin/sleep", "30"}, "/dev/null", "/dev/null"});
    size_t done = 0;
    runJobs(jobs, 1, [&](size_t, const ProcessOutcome&) { ++done; }, [] { return true; });
    EXPECT_EQ(done, 0u);  // stopped before anything started
}

TEST(SweepRunJobsStop, RunningJobGetsSigintAndIsReported) {
    // Two jobs in parallel: job 0 exits at once, job 1 sleeps 30 s. stop() is false on the first
    // pass (both start), true on the second (after job 0's wait returned): job 1 must then be
    // interrupted rather than waited for, and job 2 never starts.
    std::vector<ProcessJob> jobs{{{"/bin/true"}, "/dev/null", "/dev/null"},
                                 {{"/bin/sleep", "30"}, "/dev/null", "/dev/null"},
                                 {{"/bin/true"}, "/dev/null", "/dev/null"}};
    std::vector<int> status(3, -1);
    int calls = 0;
    const auto t0 = std::chrono::steady_clock::now();
    runJobs(jobs, 2, [&](size_t i, const ProcessOutcome& o) { status[i] = o.status; },
            [&] { return ++calls >= 2; });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(status[0], 0);
    EXPECT_EQ(status[1], 128 + SIGINT);
    EXPECT_EQ(status[2], -1);
    EXPECT_LT(seconds, 20.0);  // not the 30 s of the sleep: a loose bound, this is no timing test
    // Existing callers pass no stop: every job runs.
    std::vector<int> all(3, -1);
    runJobs({{{"/bin/true"}, "/dev/null", "/dev/null"}, {{"/bin/false"}, "/dev/null", "/dev/null"}}, 2,
            [&](size_t i, const ProcessOutcome& o) { all[i] = o.status; });
    EXPECT_EQ(all[0], 0);
    EXPECT_EQ(all[1], 1);
}

} // namespace sweep_runjobs_stop_test
