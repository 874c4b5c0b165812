// `gpusim report` end to end: a tiny real sweep (fermi15; gto, lrr; atax:n=64, vectoradd:n=1024
// and a trace with a bad address, which fails during the run) and its report, checked as written (one well-formed SVG per chart,
// the failed jobs listed) and as a browser shows it: headless Chromium's DOM has one <svg> per
// chart, their titles and the gaps of the failed jobs, and its screenshot is a real picture of
// the asked size, much larger than a blank page's (a single colour compresses to almost nothing)
// and larger than the same page's without its charts. Also the command's input errors (exit 2)
// and --png through rsvg-convert. GPUSIM_KEEP_SCREENSHOT=FILE keeps the screenshot to look at.
//
// Chromium and rsvg-convert come from setup.sh (Debian chromium, librsvg2-bin): when missing,
// these tests fail saying so rather than pass without looking.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tb/common/ProcessRunner.hpp"
#include "tb/common/XmlWellFormed.hpp"

namespace report_cli_test {

using namespace gpusim::tb;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

// The third workload passes the sweep's checks (its trace folder and header read fine) and fails
// in the run: block 1 of its kernel has a bad hex address, read when that CTA is placed.
std::string spec(const std::string& badTrace) {
    return R"({
  "name": "report-tiny",
  "platforms": ["fermi15"],
  "schedulers": ["gto", "lrr"],
  "workloads": ["atax:n=64", "vectoradd:n=1024", ")" + badTrace + R"("],
  "stats": ["l1d_read_miss_rate", "ldst_stalls.LDST_COAL", "ldst_stalls.LDST_MSHR", "ldst_stalls.LDST_ICNT",
            "ldst_stalls.SCHED_LDST"]
})";
}

// "trace:DIR" of a copy of tb/data/traces/small's kernel 1 with a bad address in block 1.
std::string writeBadTrace(const ScratchDir& dir) {
    const fs::path bad = dir / "bad";
    fs::create_directories(bad);
    std::string text = readFile(std::string(GPUSIM_SOURCE_DIR) + "/tb/data/traces/small/kernel-1.traceg");
    const size_t at = text.find("0x7f2a10000", text.find("thread block = 1,0,0"));
    text.replace(at, 13, "0xZZ");
    writeFile(bad / "kernel-1.traceg", text);
    writeFile(bad / "kernelslist.g", "kernel-1.traceg\n");
    return "trace:" + bad.string();
}

// A job id's workload part (Subprocess.hpp, fileNameSafe).
std::string safe(std::string s) {
    for (char& c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '=' || c == '-')) c = '_';
    return s;
}

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

std::string findProgram(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::string dirs = std::string(path ? path : "") + ":/usr/bin:/bin";
    size_t b = 0;
    while (b <= dirs.size()) {
        const size_t e = std::min(dirs.find(':', b), dirs.size());
        const fs::path p = fs::path(dirs.substr(b, e - b)) / name;
        if (e > b && ::access(p.c_str(), X_OK) == 0) return p.string();
        b = e + 1;
    }
    return "";
}

// Headless Chromium with its own profile directory (tests may run two browsers at once), bounded
// by timeout(1).
ProcessResult chromium(const std::string& exe, const fs::path& profile, std::vector<std::string> args) {
    std::vector<std::string> a = {"60", exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                                  "--hide-scrollbars", "--user-data-dir=" + profile.string()};
    a.insert(a.end(), args.begin(), args.end());
    return runProcess(findProgram("timeout"), a);
}

// Width and height from a PNG's IHDR chunk; {0, 0} when the file is not a PNG.
std::pair<unsigned, unsigned> pngSize(const std::string& bytes) {
    if (bytes.size() < 24 || bytes.compare(0, 8, "\x89PNG\r\n\x1a\n") != 0 || bytes.compare(12, 4, "IHDR") != 0)
        return {0, 0};
    const auto be32 = [&](size_t o) {
        unsigned v = 0;
        for (size_t i = 0; i < 4; ++i) v = v << 8 | static_cast<unsigned char>(bytes[o + i]);
        return v;
    };
    return {be32(16), be32(20)};
}

