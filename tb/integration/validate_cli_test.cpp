// `gpusim validate` end to end on a two-study file of tiny sweeps: it runs the sweeps (resuming:
// a second run starts no job), writes the page with each series' IPC divided by the baseline's
// (checked against the jobs' own statistics), the mean, the paper figure and the difference,
// plus the SVG charts; --only picks a study; bad input exits 2 naming what is wrong.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tb/common/ProcessRunner.hpp"

namespace validate_cli_test {

using namespace gpusim::tb;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

void writeStudies(const fs::path& dir) {
    writeFile(dir / "tiny.json", R"({"platforms": ["fermi15"], "schedulers": ["gto", "lrr"],
        "workloads": ["atax:n=64", "vectoradd:n=2048"], "stats": ["l1d_read_miss_rate"]})");
    writeFile(dir / "tiny-swl.json", R"({"platforms": ["fermi15"], "schedulers": ["swl:warps=2"],
        "workloads": ["atax:n=64"]})");
    writeFile(dir / "studies.json", R"({"studies": [
      {"id": "one", "title": "One: tiny", "source": "a test", "baseline": "gto", "mean": "geometric",
       "sweeps": [{"spec": "tiny.json"}, {"spec": "tiny-swl.json", "label": "swl-best"}],
       "series": ["lrr", "swl-best"],
       "groups": [{"name": "g", "workloads": ["atax:n=64", "vectoradd:n=2048"]}],
       "paper": {"g": {"lrr": 1.25}}, "miss_chart": "l1d_read_miss_rate", "notes": "one.md"},
      {"id": "two", "title": "Two: same sweep, other baseline", "source": "a test", "baseline": "lrr",
       "mean": "arithmetic", "sweeps": [{"spec": "tiny.json"}],
       "groups": [{"name": "g", "workloads": ["atax:n=64"]}]}
    ]})");
    writeFile(dir / "one.md", "Hand-written discussion.\n");
    writeFile(dir / "preamble.md", "The preamble.\n");
}

double ipcOf(const fs::path& job) {
    return json::parse(readFile(job))["summary"]["ipc"].get<double>();
}

std::string fixed3(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

} // namespace

TEST(ValidateCli, RunsTheSweepsAndWritesThePageFromTheirResults) {
    ScratchDir dir;
    writeStudies(dir.path());
    const fs::path out = dir / "res", doc = dir / "docs" / "validation.md";
    const std::vector<std::string> args = {"validate", "--studies", (dir / "studies.json").string(), "--out", out.string(),
                                           "--doc", doc.string(), "-j", "2"};
    const ProcessResult r = runGpusim(args);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    // tiny.json runs once although two studies use it.
    EXPECT_NE(r.out.find("sweep 1/2"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find("sweep 3/"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("5 simulations, 5 ok"), std::string::npos) << r.out;

    const std::string page = readFile(doc);
    const double gtoAtax = ipcOf(out / "tiny" / "jobs" / "fermi15__gto__atax_n=64.json");
    const double lrrAtax = ipcOf(out / "tiny" / "jobs" / "fermi15__lrr__atax_n=64.json");
    const double gtoVadd = ipcOf(out / "tiny" / "jobs" / "fermi15__gto__vectoradd_n=2048.json");
    const double lrrVadd = ipcOf(out / "tiny" / "jobs" / "fermi15__lrr__vectoradd_n=2048.json");
    const double swlAtax = ipcOf(out / "tiny-swl" / "jobs" / "fermi15__swl_warps=2__atax_n=64.json");
    // Row: workload, group, gto's IPC, lrr/gto, swl-best/gto (no swl-best run for vectoradd).
    EXPECT_NE(page.find("| atax:n=64 | g | " + fixed3(gtoAtax) + " | " + fixed3(lrrAtax / gtoAtax) + " | " +
                        fixed3(swlAtax / gtoAtax) + " |"),
              std::string::npos)
        << page;
    EXPECT_NE(page.find("| vectoradd:n=2048 | g | " + fixed3(gtoVadd) + " | " + fixed3(lrrVadd / gtoVadd) + " | - |"),
              std::string::npos)
        << page;
    const double gmean = std::sqrt(lrrAtax / gtoAtax * (lrrVadd / gtoVadd));
    EXPECT_NE(page.find("| **gmean** | g | | **" + fixed3(gmean) + "** |"), std::string::npos) << page;
    EXPECT_NE(page.find("| paper | g | | 1.250 | - |"), std::string::npos) << page;
    // Study two: gto against lrr, arithmetic mean of one workload.
    EXPECT_NE(page.find("| **amean** | g | | **" + fixed3(gtoAtax / lrrAtax) + "** |"), std::string::npos) << page;
    EXPECT_NE(page.find("Hand-written discussion."), std::string::npos);
    EXPECT_NE(page.find("The preamble."), std::string::npos);
    EXPECT_NE(page.find("](validation/one-ipc.svg)"), std::string::npos);
    for (const char* c : {"one-ipc.svg", "one-miss.svg", "two-ipc.svg"}) {
        const std::string svg = readFile(dir / "docs" / "validation" / c);
        EXPECT_EQ(svg.rfind("<svg", 0), 0u) << c;
    }

    // Again: every job is already done, nothing reruns, the same numbers come out.
    const auto before = fs::last_write_time(out / "tiny" / "jobs" / "fermi15__gto__atax_n=64.json");
    const ProcessResult again = runGpusim(args);
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_NE(again.out.find("(4 already done, 0 to run)"), std::string::npos) << again.out;
    EXPECT_EQ(fs::last_write_time(out / "tiny" / "jobs" / "fermi15__gto__atax_n=64.json"), before);
    EXPECT_EQ(readFile(doc), page);

    // --only two: one study, one sweep.
    const ProcessResult only = runGpusim({"validate", "--studies", (dir / "studies.json").string(), "--out", out.string(),
                                          "--doc", (dir / "two.md").string(), "--only", "two", "--no-run"});
    ASSERT_EQ(only.status, 0) << only.err;
    const std::string two = readFile(dir / "two.md");
    EXPECT_EQ(two.find("One: tiny"), std::string::npos);
    EXPECT_NE(two.find("Two: same sweep"), std::string::npos);
}

TEST(ValidateCli, BadInputExitsTwoNamingIt) {
    ScratchDir dir;
    writeStudies(dir.path());
    const std::string studies = (dir / "studies.json").string();
    ProcessResult r = runGpusim({"validate", "--studies", studies, "--only", "three", "--out", (dir / "o").string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--only: 'three' is not a study of " + studies), std::string::npos) << r.err;
    r = runGpusim({"validate", "--studies", studies, "--no-run", "--out", (dir / "none").string(), "--doc",
                   (dir / "x.md").string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("results.json: no results"), std::string::npos) << r.err;
    writeFile(dir / "studies.json", R"({"studies": [{"id": "x", "title": "X", "source": "s", "baseline": "gto",
        "mean": "median", "sweeps": [{"spec": "tiny.json"}], "groups": [{"name": "g", "workloads": ["a"]}]}]})");
    r = runGpusim({"validate", "--studies", studies});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("studies[0].mean: 'median'"), std::string::npos) << r.err;
    r = runGpusim({"validate", "--studies", (dir / "missing.json").string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("missing.json: cannot open"), std::string::npos) << r.err;
}

} // namespace validate_cli_test
