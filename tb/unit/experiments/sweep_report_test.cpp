// experiments/SweepReport: the page and charts made from small hand-written results tables:
// normalised IPC and its geometric mean in the data table (hand-computed below), failed jobs
// listed and left as gaps, the baseline choice, unknown --stat / --baseline refused naming the
// option and listing what exists, charts skipped with a note when their columns are absent, one
// panel per platform and set value, and a page with no external reference.
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "common/SimError.hpp"
#include "experiments/SweepReport.hpp"
#include "tb/common/XmlWellFormed.hpp"

namespace sweep_report_test {

using namespace gpusim::report;
using nlohmann::json;

namespace {

json row(const std::string& sched, const std::string& wl, json ipc, json miss, const std::string& status = "ok",
         const std::string& error = "") {
    return {{"id", "fermi15__" + sched + "__" + wl},
            {"platform", "fermi15"},
            {"scheduler", sched},
            {"workload", wl},
            {"status", status},
            {"error", error},
            {"cycles", status == "ok" ? json(1000) : json()},
            {"warp_instructions", status == "ok" ? json(500) : json()},
            {"ipc", ipc},
            {"l1d_read_miss_rate", miss}};
}

// IPC (gto is the default baseline):
//          A     B     C
//   gto    0.5   1.0   2.0
//   lrr    0.6   0.8   failed        normalised 1.2, 0.8, -   gmean sqrt(1.2 * 0.8) = 0.9798 (2 of 3)
//   swl    1.0   0.5   4.0           normalised 2.0, 0.5, 2.0 gmean cbrt(2 * 0.5 * 2) = 1.2599
// swl/B's miss rate matched nothing (null in an ok row).
json table() {
    json rows = json::array({row("gto", "A", 0.5, 0.1), row("gto", "B", 1.0, 0.2), row("gto", "C", 2.0, 0.3),
                             row("lrr", "A", 0.6, 0.1), row("lrr", "B", 0.8, 0.2),
                             row("lrr", "C", nullptr, nullptr, "failed", "exit 3: boom"),
                             row("swl", "A", 1.0, 0.4), row("swl", "B", 0.5, nullptr), row("swl", "C", 4.0, 0.6)});
    return {{"sweep", "tiny"},
            {"spec", "tiny.json"},
            {"columns", {"id", "platform", "scheduler", "workload", "status", "error", "cycles", "warp_instructions", "ipc",
                         "l1d_read_miss_rate"}},
            {"ok", 8},
            {"failed", 1},
            {"missing", 0},
            {"rows", rows},
            {"not_ok", json::array({{{"id", "fermi15__lrr__C"}, {"status", "failed"}, {"error", "exit 3: boom"}}})}};
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

// The <figure> of one chart, so a number is checked in the right table.
std::string figure(const std::string& html, const std::string& name) {
    const size_t b = html.find("<figure id=\"" + name + "\">");
    if (b == std::string::npos) return "";
    return html.substr(b, html.find("</figure>", b) - b);
}

const ChartFile* chartNamed(const SweepReport& r, const std::string& name) {
    for (const auto& c : r.charts)
        if (c.name == name) return &c;
    return nullptr;
}

} // namespace

TEST(SweepReport, NormalisedIpcAndGeomeanInTheDataTable) {
    const SweepReport r = buildSweepReport(table(), {});
    const std::string f = figure(r.html, "ipc_normalised");
    ASSERT_FALSE(f.empty()) << r.html;
    EXPECT_TRUE(has(f, "<tr><th>A</th><td>1.000 <span class=\"raw\">(0.5)</span></td><td>1.200 <span "
                       "class=\"raw\">(0.6)</span></td><td>2.000 <span class=\"raw\">(1)</span></td></tr>"))
        << f;
    EXPECT_TRUE(has(f, "<tr><th>B</th><td>1.000 <span class=\"raw\">(1)</span></td><td>0.800 <span "
                       "class=\"raw\">(0.8)</span></td><td>0.500 <span class=\"raw\">(0.5)</span></td></tr>"))
        << f;
    // lrr/C failed: a gap, not a zero.
    EXPECT_TRUE(has(f, "<tr><th>C</th><td>1.000 <span class=\"raw\">(2)</span></td><td class=\"missing\">&#8212;</td>"
                       "<td>2.000 <span class=\"raw\">(4)</span></td></tr>"))
        << f;
    EXPECT_TRUE(has(f, "<tr class=\"gmean\"><th>gmean</th><td>1.000</td><td>0.980 <span class=\"count\">(2 of 3 "
                       "workloads)</span></td><td>1.260</td></tr>"))
        << f;
    EXPECT_TRUE(has(f, "The gmean of lrr is over 2 of 3 workloads (none for C)."));
    // The chart: a gap and a gmean bar for lrr, the reference line at 1.
    const ChartFile* c = chartNamed(r, "ipc_normalised");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(gpusim::tb::xmlWellFormedError(c->svg), "");
    EXPECT_TRUE(has(c->svg, "<title>lrr, C: no value</title>"));
    EXPECT_TRUE(has(c->svg, "<title>lrr, gmean: 0.9798</title>"));
    EXPECT_TRUE(has(c->svg, "<title>swl, gmean: 1.26</title>"));
    EXPECT_TRUE(has(c->svg, "class=\"reference\""));
    EXPECT_TRUE(has(r.html, c->svg));  // the same SVG inline in the page
}

TEST(SweepReport, FailedJobsListedAndMissingStatisticsAreGaps) {
    const SweepReport r = buildSweepReport(table(), {});
    EXPECT_TRUE(has(r.html, "<h2>Jobs without results</h2>"));
    EXPECT_TRUE(has(r.html, "<tr><td>fermi15__lrr__C</td><td>failed</td><td>exit 3: boom</td></tr>"));
    EXPECT_TRUE(has(r.html, "9 jobs, 8 ok, 1 without results"));
    // Miss rate: lrr/C (failed) and swl/B (matched nothing) are gaps: 7 bars of 9.
    const ChartFile* c = chartNamed(r, "l1d_read_miss_rate");
    ASSERT_NE(c, nullptr);
    EXPECT_EQ(count(c->svg, "<rect class=\"bar\""), 7u);
    EXPECT_EQ(count(c->svg, "<text class=\"missing\""), 2u);
    const std::string f = figure(r.html, "l1d_read_miss_rate");
    EXPECT_TRUE(has(f, "<tr><th>B</th><td>0.2</td><td>0.2</td><td class=\"missing\">&#8212;</td></tr>")) << f;
    EXPECT_TRUE(has(f, "2 of 9 values are missing"));
}

TEST(SweepReport, ChartsWithoutTheirColumnsAreSkippedWithANote) {
    json t = table();
    // No ldst_stalls columns in this table: the stall chart is skipped, not an error.
    SweepReport r = buildSweepReport(t, {});
    EXPECT_EQ(chartNamed(r, "ldst_stalls"), nullptr);
    EXPECT_TRUE(has(r.html, "LD/ST stall breakdown: skipped, the table has none of the columns"));
    ASSERT_EQ(r.charts.size(), 2u);  // ipc_normalised, l1d_read_miss_rate

    // Without the miss rate, with two of the stall columns and SCHED_LDST.
    t["columns"] = {"id",  "platform", "scheduler", "workload", "status", "error", "ipc", "ldst_stalls.LDST_MSHR",
                    "ldst_stalls.LDST_COAL", "ldst_stalls.SCHED_LDST"};
    for (auto& row : t["rows"]) {
        row.erase("l1d_read_miss_rate");
        const bool ok = row["status"] == "ok";
        row["ldst_stalls.LDST_MSHR"] = ok ? json(30) : json();
        row["ldst_stalls.LDST_COAL"] = ok ? json(10) : json();
        row["ldst_stalls.SCHED_LDST"] = ok ? json(5) : json();
    }
    r = buildSweepReport(t, {});
    EXPECT_EQ(chartNamed(r, "l1d_read_miss_rate"), nullptr);
    EXPECT_TRUE(has(r.html, "L1D read miss rate: skipped, the table has no column l1d_read_miss_rate"));
    const ChartFile* s = chartNamed(r, "ldst_stalls");
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(gpusim::tb::xmlWellFormedError(s->svg), "");
    // 9 bars (3 workloads x 3 schedulers), 8 with 3 layers each; layers in breakdown order.
    EXPECT_EQ(count(s->svg, "<rect class=\"segment\""), 24u);
    const size_t coal = s->svg.find(">LDST_COAL</text>"), mshr = s->svg.find(">LDST_MSHR</text>"),
                 sched = s->svg.find(">SCHED_LDST</text>");
    EXPECT_LT(coal, mshr);
    EXPECT_LT(mshr, sched);
    EXPECT_TRUE(has(s->svg, "<title>C / lrr: no value</title>"));
    const std::string f = figure(r.html, "ldst_stalls");
    EXPECT_TRUE(has(f, "<tr><th>A</th><th>gto</th><td>10</td><td>30</td><td>5</td></tr>")) << f;
    EXPECT_TRUE(has(f, "it overlaps the others"));
}

TEST(SweepReport, UnknownStatIsAnInputErrorListingTheColumns) {
    SweepReportOptions o;
    o.source = "out/results.json";
    o.stats = {"cycles", "nope"};
    try {
        buildSweepReport(table(), o);
        FAIL() << "expected InputError";
    } catch (const gpusim::InputError& e) {
        EXPECT_EQ(std::string(e.what()),
                  "--stat nope: not a statistic column of out/results.json (statistic columns: cycles, "
                  "warp_instructions, ipc, l1d_read_miss_rate)");
    }
    o.stats = {"workload"};  // a column, but not a statistic
    EXPECT_THROW(buildSweepReport(table(), o), gpusim::InputError);
    o.stats = {"cycles", "cycles"};  // named twice: one chart
    const SweepReport r = buildSweepReport(table(), o);
    EXPECT_NE(chartNamed(r, "stat_cycles"), nullptr);
    EXPECT_EQ(r.charts.size(), 3u);
    EXPECT_TRUE(has(figure(r.html, "stat_cycles"), "<tr><th>A</th><td>1000</td><td>1000</td><td>1000</td></tr>"));
}

TEST(SweepReport, BaselineChoice) {
    SweepReportOptions o;
    o.baseline = "lrr";
    // Normalised to lrr: A gto 0.5 / 0.6 = 0.833, swl 1.0 / 0.6 = 1.667; C has no lrr: all gaps.
    SweepReport r = buildSweepReport(table(), o);
    std::string f = figure(r.html, "ipc_normalised");
    EXPECT_TRUE(has(f, "<td>0.833 <span class=\"raw\">(0.5)</span></td><td>1.000 <span class=\"raw\">(0.6)</span></td>"
                       "<td>1.667 <span class=\"raw\">(1)</span></td>"))
        << f;
    EXPECT_TRUE(has(f, "<tr><th>C</th><td class=\"missing\">&#8212; <span class=\"raw\">(2)</span></td>")) << f;
    EXPECT_TRUE(has(r.html, "IPC normalised to lrr"));
    o.baseline = "xyz";
    try {
        buildSweepReport(table(), o);
        FAIL() << "expected InputError";
    } catch (const gpusim::InputError& e) {
        EXPECT_EQ(std::string(e.what()), "--baseline xyz: no such scheduler in results.json (schedulers: gto, lrr, swl)");
    }
    // Without gto the first scheduler is the baseline.
    json t = table();
    for (auto& row : t["rows"])
        if (row["scheduler"] == "gto") row["scheduler"] = "zzz";
    r = buildSweepReport(t, {});
    EXPECT_TRUE(has(r.html, "IPC normalised to zzz"));
}

TEST(SweepReport, OnePanelPerPlatformAndSetValue) {
    json t = table();
    t["columns"] = {"id", "platform", "scheduler", "workload", "l1d.mshr_entries", "status", "error", "ipc"};
    json rows = json::array();
    for (const char* p : {"fermi15", "owl28"})
        for (int m : {16, 32})
            for (const char* s : {"gto", "lrr"}) {
                const double ipc = (std::string(s) == "gto" ? 1.0 : 1.5) * m / 16;  // lrr/gto = 1.5 in every panel
                rows.push_back({{"id", "x"}, {"platform", p}, {"scheduler", s}, {"workload", "A"},
                                {"l1d.mshr_entries", m}, {"status", "ok"}, {"error", ""}, {"ipc", ipc}});
            }
    t["rows"] = rows;
    const SweepReport r = buildSweepReport(t, {});
    ASSERT_EQ(r.charts.size(), 4u);
    EXPECT_EQ(r.charts[0].name, "ipc_normalised__fermi15__l1d.mshr_entries=16");
    EXPECT_EQ(r.charts[3].name, "ipc_normalised__owl28__l1d.mshr_entries=32");
    EXPECT_TRUE(has(r.html, "<h2>owl28, l1d.mshr_entries=32</h2>"));
    // Normalised within each panel: 1.5 everywhere, never across set values (which would give 3).
    EXPECT_EQ(count(r.html, "<td>1.500 <span class=\"raw\">"), 4u);
    EXPECT_FALSE(has(r.html, "3.000"));
}

TEST(SweepReport, PageIsSelfContainedAndEscaped) {
    SweepReportOptions o;
    o.title = "MSHR <study> & co";
    const SweepReport r = buildSweepReport(table(), o);
    EXPECT_EQ(r.html.rfind("<!DOCTYPE html>", 0), 0u);
    EXPECT_TRUE(has(r.html, "<h1>MSHR &lt;study&gt; &amp; co</h1>"));
    for (const char* external : {"<script", "src=", "<link", "href=\"http", "url(", "@import"})
        EXPECT_FALSE(has(r.html, external)) << external;
    // Only in-page links (the list of charts).
    EXPECT_EQ(count(r.html, "href=\""), count(r.html, "href=\"#"));
    EXPECT_EQ(count(r.html, "<svg "), r.charts.size());
    for (const auto& c : r.charts) EXPECT_EQ(gpusim::tb::xmlWellFormedError(c.svg), "") << c.name;
}

TEST(SweepReport, NotAResultsTableIsAnInputErrorNamingTheFile) {
    SweepReportOptions o;
    o.source = "x/results.json";
    for (const json& bad : {json::array(), json{{"columns", {"id"}}}, json{{"columns", {"id"}}, {"rows", json::array()}}}) {
        try {
            buildSweepReport(bad, o);
            FAIL() << bad.dump();
        } catch (const gpusim::InputError& e) {
            EXPECT_EQ(std::string(e.what()).rfind("x/results.json: not a sweep results table", 0), 0u) << e.what();
        }
    }
}

} // namespace sweep_report_test
