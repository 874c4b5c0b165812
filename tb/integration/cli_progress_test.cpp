// `gpusim run --progress`: plain lines on stderr (never stdout), each consistent with itself and
// later than the one before, statistics identical with and without the display, nothing shown
// for a short run by default, and the option's bad values refused.
#include <gtest/gtest.h>

#include <regex>

#include <nlohmann/json.hpp>

#include "tb/common/ProcessRunner.hpp"

namespace cli_progress_test {

using namespace gpusim::tb;

// 262144 threads in CTAs of 256: 1024 CTAs, one kernel; about a second of host time.
const std::vector<std::string> kRun = {"run", "-q", "--platform", "fermi15", "--scheduler", "gto",
                                       "--workload", "vectoradd:n=262144"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& more) {
    a.insert(a.end(), more.begin(), more.end());
    return a;
}

TEST(CliProgress, PlainLinesOnStderrAndIdenticalStatistics) {
    ScratchDir dir;
    const auto shown = dir / "shown.json", hidden = dir / "hidden.json";
    const ProcessResult a =
        runGpusim(with(kRun, {"--progress=plain", "--progress-interval=0.05", "--stats", shown.string()}));
    const ProcessResult b = runGpusim(with(kRun, {"--progress=none", "--stats", hidden.string()}));
    ASSERT_EQ(a.status, 0) << a.err;
    ASSERT_EQ(b.status, 0) << b.err;
    EXPECT_EQ(a.out, "");  // --quiet: no summary, and the display never goes to stdout
    EXPECT_EQ(b.err, "");

    const std::regex line(R"(\[gpusim\] ([0-9]+\.[0-9]) % done \(([0-9]+)/1024 CTAs\), ETA ([0-9]+:[0-9]{2}|\?), )"
                          R"([0-9]+:[0-9]{2} elapsed; kernels 0/1 ended, running kernel0 \(vectorAdd\) CTA ([0-9]+)/1024; )"
                          R"(cycle ([0-9]+), IPC [0-9]+\.[0-9]{3}, [0-9]+ cycles/s)");
    const auto lines = a.errLines();
    ASSERT_GE(lines.size(), 1u) << "a second's run with a line every 0.05 s showed none";
    uint64_t lastCycle = 0;
    for (const auto& l : lines) {
        std::smatch m;
        ASSERT_TRUE(std::regex_match(l, m, line)) << l;
        const unsigned done = std::stoul(m[2]);
        EXPECT_EQ(std::stoul(m[4]), done) << "one kernel: its CTAs are all the workload's";
        char percent[16];
        std::snprintf(percent, sizeof percent, "%.1f", 100.0 * done / 1024);
        EXPECT_EQ(m[1].str(), percent) << l;
        const uint64_t cycle = std::stoull(m[5]);
        EXPECT_GT(cycle, lastCycle) << l;
        EXPECT_EQ(cycle % 1024, 0u) << "the clock is looked at every 1024th cycle";
        lastCycle = cycle;
    }

    // Everything but the host's own figures is the same.
    nlohmann::json x = nlohmann::json::parse(readFile(shown)), y = nlohmann::json::parse(readFile(hidden));
    for (auto* j : {&x, &y}) {
        j->erase("host_seconds");
        j->erase("sim_rate_cycles_per_second");
    }
    EXPECT_GT(x["stats"].size(), 100u);
    EXPECT_EQ(x, y);
}

TEST(CliProgress, ByDefaultAShortRunWithoutATerminalShowsNothing) {
    // auto without a terminal is plain lines, the first after --progress-interval (10 s).
    const ProcessResult r = runGpusim({"run", "--workload", "vectoradd:n=256"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    EXPECT_NE(r.out.find("cycles"), std::string::npos);
}

TEST(CliProgress, BadValuesAreRefused) {
    const ProcessResult a = runGpusim(with(kRun, {"--progress=fancy"}));
    EXPECT_EQ(a.status, 2);
    EXPECT_EQ(a.err, "gpusim: error: --progress: 'fancy' is not a progress display (bar, plain or none)\n");
    const ProcessResult b = runGpusim(with(kRun, {"--progress-interval=0"}));
    EXPECT_EQ(b.status, 2);
    EXPECT_EQ(b.err, "gpusim: error: --progress-interval: 0 is not in 0.01..86400 seconds\n");
}

} // namespace cli_progress_test
