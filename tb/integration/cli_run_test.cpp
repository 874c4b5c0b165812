// The gpusim executable end to end: determinism across processes, the watchdog, --max-cycles,
// and the generated configuration reference in docs/.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/common/ProcessRunner.hpp"

namespace cli_run_test {

using namespace gpusim::tb;
using nlohmann::json;

namespace {

json parseFile(const std::filesystem::path& p) {
    const std::string text = readFile(p);
    json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) ADD_FAILURE() << p << " is not JSON:\n" << text.substr(0, 500);
    return j;
}

} // namespace

TEST(CliRun, SameCommandGivesTheSameStatisticsInTwoProcesses) {
    ScratchDir dir;
    json docs[2];
    for (int i = 0; i < 2; ++i) {
        const auto statsPath = (dir / ("stats" + std::to_string(i) + ".json")).string();
        const std::vector<std::string> args = {"run",       "--platform", "fermi15",      "--scheduler",
                                               "lrr",       "--workload", "atax:n=128", "--quiet",
                                               "--stats",   statsPath};
        const ProcessResult r = runGpusim(args);
        ASSERT_EQ(r.status, 0) << commandLine(args) << "\n" << r.err;
        EXPECT_EQ(r.out, "") << "--quiet prints nothing";
        EXPECT_EQ(r.err, "");
        docs[i] = parseFile(statsPath);
        ASSERT_TRUE(docs[i].is_object());
    }
    // host_seconds and the simulation rate differ between runs; everything simulated must not.
    for (const char* section : {"stats", "summary", "config", "kernels", "workload", "scheduler", "platform", "seed"}) {
        ASSERT_TRUE(docs[0].contains(section)) << section;
        EXPECT_EQ(docs[0][section], docs[1][section]) << "section '" << section << "' differs between runs";
    }
    EXPECT_GT(docs[0]["stats"].size(), 100u);
    EXPECT_EQ(docs[0]["summary"]["truncated"], false);
    EXPECT_EQ(docs[0]["summary"]["warp_instructions"], 2 * (4 * (7 * 128 + 6) + 4 * 5));  // see gpu_run_test
    EXPECT_EQ(docs[0]["config"]["l1d.ways"], 8);
}

namespace {

// Memory that answers after 10^6 DRAM cycles (the maximum, ~1.5 M core cycles) and a watchdog of
// 5000 core cycles: every warp blocks on its first load long before any answer can come.
const std::vector<std::string> kStuckRun = {
    "run", "--platform", "fermi15", "--scheduler", "lrr", "--workload", "vectoradd:n=256", "--quiet",
    "--set", "memory.model=ideal", "--set", "mem.ideal_latency_cycles=1000000",
    "--set", "sim.watchdog_cycles=5000"};

} // namespace

TEST(CliRun, WatchdogEndsAStuckRunWithExitStatus3AndAStateDump) {
    const ProcessResult r = runGpusim(kStuckRun);
    ASSERT_EQ(r.status, 3) << commandLine(kStuckRun) << "\n" << r.err;
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(r.err.starts_with("gpusim: model error: watchdog: no progress for 5000 core cycles")) << r.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(r.err, m, std::regex("at cycle ([0-9]+)"))) << r.err;
    const uint64_t at = std::stoull(m[1]);
    EXPECT_GE(at, 5000u);
    EXPECT_LT(at, 100000u) << "fired long after the last progress";
    // The dump: what is outstanding where.
    EXPECT_NE(r.err.find("dispatcher:"), std::string::npos) << r.err;
    EXPECT_TRUE(std::regex_search(r.err, std::regex("gpu\\.sm[0-9]+: [0-9]+ warps resident, [1-9][0-9]* requests outstanding")))
        << r.err;
    EXPECT_TRUE(std::regex_search(r.err, std::regex("gpu\\.mem[0-9]+: [1-9][0-9]* pending"))) << r.err;
    EXPECT_TRUE(std::regex_search(r.err, std::regex("payloads outstanding: [1-9][0-9]*"))) << r.err;
}