// A sweep with two failing jobs, run once per test that needs it (each test is its own process).
fs::path runTinySweep(const ScratchDir& dir) {
    writeFile(dir / "tiny.json", spec(writeBadTrace(dir)));
    const fs::path out = dir / "sweep";
    const ProcessResult r = runGpusim({"sweep", (dir / "tiny.json").string(), "-j", "2", "--out", out.string()});
    // The bad trace fails on both schedulers: exit 1, the other four jobs ok.
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_TRUE(has(r.out, "summary: 6 jobs: 4 ok, 2 failed, 0 missing")) << r.out;
    return out;
}

} // namespace

TEST(ReportCli, SweepReportRendersInHeadlessChromium) {
    const std::string exe = findProgram("chromium");
    ASSERT_FALSE(exe.empty()) << "chromium not found on PATH or in /usr/bin: install the Debian package chromium "
                                 "(setup.sh does); this test checks the report page in a real browser";
    ASSERT_FALSE(findProgram("timeout").empty()) << "timeout(1) not found";
    ScratchDir dir;
    const fs::path sweep = runTinySweep(dir);
    const ProcessResult r = runGpusim({"report", sweep.string(), "--stat", "cycles"});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const fs::path out = sweep / "report";
    EXPECT_TRUE(has(r.out, "report: " + (out / "report.html").string() + " (4 charts)")) << r.out;

    // The files: one well-formed SVG per chart, and the page.
    for (const char* name : {"ipc_normalised", "ldst_stalls", "l1d_read_miss_rate", "stat_cycles"}) {
        const std::string svg = readFile(out / (std::string(name) + ".svg"));
        ASSERT_FALSE(svg.empty()) << name;
        EXPECT_EQ(xmlWellFormedError(svg), "") << name;
    }
    const std::string html = readFile(out / "report.html");
    const std::string badTrace = "trace:" + (dir / "bad").string();
    EXPECT_TRUE(has(html, "<tr><td>fermi15__gto__" + safe(badTrace) + "</td><td>failed</td>")) << html;

    // What the browser builds from it.
    const ProcessResult dom =
        chromium(exe, dir / "profile-dom", {"--dump-dom", "file://" + fs::absolute(out / "report.html").string()});
    ASSERT_EQ(dom.status, 0) << dom.err;
    EXPECT_EQ(count(dom.out, "<svg "), 4u) << dom.out.substr(0, 2000);
    for (const char* title : {">IPC normalised to gto</text>", ">LD/ST stall breakdown</text>",
                              ">L1D read miss rate</text>", ">cycles</text>", "Jobs without results"})
        EXPECT_TRUE(has(dom.out, title)) << title;
    // The failed jobs are gaps (a cross with a tooltip), not zero bars.
    EXPECT_TRUE(has(dom.out, "gto, " + badTrace + ": no value"));
    EXPECT_TRUE(has(dom.out, "lrr, " + badTrace + ": no value"));

    // The picture, against a blank page and against the same page without its SVG charts, all
    // 1200 x 3000: a blank PNG is ~17 kB, the report ~230 kB and ~180 kB without the charts
    // (measured with Debian's chromium 156). PNG is compressed, so these sizes say how much is
    // drawn, not what: the DOM checks above say what.
    std::string stripped = html;
    for (size_t b; (b = stripped.find("<svg ")) != std::string::npos;)
        stripped.erase(b, stripped.find("</svg>", b) + 6 - b);
    writeFile(dir / "stripped.html", stripped);
    writeFile(dir / "blank.html", "<!DOCTYPE html><html><body></body></html>");
    const auto shoot = [&](const std::string& page, const std::string& name) {
        const fs::path png = dir / (name + ".png");
        const ProcessResult s = chromium(exe, dir / ("profile-" + name),
                                         {"--screenshot=" + png.string(), "--window-size=1200,3000", "file://" + page});
        EXPECT_EQ(s.status, 0) << s.err;
        const std::string bytes = readFile(png);
        EXPECT_EQ(pngSize(bytes), std::make_pair(1200u, 3000u)) << name;
        return bytes;
    };
    const std::string png = shoot(fs::absolute(out / "report.html").string(), "report");
    const std::string blankPng = shoot((dir / "blank.html").string(), "blank");
    const std::string strippedPng = shoot((dir / "stripped.html").string(), "stripped");
    EXPECT_GT(png.size(), 5 * blankPng.size()) << "report " << png.size() << " bytes, blank " << blankPng.size();
    EXPECT_GT(png.size(), strippedPng.size() + strippedPng.size() / 10)
        << "report " << png.size() << " bytes, without charts " << strippedPng.size();
    if (const char* keep = std::getenv("GPUSIM_KEEP_SCREENSHOT"))
        fs::copy_file(dir / "report.png", keep, fs::copy_options::overwrite_existing);
}

