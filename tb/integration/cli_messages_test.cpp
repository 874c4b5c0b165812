// What a person reads when a command line or an input file is wrong, as the exact text and exit
// status of the real executable: an unknown option named with the nearest known one (and a
// unique prefix still accepted), did-you-mean for platform, scheduler, workload and parameter
// names, a cross-parameter rule broken by a --set naming that --set, JSON errors with line and
// column, one help layout (usage line, value names, defaults as written, `gpusim help CMD`,
// exit 2 without a command), and a sweep refusing bad workload parameters and statistic names
// before its first job.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "tb/common/ProcessRunner.hpp"

namespace cli_messages_test {

using namespace gpusim::tb;
namespace fs = std::filesystem;

namespace {

// Exit status 2, nothing on stdout and exactly `line` (plus its newline) on stderr.
void expectError(const std::vector<std::string>& args, const std::string& line) {
    const ProcessResult r = runGpusim(args);
    EXPECT_EQ(r.status, 2) << commandLine(args) << "\n" << r.err;
    EXPECT_EQ(r.out, "") << commandLine(args);
    EXPECT_EQ(r.err, "gpusim: error: " + line + "\n") << commandLine(args);
}

const std::string kPlatformDir = GPUSIM_SOURCE_DIR "/platforms/";

} // namespace

TEST(CliMessages, UnknownOptionIsNamedWithTheNearestKnownOne) {
    // The misspelt option is named, not the platform name after it ("unexpected argument").
    expectError({"run", "--platfrom", "fermi15"},
                "command line: unknown option '--platfrom'; did you mean '--platform'?");
    expectError({"config", "--sett", "l1d.ways=4"}, "command line: unknown option '--sett'; did you mean '--set'?");
    expectError({"run", "--frobnicate"}, "command line: unknown option '--frobnicate'");
    expectError({"run", "-z"}, "command line: unknown option '-z'");
    // A unique prefix is the option (Boost's guessing), with its value skipped as a positional.
    const ProcessResult r = runGpusim({"config", "--plat", "fermi30"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\"platform\": \"fermi30\""), std::string::npos) << r.out;
    // An ambiguous prefix is named with what it could be.
    expectError({"run", "--t", "x"},
                "command line: option '--t' is ambiguous: '--trace-tlm', '--trace-warps', '--trace-window', '--trace-sms' or '--threads'");
}

TEST(CliMessages, DidYouMeanForNamesAndParameters) {
    expectError({"config", "--platform", "fermi1"},
                "--platform: unknown platform 'fermi1'; did you mean 'fermi15'? (see gpusim list platforms)");
    expectError({"run", "--scheduler", "gtoo"},
                "--scheduler: unknown scheduler 'gtoo'; did you mean 'gto'? (see gpusim list schedulers)");
    expectError({"run", "--scheduler", "swl:wraps=4"},
                "--scheduler: swl: unknown parameter 'wraps'; did you mean 'warps'? (known: warps, per_scheduler)");
    expectError({"run", "--workload", "atx"},
                "--workload: unknown workload 'atx'; did you mean 'atax'? (see gpusim list workloads)");
    expectError({"run", "--workload", "atax:nn=64"},
                "--workload: atax: unknown parameter 'nn'; did you mean 'n'? (known: n)");
    expectError({"config", "--set", "l1d.mshr_entrie=4"},
                "--set: l1d.mshr_entrie: unknown parameter; did you mean 'l1d.mshr_entries'? "
                "(see gpusim config --reference)");
    expectError({"list", "platfroms"},
                "list: expected platforms, schedulers or workloads, got 'platfroms'; did you mean 'platforms'?");
    expectError({"frobnicate"}, "unknown command 'frobnicate' (expected run, list, config, trace, noc, regress, sweep, "
                                "report, validate, correlate, stats, diff, bench, help; see gpusim help)");
    expectError({"rnu"}, "unknown command 'rnu'; did you mean 'run'? (expected run, list, config, trace, noc, regress, "
                         "sweep, report, validate, correlate, stats, diff, bench, help; see gpusim help)");
}

TEST(CliMessages, ASetThatBreaksARuleIsNamedNotTheShippedFile) {
    // fermi15: 32768-byte L1D, 128-byte lines; 128 x 3 = 384 does not divide 32768 (85 x 384 = 32640).
    expectError({"config", "--set", "l1d.ways=3"},
                "--set l1d.ways=3: l1d.size_bytes: 32768 is not divisible by l1d.line_bytes x l1d.ways (384) "
                "(l1d.size_bytes from " + kPlatformDir + "fermi15.json)");
    // The key the rule is about set on the command line itself: that --set, as before.
    expectError({"config", "--set", "l1d.size_bytes=30000"},
                "--set: l1d.size_bytes: 30000 is not divisible by l1d.line_bytes x l1d.ways (1024)");
}

TEST(CliMessages, JsonErrorsGiveLineAndColumn) {
    ScratchDir dir;
    // Line 3 is `    "l1d.ways": 4,` and line 4 is "  }": a key was expected at its '}', column 3.
    writeFile(dir / "p.json", "{\"name\": \"p\",\n  \"params\": {\n    \"l1d.ways\": 4,\n  }\n}\n");
    const std::string p = (dir / "p.json").string();
    expectError({"config", "--platform", p},
                p + ": line 4, column 3: not valid JSON: syntax error while parsing object key - unexpected '}'; "
                    "expected string literal");
    // A sweep spec: the missing ']' is found at the '}', the 71st and last character of line 1.
    writeFile(dir / "s.json", "{\"platforms\": [\"fermi15\"], \"schedulers\": [\"gto\"], \"workloads\": [\"atax\"}\n");
    const std::string s = (dir / "s.json").string();
    expectError({"sweep", s, "--out", (dir / "never").string()},
                s + ": line 1, column 71: not valid JSON: syntax error while parsing array - unexpected '}'; "
                    "expected ']'");
    EXPECT_FALSE(fs::exists(dir / "never"));
}

TEST(CliMessages, OneHelpStyle) {
    // Without a command: the usage on stderr, exit 2; it lists --version and `help <command>`.
    const ProcessResult bare = runGpusim({});
    EXPECT_EQ(bare.status, 2);
    EXPECT_EQ(bare.out, "");
    EXPECT_TRUE(bare.err.starts_with("usage: gpusim <command> [options]\n")) << bare.err;
    EXPECT_NE(bare.err.find("  --version  print the version"), std::string::npos) << bare.err;
    EXPECT_NE(bare.err.find("gpusim help <command>"), std::string::npos) << bare.err;
    const ProcessResult help = runGpusim({"help"});
    EXPECT_EQ(help.status, 0);
    EXPECT_EQ(help.out, bare.err);
    const ProcessResult trace = runGpusim({"trace"});
    EXPECT_EQ(trace.status, 2);
    EXPECT_EQ(trace.out, "");
    EXPECT_TRUE(trace.err.starts_with("usage: gpusim trace export ")) << trace.err;
    // Every command: `gpusim help CMD` is `gpusim CMD --help`, starting with its usage line.
    for (const std::string cmd : {"run", "list", "config", "noc", "regress", "sweep", "report", "validate",
                                  "correlate", "bench", "trace"}) {
        const ProcessResult a = runGpusim({"help", cmd}), b = runGpusim({cmd, "--help"});
        EXPECT_EQ(a.status, 0) << cmd << a.err;
        EXPECT_EQ(a.out, b.out) << cmd;
        EXPECT_TRUE(a.out.starts_with("usage: gpusim " + cmd + " ")) << a.out;
    }
    // Values named, defaults as written.
    const ProcessResult noc = runGpusim({"noc", "--help"});
    EXPECT_NE(noc.out.find("--rate FLITS (=0.1) "), std::string::npos) << noc.out;
    EXPECT_NE(noc.out.find("--hotspot-fraction FRACTION (=0.2)"), std::string::npos) << noc.out;
    EXPECT_EQ(noc.out.find("0.1000"), std::string::npos) << noc.out;
    const ProcessResult run = runGpusim({"run", "--help"});
    EXPECT_TRUE(run.out.starts_with("usage: gpusim run [options]\nSimulate a workload")) << run.out;
    EXPECT_NE(run.out.find("--max-cycles CYCLES (=0)"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("-p [ --platform ] NAME|FILE (=fermi15)"), std::string::npos) << run.out;
}

TEST(CliMessages, SweepChecksWorkloadParametersAndStatisticsBeforeTheFirstJob) {
    ScratchDir dir;
    const fs::path out = dir / "never";
    const std::string spec = (dir / "s.json").string();
    auto sweep = [&](const std::string& workloads, const std::string& stats) {
        writeFile(spec, R"({"platforms": ["fermi15"], "schedulers": ["gto"], "workloads": )" + workloads +
                            R"(, "stats": )" + stats + "}");
        return std::vector<std::string>{"sweep", spec, "--out", out.string()};
    };
    // The second workload's parameter is out of range: refused before the first job runs.
    expectError(sweep(R"(["vectoradd:n=64", "atax:n=0"])", "[]"),
                spec + ": workloads: atax: n: 0 is out of range 32 .. 16384");
    EXPECT_FALSE(fs::exists(out));
    // A typo in a statistic name, with the nearest names a one-cycle run of the first job has.
    expectError(sweep(R"(["vectoradd:n=64"])", R"(["l1d_read_mis_rate", "sm0.l1d.read_misses", "sm0.l1d.red_misses"])"),
                spec + ": stats: no statistic 'l1d_read_mis_rate' (did you mean 'l1d_read_miss_rate'?), "
                       "'sm0.l1d.red_misses' (did you mean 'sm0.l1d.read_misses'?) in a one-cycle run of "
                       "fermi15__gto__vectoradd_n=64 (names: docs/sweeps.md, Statistics)");
    EXPECT_FALSE(fs::exists(out));
    // sm14 exists on fermi15 (15 SMs), sm29 only on fermi30: a name one platform has is accepted.
    // kernel0.cycles is registered when the kernel ends, after a one-cycle run: not checked.
    writeFile(spec, R"({"platforms": ["fermi15", "fermi30"], "schedulers": ["gto"], "workloads": ["vectoradd:n=64"],
                        "stats": ["sm29.l1d.read_misses", "kernel0.cycles"]})");
    const ProcessResult r = runGpusim({"sweep", spec, "--out", out.string(), "-j", "2"});
    EXPECT_EQ(r.status, 0) << r.out << r.err;
}

} // namespace cli_messages_test