// The watchdog fires exactly sim.watchdog_cycles after the last progress (an issue or an answer
// taken, by any SM): the same stuck run with a limit 2000 cycles higher stops 2000 cycles later.
TEST(CliRun, WatchdogFiresTheLimitAfterTheLastProgress) {
    auto stallCycle = [](const std::string& limit) -> uint64_t {
        std::vector<std::string> args = kStuckRun;
        args.back() = "sim.watchdog_cycles=" + limit;
        const ProcessResult r = runGpusim(args);
        EXPECT_EQ(r.status, 3) << r.err;
        std::smatch m;
        if (!std::regex_search(r.err, m, std::regex("no progress for " + limit + " core cycles at cycle ([0-9]+)")))
            ADD_FAILURE() << r.err;
        return m.empty() ? 0 : std::stoull(m[1]);
    };
    const uint64_t a = stallCycle("5000"), b = stallCycle("7000");
    // Before they block on their loads, the 8 warps issue at least their 4 instructions each, at
    // most 2 a cycle (one per scheduler): the last progress is at cycle 16 or later.
    EXPECT_GE(a, 5000u + 16);
    EXPECT_EQ(b, a + 2000);
}

// Each unit's line of the dump starts with its name once (regression: "gpu.l2_0: gpu.l2_0: ...",
// the name from Gpu::dumpState() and again from the unit's own dumpState()).
TEST(CliRun, WatchdogDumpNamesEachUnitOnce) {
    const ProcessResult r = runGpusim(kStuckRun);
    ASSERT_EQ(r.status, 3) << r.err;
    std::istringstream in(r.err);
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (std::regex_search(line, m, std::regex("^(gpu\\.[A-Za-z0-9_]+): (gpu\\.[A-Za-z0-9_]+):")))
            ADD_FAILURE() << "unit named twice: " << line;
    }
}

TEST(CliRun, MaxCyclesStopsEarlyAndSaysTruncated) {
    ScratchDir dir;
    const auto statsPath = (dir / "stats.json").string();
    const std::vector<std::string> args = {"run", "--platform", "fermi15", "--scheduler", "gto", "--workload",
                                           "vectoradd:n=4096", "--max-cycles", "300", "--stats", statsPath};
    const ProcessResult r = runGpusim(args);
    ASSERT_EQ(r.status, 0) << commandLine(args) << "\n" << r.err;
    EXPECT_NE(r.out.find("TRUNCATED"), std::string::npos) << "the summary says so:\n" << r.out;
    const json j = parseFile(statsPath);
    ASSERT_TRUE(j.contains("summary"));
    EXPECT_EQ(j["summary"]["truncated"], true);
    EXPECT_LE(j["summary"]["cycles"].get<uint64_t>(), 301u);
    // vectoradd n=4096 needs 128 warps x 9 = 1152 instructions in full.
    EXPECT_LT(j["summary"]["warp_instructions"].get<uint64_t>(), 1152u);
}

// Model bug (reported): with --max-cycles N the run simulates and reports N + 1 core cycles
// (cycles 0 .. N): Gpu.cpp's Supervisor stops at `cycle >= maxCycles_` and run() reports
// last_ + 1.
TEST(CliRun, MaxCyclesSimulatesExactlyThatManyCycles) {
    ScratchDir dir;
    const auto statsPath = (dir / "stats.json").string();
    const std::vector<std::string> args = {"run", "--quiet", "--workload", "vectoradd:n=4096", "--max-cycles", "300",
                                           "--stats", statsPath};
    const ProcessResult r = runGpusim(args);
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = parseFile(statsPath);
    EXPECT_EQ(j["summary"]["cycles"], 300);
    EXPECT_EQ(j["stats"]["gpu.cycles"], 300);
}

TEST(CliRun, ConfigurationReferenceInDocsIsUpToDate) {
    const std::filesystem::path doc = std::filesystem::path(GPUSIM_SOURCE_DIR) / "docs" / "configuration.md";
    const ProcessResult r = runGpusim({"config", "--reference"});
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_FALSE(r.out.empty());
    ASSERT_TRUE(std::filesystem::exists(doc))
        << doc << " does not exist. Generate it from the parameter declarations with\n"
        << "    " << gpusimExecutable() << " config --reference > docs/configuration.md\n"
        << "(from the source directory) and commit it.";
    const std::string text = readFile(doc);
    if (text == r.out) return;
    // Show where they start to differ.
    std::istringstream a(text), b(r.out);
    std::string la, lb;
    int line = 0;
    for (;;) {
        ++line;
        const bool ha = static_cast<bool>(std::getline(a, la)), hb = static_cast<bool>(std::getline(b, lb));
        if (!ha || !hb || la != lb) {
            ADD_FAILURE() << "docs/configuration.md differs from `gpusim config --reference` at line " << line
                          << "\n  docs:      " << (ha ? la : "<end of file>")
                          << "\n  generated: " << (hb ? lb : "<end of output>")
                          << "\nRegenerate it: " << gpusimExecutable()
                          << " config --reference > docs/configuration.md";
            break;
        }
    }
}

} // namespace cli_run_test