namespace {

// A hand-written table, for the command's own checks without running a sweep.
fs::path writeSmallTable(const ScratchDir& dir) {
    const json t = {{"sweep", "small"},
                    {"columns", {"id", "platform", "scheduler", "workload", "status", "error", "cycles", "ipc"}},
                    {"rows",
                     {{{"id", "a"}, {"platform", "fermi15"}, {"scheduler", "gto"}, {"workload", "w"}, {"status", "ok"},
                       {"error", ""}, {"cycles", 10}, {"ipc", 0.5}},
                      {{"id", "b"}, {"platform", "fermi15"}, {"scheduler", "lrr"}, {"workload", "w"}, {"status", "ok"},
                       {"error", ""}, {"cycles", 12}, {"ipc", 0.4}}}}};
    const fs::path d = dir / "sw";
    fs::create_directories(d);
    writeFile(d / "results.json", t.dump());
    return d;
}

} // namespace

TEST(ReportCli, InputErrorsExitTwoNamingTheFileOrOption) {
    ScratchDir dir;
    const fs::path d = writeSmallTable(dir);
    ProcessResult r = runGpusim({"report", (d / "results.json").string(), "--stat", "l2_read_hit_rate"});
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_EQ(r.err, "gpusim: error: --stat l2_read_hit_rate: not a statistic column of " + (d / "results.json").string() +
                         " (statistic columns: cycles, ipc)\n");
    r = runGpusim({"report", (dir / "nothing").string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(has(r.err, (dir / "nothing").string() + ": cannot open")) << r.err;
    writeFile(dir / "bad.json", "{not json");
    r = runGpusim({"report", (dir / "bad.json").string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(has(r.err, "bad.json: line 1, column 3: not valid JSON: ")) << r.err;
    r = runGpusim({"report", d.string(), "--baseline", "ccws"});
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(has(r.err, "--baseline ccws: no such scheduler")) << r.err;
    r = runGpusim({"report"});
    EXPECT_EQ(r.status, 2);
    r = runGpusim({"report", d.string(), "--colour", "red"});
    EXPECT_EQ(r.status, 2);
    EXPECT_FALSE(fs::exists(d / "report")) << "nothing may be written on bad input";
    // A directory works as RESULTS, --out and --title are honoured.
    r = runGpusim({"report", d.string(), "--out", (dir / "o").string(), "--title", "My <title>"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(has(readFile(dir / "o" / "report.html"), "<h1>My &lt;title&gt;</h1>"));
    EXPECT_TRUE(has(r.out, "note: L1D read miss rate: skipped")) << r.out;
}

TEST(ReportCli, PngThroughRsvgConvertAndAClearErrorWithoutIt) {
    ASSERT_FALSE(findProgram("rsvg-convert").empty())
        << "rsvg-convert not found: install the Debian package librsvg2-bin (setup.sh does)";
    ScratchDir dir;
    const fs::path d = writeSmallTable(dir);
    ProcessResult r = runGpusim({"report", d.string(), "--png"});
    ASSERT_EQ(r.status, 0) << r.err;
    const std::string png = readFile(d / "report" / "ipc_normalised.png");
    const auto [w, h] = pngSize(png);
    // The SVG's own size: 64 + 360 + 20 wide (one group of two bars is narrower than the minimum).
    EXPECT_EQ(w, 444u);
    EXPECT_GT(h, 300u);
    EXPECT_FALSE(fs::exists(d / "report" / "ipc_normalised.png.err"));

    // Without the converter on PATH: exit 2 before anything is written.
    const fs::path empty = dir / "emptybin";
    fs::create_directories(empty);
    setenv("PATH", empty.c_str(), 1);
    r = runGpusim({"report", d.string(), "--png", "--out", (dir / "o2").string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "gpusim: error: --png: rsvg-convert not found on PATH (install the Debian package librsvg2-bin)\n");
    EXPECT_FALSE(fs::exists(dir / "o2"));
}

} // namespace report_cli_test
