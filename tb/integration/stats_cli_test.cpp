// `gpusim stats` and `gpusim run --stats-text` (every statistic with its description and unit,
// GPU-wide totals per unit) against a golden text of a small run, and `gpusim diff` on two
// hand-made files whose differences are worked out below. GPUSIM_BLESS_STATS_TEXT=1 rewrites the
// golden (then look at its diff before committing it).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tb/common/ProcessRunner.hpp"

namespace stats_cli_test {

using namespace gpusim::tb;
using nlohmann::json;
namespace fs = std::filesystem;

const fs::path kGolden = fs::path(GPUSIM_SOURCE_DIR) / "tb/data/stats_text/vectoradd_n=1024_2sms.txt";

// Everything after the first line (the first names the source: "this run" or the file).
std::string body(const std::string& text) { return text.substr(text.find('\n') + 1); }

TEST(StatsText, SmallRunMatchesTheGoldenAndTheStatsCommandPrintsTheSame) {
    ScratchDir dir;
    const std::string json = (dir.path() / "s.json").string(), text = (dir.path() / "s.txt").string();
    const ProcessResult r = runGpusim({"run", "-q", "-w", "vectoradd:n=1024", "--set", "gpu.num_sms=2", "--stats",
                                       json, "--stats-text", text});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string written = readFile(text);
    if (std::getenv("GPUSIM_BLESS_STATS_TEXT")) writeFile(kGolden, written);
    EXPECT_EQ(written, readFile(kGolden)) << "GPUSIM_BLESS_STATS_TEXT=1 rewrites " << kGolden;
    const ProcessResult s = runGpusim({"stats", json});
    ASSERT_EQ(s.status, 0) << s.err;
    EXPECT_EQ(body(s.out), body(written));
    EXPECT_EQ(s.out.substr(0, s.out.find('\n')), "# gpusim statistics of " + json + ": fermi15 / gto / vectoradd {\"n\":1024}");
}

TEST(StatsText, TotalsDescriptionsAndUnits) {
    // A hand-made file: two SMs' counters and averages, a described and an undescribed statistic.
    ScratchDir dir;
    const fs::path f = dir.path() / "h.json";
    writeFile(f, R"({"stats": {"sm0.issued": 10, "sm1.issued": 30, "gpu.cycles": 100,
        "sm0.ldst.load_latency": {"mean": 20, "count": 1, "sum": 20, "min": 20, "max": 20},
        "sm1.ldst.load_latency": {"mean": 40, "count": 3, "sum": 120, "min": 30, "max": 50}},
      "descriptions": {"sm0.issued": "Warp instructions issued", "sm1.issued": "Warp instructions issued"}})");
    const ProcessResult r = runGpusim({"stats", f.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    // sm*.issued = 10 + 30; the latency pools 4 samples: (20 + 120) / 4 = 35, min 20, max 50.
    EXPECT_NE(r.out.find("sm*.issued                         40  # sum over 2: Warp instructions issued (count)\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("sm*.ldst.load_latency              35  # (core cycles; mean of 4 samples, min 20, max 50)\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("gpu.cycles                        100  # (core cycles)\n"), std::string::npos) << r.out;
    // Groups in the order gpu, then sm; SM 0 before SM 1.
    EXPECT_LT(r.out.find("---------- gpu"), r.out.find("---------- sm"));
    EXPECT_LT(r.out.find("sm0.issued"), r.out.find("sm1.issued"));
}

TEST(StatsText, BadFilesExitTwoNamingTheFile) {
    ScratchDir dir;
    const fs::path f = dir.path() / "bad.json";
    writeFile(f, R"({"config": {}})");
    ProcessResult r = runGpusim({"stats", f.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find(f.string() + ": no \"stats\" object"), std::string::npos) << r.err;
    writeFile(f, R"({"stats": {"x": "text"}})");
    r = runGpusim({"stats", f.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("stats.x: expected a number"), std::string::npos) << r.err;
    r = runGpusim({"stats", (dir.path() / "missing.json").string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("missing.json: cannot open"), std::string::npos) << r.err;
}

struct Diff : ::testing::Test {
    ScratchDir dir;
    std::string a = (dir.path() / "a.json").string(), b = (dir.path() / "b.json").string();
    void SetUp() override {
        // Changes (B - A) / |A|: x 100 -> 101 +1 %; y 50 -> 40 -20 %; z 0 -> 5 +inf; w 7 -> 7 none;
        // m (an average's mean) 2 -> 3 +50 %; only_a and only_b on one side.
        writeFile(a, R"({"stats": {"x": 100, "y": 50, "z": 0, "w": 7, "only_a": 1,
                         "m": {"mean": 2, "count": 4, "sum": 8, "min": 1, "max": 3}}})");
        writeFile(b, R"({"stats": {"x": 101, "y": 40, "z": 5, "w": 7, "only_b": 2,
                         "m": {"mean": 3, "count": 4, "sum": 12, "min": 1, "max": 5}}})");
    }
};

TEST_F(Diff, SortedByRelativeChangeThenOneSided) {
    const ProcessResult r = runGpusim({"diff", a, b});
    EXPECT_EQ(r.status, 1) << r.err;
    const std::string expected =
        "statistic               A               B  change\n"
        "z                       0               5  +inf (A is 0)\n"
        "m                       2               3  +50.00%\n"
        "y                      50              40  -20.00%\n"
        "x                     100             101  +1.00%\n"
        "only_a                  1               -  only in A\n"
        "only_b                  -               2  only in B\n"
        "6 statistics differ by more than 0\n";
    EXPECT_EQ(body(body(r.out)), expected) << r.out;
}

TEST_F(Diff, ThresholdLeavesOutSmallChanges) {
    // 1 % is not more than 1 %: x goes; 20 % is more than 5 %, 50 % too.
    ProcessResult r = runGpusim({"diff", a, b, "--threshold", "1%"});
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.out.find("\nx "), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\ny "), std::string::npos) << r.out;
    r = runGpusim({"diff", a, b, "--threshold", "0.6"});  // 60 %: only the infinite change and the one-sided
    EXPECT_NE(r.out.find("3 statistics differ by more than 0.6"), std::string::npos) << r.out;
    r = runGpusim({"diff", a, a});
    EXPECT_EQ(r.status, 0);
    EXPECT_NE(r.out.find("no statistic differs"), std::string::npos) << r.out;
}

TEST_F(Diff, BadThresholdAndFileCountExitTwo) {
    ProcessResult r = runGpusim({"diff", a, b, "--threshold", "abc"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--threshold: 'abc'"), std::string::npos) << r.err;
    r = runGpusim({"diff", a, b, "--threshold", "-1%"});
    EXPECT_EQ(r.status, 2);
    r = runGpusim({"diff", a});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("expected two statistics files"), std::string::npos) << r.err;
}

} // namespace stats_cli_test

namespace stats_cli_test {

// Per-kernel windows on two streams overlapping (mixed concurrency): vectorAdd (stream 0) runs
// beside atax_kernel1 (stream 1); atax_kernel2 starts after both ended and runs alone. A window
// counts everything in it: the lone kernel's instructions are exactly its own (the dispatcher's
// count, kernels[].warp_instructions), the overlapping one's include its neighbour's.
TEST(KernelStats, WindowsCountOverlapsInBothAndALoneKernelExactly) {
    ScratchDir dir;
    const std::string f = (dir.path() / "c.json").string();
    const ProcessResult r = runGpusim({"run", "-q", "-w", "concurrent:vectoradd:n=4096+atax:n=64", "--set",
                                       "gpu.kernel_concurrency=mixed", "--stats", f});
    ASSERT_EQ(r.status, 0) << r.err;
    const json doc = json::parse(readFile(f));
    const json& ks = doc["kernel_stats"];
    const json& kernels = doc["kernels"];
    ASSERT_EQ(ks.size(), 3u);
    for (size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(ks[i]["name"], kernels[i]["name"]);
        EXPECT_EQ(ks[i]["start_cycle"], kernels[i]["start_cycle"]);
        EXPECT_EQ(ks[i]["end_cycle"], kernels[i]["end_cycle"]);
    }
    // The lone kernel starts after the other two ended.
    ASSERT_GT(kernels[2]["start_cycle"].get<uint64_t>(), kernels[0]["end_cycle"].get<uint64_t>());
    EXPECT_EQ(ks[2]["stats"]["sm*.issued"], kernels[2]["warp_instructions"]);
    EXPECT_GT(ks[0]["stats"]["sm*.issued"].get<double>(), kernels[0]["warp_instructions"].get<double>());
    // Streams: the sums of their kernels' windows.
    const json& ss = doc["stream_stats"];
    ASSERT_EQ(ss.size(), 2u);
    EXPECT_EQ(ss[1]["kernels"], 2);
    EXPECT_EQ(ss[1]["stats"]["sm*.issued"].get<double>(),
              ks[1]["stats"]["sm*.issued"].get<double>() + ks[2]["stats"]["sm*.issued"].get<double>());
}

} // namespace stats_cli_test

namespace stats_cli_test {

// `gpusim report RUN.json`: a sampled run's page, one line chart per figure and one of the SMs.
TEST(RunReport, SampledRunGetsItsTimeSeriesCharts) {
    ScratchDir dir;
    const std::string f = (dir.path() / "r.json").string(), out = (dir.path() / "page").string();
    ASSERT_EQ(runGpusim({"run", "-q", "-w", "atax:n=64", "--stats", f, "--sample-interval", "2000"}).status, 0);
    const ProcessResult r = runGpusim({"report", f, "--out", out});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("(7 charts)"), std::string::npos) << r.out;
    for (const char* c : {"ts_ipc", "ts_miss_rates", "ts_dram_bandwidth", "ts_dram_row_hits", "ts_noc_latency",
                          "ts_active_warps", "ts_sm_ipc"})
        EXPECT_TRUE(fs::exists(fs::path(out) / (std::string(c) + ".svg"))) << c;
    const std::string html = readFile(fs::path(out) / "report.html");
    EXPECT_NE(html.find("atax_kernel2"), std::string::npos);
}

} // namespace stats_cli_test
