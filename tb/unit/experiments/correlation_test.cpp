// The correlation's arithmetic and text (experiments/Correlation): reading a reference file and
// its errors, counting our figures from a --stats document as the reference counts them, the
// error measures, and the page. Expectations are computed by hand below.
#include <gtest/gtest.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "common/SimError.hpp"
#include "experiments/Correlation.hpp"

namespace correlation_test {

using nlohmann::json;
using namespace gpusim;
using namespace gpusim::correlation;

namespace {

json refRow(const std::string& workload, double instructions, double cycles) {
    return json{{"workload", workload},
                {"export", "gpusim trace export --workload " + workload + " --out DIR"},
                {"warp_instructions", instructions},
                {"cycles_700mhz", cycles},
                {"ipc", instructions / cycles},
                {"l1d_read_accesses", 100},
                {"l1d_read_misses", 40},
                {"l2_read_accesses", 160},
                {"l2_read_misses", 80},
                {"dram_reads", 80},
                {"dram_writes", 2},
                {"avg_mem_latency_cycles", 300}};
}

// A --stats document of a two-SM, two-slice, two-controller platform at `clockMhz`.
json statsDoc(double clockMhz) {
    return json{{"config", {{"sm.clock_mhz", clockMhz}}},
                {"summary", {{"ipc", 0.0}}},
                {"stats",
                 {{"gpu.cycles", 2000},
                  {"gpu.warp_instructions", 3000},
                  {"sm0.l1d.read_hits", 10},
                  {"sm1.l1d.read_hits", 5},
                  {"sm0.l1d.read_hits_intra_warp", 7},  // a part of read_hits: not added again
                  {"sm0.l1d.read_misses", 3},
                  {"sm1.l1d.read_misses", 0},
                  {"sm0.l1d.mshr_merges", 2},
                  {"l2.slice0.read_hits", 4},
                  {"l2.slice1.read_hits", 2},
                  {"l2.slice0.read_misses", 2},
                  {"l2.slice0.mshr_merges", 1},  // inside read_misses already
                  {"mem0.cmd_rd", 4},
                  {"mem1.cmd_rd", 4},
                  {"mem0.cmd_wr", 2}}}};
}

std::string errorOf(const json& doc) {
    try {
        parseReference(doc, "ref.json");
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

} // namespace

TEST(Correlation, ReadsTheReferenceRowsAndTheirIpc) {
    const auto rows = parseReference(json::array({refRow("a:n=1", 1000, 500), refRow("b", 300, 600)}), "ref.json");
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].workload, "a:n=1");
    EXPECT_EQ(rows[0].figures.warpInstructions, 1000u);
    EXPECT_DOUBLE_EQ(rows[0].figures.ipc, 2.0);
    EXPECT_DOUBLE_EQ(rows[1].figures.ipc, 0.5);
    EXPECT_DOUBLE_EQ(rows[0].figures.l1dMissRate(), 0.4);
    EXPECT_DOUBLE_EQ(rows[0].figures.l2MissRate(), 0.5);
    EXPECT_DOUBLE_EQ(rows[0].figures.dramReads, 80);
}

TEST(Correlation, ABadReferenceNamesFileRowAndKey) {
    EXPECT_EQ(errorOf(json::object()), "ref.json: must be a non-empty JSON array of rows");
    json missing = refRow("b", 1, 1);
    missing.erase("cycles_700mhz");
    EXPECT_EQ(errorOf(json::array({refRow("a", 1, 1), missing})), "ref.json: row 2 (b): cycles_700mhz: missing");
    json negative = refRow("a", 1, 1);
    negative["dram_reads"] = -1;
    EXPECT_EQ(errorOf(json::array({negative})), "ref.json: row 1 (a): dram_reads: must be a non-negative number, is -1");
    json otherExport = refRow("a", 1, 1);
    otherExport["export"] = "gpusim trace export --workload b --out DIR";
    EXPECT_EQ(errorOf(json::array({otherExport})),
              "ref.json: row 1 (a): export: expected `gpusim trace export --workload a --out DIR`, is `gpusim trace "
              "export --workload b --out DIR`");
    EXPECT_EQ(errorOf(json::array({refRow("a", 1, 1), refRow("a", 2, 2)})), "ref.json: row 2 (a): workload: given twice");
    json tooMany = refRow("a", 1, 1);
    tooMany["l2_read_misses"] = 161;
    EXPECT_EQ(errorOf(json::array({tooMany})), "ref.json: row 1 (a): l2_read_misses: more than l2_read_accesses");
    EXPECT_EQ(errorOf(json::array({refRow("a", 1, 0)})), "ref.json: row 1 (a): cycles_700mhz: must be positive");
}

TEST(Correlation, CountsOursAsTheReferenceCounts) {
    // 2000 cycles at 1400 MHz are 1000 at 700; L1D: 15 hits + 3 misses + 2 merges = 20 accesses,
    // 5 misses; L2: 6 hits + 2 misses (the merge inside) = 8, rate 0.25; DRAM: 8 RD, 2 WR.
    const Figures f = figuresFromStats(statsDoc(1400), "job.json");
    EXPECT_EQ(f.warpInstructions, 3000u);
    EXPECT_DOUBLE_EQ(f.cycles, 1000);
    EXPECT_DOUBLE_EQ(f.ipc, 3.0);
    EXPECT_DOUBLE_EQ(f.l1dReadAccesses, 20);
    EXPECT_DOUBLE_EQ(f.l1dReadMisses, 5);
    EXPECT_DOUBLE_EQ(f.l2ReadAccesses, 8);
    EXPECT_DOUBLE_EQ(f.l2MissRate(), 0.25);
    EXPECT_DOUBLE_EQ(f.dramReads, 8);
    EXPECT_DOUBLE_EQ(f.dramWrites, 2);
    // At 700 MHz the cycles are the reference's unchanged.
    EXPECT_DOUBLE_EQ(figuresFromStats(statsDoc(700), "job.json").cycles, 2000);
    json noClock = statsDoc(700);
    noClock.erase("config");
    try {
        figuresFromStats(noClock, "job.json");
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_STREQ(e.what(), "job.json: no config.sm.clock_mhz in the statistics");
    }
}

TEST(Correlation, PearsonByHand) {
    EXPECT_DOUBLE_EQ(*pearson({1, 2, 3}, {2, 4, 6}), 1.0);
    EXPECT_DOUBLE_EQ(*pearson({1, 2, 3}, {3, 2, 1}), -1.0);
    // Deviations -1.5 -0.5 0.5 1.5 against -1.5 0.5 -0.5 1.5: 4 / sqrt(5 x 5).
    EXPECT_NEAR(*pearson({1, 2, 3, 4}, {1, 3, 2, 4}), 0.8, 1e-12);
    EXPECT_FALSE(pearson({1}, {1}).has_value());
    EXPECT_FALSE(pearson({1, 2}, {5, 5}).has_value());
}

TEST(Correlation, SummaryMeasuresAgainstTheTargets) {
    const auto ref = parseReference(json::array({refRow("a", 1000, 1000), refRow("b", 2000, 1000), refRow("c", 10, 10)}),
                                    "ref.json");
    std::vector<Compared> rows(3);
    for (size_t i = 0; i < 3; ++i) rows[i].reference = &ref[i];
    Figures a = ref[0].figures, b = ref[1].figures;
    a.ipc = 1.1, a.cycles = 1000 / 1.1;                         // +10%
    b.ipc = 1.5, b.cycles = 2000 / 1.5;                         // -25%
    b.l1dReadMisses = 60, b.l2ReadMisses = 40;                  // rates 0.6 and 0.25 against 0.4 and 0.5
    rows[0].ours = a;
    rows[1].ours = b;
    rows[2].error = "exit 3: boom";
    const Summary s = summarise(rows);
    EXPECT_EQ(s.rows, 3u);
    EXPECT_EQ(s.compared, 2u);
    EXPECT_NEAR(s.ipcMape, 0.175, 1e-12);
    EXPECT_NEAR(s.ipcWorst, 0.25, 1e-12);
    EXPECT_EQ(s.ipcWorstWorkload, "b");
    EXPECT_NEAR(s.cyclesMape, (std::abs(1 / 1.1 - 1) + std::abs(1 / 0.75 - 1)) / 2, 1e-12);
    EXPECT_NEAR(s.l1dMissDiff, 0.1, 1e-12);
    EXPECT_NEAR(s.l2MissDiff, 0.125, 1e-12);
    ASSERT_TRUE(s.pearsonIpc.has_value());  // two points: +1 or -1
    EXPECT_NEAR(std::abs(*s.pearsonIpc), 1.0, 1e-12);
    // 17.5% > 15%, and a row failed: not met. Loose targets and every row: met.
    EXPECT_FALSE(s.meets(Targets{}));
    Targets loose{0.2, 0.3, -1.0, 0.2, 0.2};
    EXPECT_FALSE(s.meets(loose));
    rows.pop_back();
    EXPECT_TRUE(summarise(rows).meets(loose));
}

TEST(Correlation, PageListsTheLargestErrorFirstAndTheFailedRows) {
    const auto ref = parseReference(json::array({refRow("small", 1000, 1000), refRow("large", 1000, 1000),
                                                 refRow("broken", 1, 1)}),
                                    "ref.json");
    std::vector<Compared> rows(3);
    for (size_t i = 0; i < 3; ++i) rows[i].reference = &ref[i];
    Figures small = ref[0].figures, large = ref[1].figures;
    small.ipc = 1.05, large.ipc = 0.5;
    rows[0].ours = small;
    rows[1].ours = large;
    rows[2].error = "exit 3: boom";
    PageInfo info{"2026-11-25", "0.1.0", "gpusim correlate", "gtx480", "ref.json", 12};
    const Page p = renderPage(info, rows, "correlation", "## Notes\n\nwhy.");
    EXPECT_EQ(p.chartName, "correlation-ipc-gtx480.svg");
    EXPECT_NE(p.chartSvg.find("<svg"), std::string::npos);
    const auto largeAt = p.markdown.find("| large |"), smallAt = p.markdown.find("| small |"),
               brokenAt = p.markdown.find("| broken |");
    ASSERT_NE(largeAt, std::string::npos);
    EXPECT_LT(largeAt, smallAt);
    EXPECT_LT(smallAt, brokenAt);
    EXPECT_NE(p.markdown.find("-50.0%"), std::string::npos);
    EXPECT_NE(p.markdown.find("failed: exit 3: boom"), std::string::npos);
    EXPECT_NE(p.markdown.find("| rows compared | 2 of 3 | all | **missed** |"), std::string::npos);
    EXPECT_NE(p.markdown.find("![IPC scatter](correlation/correlation-ipc-gtx480.svg)"), std::string::npos);
    EXPECT_EQ(p.markdown.substr(p.markdown.size() - 15), "## Notes\n\nwhy.\n");
}

} // namespace correlation_test
