// Bad input on the gpusim command line: every case must end with exit status 2 and exactly one
// line on stderr, "gpusim: error: ...", naming the offending option, file or key (Cli.hpp), and
// nothing on stdout. Runs the real executable (GPUSIM_BINARY_DIR/gpusim) in a child process.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/common/ProcessRunner.hpp"

namespace cli_errors_test {

using namespace gpusim::tb;

namespace {

struct BadInput {
    std::string name;                    // test name suffix
    std::vector<std::string> args;       // "@DIR@" is replaced by a scratch directory
    std::vector<std::string> mentions;   // each must appear in the error line ("@DIR@" too)
    std::string absent = "";             // must not appear in the error line
};

// Test names and failure messages show the case name, not the bytes of the struct.
void PrintTo(const BadInput& c, std::ostream* os) { *os << c.name; }

std::string substitute(std::string s, const std::string& dir) {
    for (size_t at; (at = s.find("@DIR@")) != std::string::npos;) s.replace(at, 5, dir);
    return s;
}

// Files the cases refer to, written into the scratch directory.
void writeFixtures(const ScratchDir& dir) {
    writeFile(dir / "malformed.json", "{\"name\": \"broken\", \"params\": {\"l1d\": {\"ways\": 4,}\n");
    writeFile(dir / "unknown_key.json", "{\"name\": \"x\", \"params\": {\"l1d\": {\"wayz\": 4}}}\n");
    writeFile(dir / "wrong_type.json", "{\"name\": \"x\", \"params\": {\"l1d.ways\": \"eight\"}}\n");
    // Two platforms deriving from each other.
    writeFile(dir / "cycle_a.json", "{\"name\": \"a\", \"base\": \"cycle_b\", \"params\": {}}\n");
    writeFile(dir / "cycle_b.json", "{\"name\": \"b\", \"base\": \"cycle_a\", \"params\": {}}\n");
    std::filesystem::create_directory(dir / "a_directory.json");
}

// Small workload so that a case the CLI wrongly accepts still ends quickly.
const std::vector<std::string> kQuickRun = {"run", "--quiet", "--workload", "vectoradd:n=32"};

std::vector<std::string> quickRun(std::vector<std::string> extra) {
    std::vector<std::string> a = kQuickRun;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
}

const std::vector<BadInput> kCases = {
    {"UnknownCommand", {"frobnicate"}, {"frobnicate"}},
    {"UnknownOption", {"run", "--frobnicate"}, {"--frobnicate"}},
    {"UnknownPlatformName", {"run", "--platform", "nosuchplatform"}, {"nosuchplatform"}},
    {"MissingPlatformFile", {"run", "--platform", "@DIR@/nope/missing.json"}, {"@DIR@/nope/missing.json"}},
    {"MalformedPlatformJson", {"run", "--platform", "@DIR@/malformed.json"}, {"@DIR@/malformed.json"}},
    {"UnknownKeyInPlatformFile", {"run", "--platform", "@DIR@/unknown_key.json"},
     {"@DIR@/unknown_key.json", "l1d.wayz"}},
    {"WrongTypeInPlatformFile", {"run", "--platform", "@DIR@/wrong_type.json"},
     {"@DIR@/wrong_type.json", "l1d.ways"}},
    {"SetUnknownKey", {"run", "--set", "l1d.bogus=1"}, {"l1d.bogus"}},
    {"SetWithoutValue", {"run", "--set", "l1d.ways"}, {"l1d.ways"}},
    {"SetWrongType", {"run", "--set", "l1d.ways=abc"}, {"l1d.ways", "abc"}},
    {"SetOutOfRange", {"run", "--set", "l1d.ways=0"}, {"l1d.ways", "0"}},
    {"SetBadEnumValue", {"run", "--set", "l1d.allocation=sometimes"}, {"l1d.allocation", "sometimes"}},
    {"SetSizeNotDivisibleByLineTimesWays", {"run", "--set", "l1d.size_bytes=30000"}, {"l1d.size_bytes", "30000"}},
    {"SetSharedBankBytesNotAPowerOfTwo", {"run", "--set", "sm.shared_bank_bytes=6"}, {"sm.shared_bank_bytes", "6"}},
    {"SetSharedBanksOutOfRange", {"run", "--set", "sm.shared_banks=0"}, {"sm.shared_banks", "0"}},
    {"SetFermiHashWithSixteenSets",
     {"run", "--set", "l1d.size_bytes=16384", "--set", "l1d.set_index=fermi-hash"},
     {"l1d.set_index", "16"}},
    {"UnknownScheduler", {"run", "--scheduler", "nosuchsched"}, {"--scheduler", "nosuchsched"}},
    {"UnknownSchedulerParameter", {"run", "--scheduler", "gto:x=1"}, {"--scheduler", "gto", "'x'"}},
    {"UnknownWorkload", {"run", "--workload", "nosuchwl"}, {"--workload", "nosuchwl"}},
    {"UnknownWorkloadParameter", {"run", "--workload", "atax:m=3"}, {"--workload", "atax", "'m'"}},
    {"WorkloadParameterOutOfRange", {"run", "--workload", "atax:n=0"}, {"--workload", "atax", "n"}},
    {"WorkloadParameterNotANumber", {"run", "--workload", "atax:n=12abc"}, {"--workload", "atax", "12abc"}},
    {"StatsToUnwritablePath", quickRun({"--stats", "/nonexistent/dir/s.json"}), {"--stats", "/nonexistent/dir/s.json"}},
    {"ListBogus", {"list", "bogus"}, {"bogus"}},
    {"MaxCyclesNotANumber", {"run", "--max-cycles", "abc"}, {"--max-cycles"}},
    {"ZeroThreads", quickRun({"--threads", "0"}), {"--threads", "0"}},
    {"TooManyThreads", quickRun({"--threads", "100000"}), {"--threads", "100000"}},
    {"RegressZeroThreads", {"regress", "--threads", "0"}, {"--threads"}},

    // The following are model bugs found while writing these tests (see the report); they stay
    // enabled and fail until fixed.
    //
    // A stray positional argument is silently ignored: `gpusim run vectoradd` runs the default
    // workload (atax) instead of complaining.
    {"StrayPositionalArgument", quickRun({"stray_argument"}), {"stray_argument"}},
    // A negative --max-cycles wraps around to 2^64 - 5 and is accepted.
    {"NegativeMaxCycles", quickRun({"--max-cycles", "-5"}), {"--max-cycles"}},
    // A directory given as platform file ends as "internal error", exit 3.
    {"PlatformFileIsADirectory", {"run", "--platform", "@DIR@/a_directory.json"}, {"@DIR@/a_directory.json"}},
    // Two platform files naming each other as base recurse until the stack overflows (SIGSEGV).
    {"PlatformBaseCycle", {"config", "--platform", "@DIR@/cycle_a.json"}, {"base"}},
    // A huge integer is converted double -> int64 without a range check (undefined behaviour) and
    // the message reports the garbage value instead of what the user typed.
    {"SetHugeInteger", {"run", "--set", "l1d.ways=1e300"}, {"l1d.ways"}, "-9223372036854775808"},
    // OWL's prefetch installs whole lines: it refuses a sectored L2 rather than mix the two.
    {"OwlPrefetchOnASectoredL2", {"run", "--platform", "gtx480", "--scheduler", "owl"}, {"l2.sector_bytes", "OWL"}},
    // The collector and the memory-issue FIFO model the same path: one or the other.
    {"CollectorAndMemIssueQueue", {"run", "--platform", "gtx480", "--set", "sm.mem_issue_queue=4"},
     {"sm.mem_issue_queue", "operand collector"}},
};

class CliBadInput : public ::testing::TestWithParam<BadInput> {};

} // namespace

TEST_P(CliBadInput, ExitsWithStatus2AndOneErrorLineNamingTheCulprit) {
    const BadInput& c = GetParam();
    ScratchDir dir;
    writeFixtures(dir);
    std::vector<std::string> args;
    for (const auto& a : c.args) args.push_back(substitute(a, dir.path().string()));

    const ProcessResult r = runGpusim(args);
    const std::string cmd = commandLine(args);
    EXPECT_FALSE(r.signaled) << cmd << "\nkilled by signal " << (r.status - 128) << "\nstderr: " << r.err;
    EXPECT_EQ(r.status, 2) << cmd << "\nstderr: " << r.err;
    EXPECT_EQ(r.out, "") << cmd;
    const auto lines = r.errLines();
    ASSERT_EQ(lines.size(), 1u) << cmd << "\nstderr: " << r.err;
    ASSERT_TRUE(r.err.ends_with("\n")) << cmd;
    const std::string& line = lines.front();
    EXPECT_TRUE(line.starts_with("gpusim: error: ")) << cmd << "\n" << line;
    for (const auto& m : c.mentions) {
        const std::string want = substitute(m, dir.path().string());
        EXPECT_NE(line.find(want), std::string::npos) << cmd << "\nexpected '" << want << "' in: " << line;
    }
    if (!c.absent.empty()) {
        EXPECT_EQ(line.find(c.absent), std::string::npos) << cmd << "\n" << line;
    }
}

INSTANTIATE_TEST_SUITE_P(Cli, CliBadInput, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<BadInput>& info) { return info.param.name; });

// ---------------------------------------------------------------- good input on the same paths

TEST(CliGoodInput, RunHelpExitsZero) {
    const ProcessResult r = runGpusim({"run", "--help"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    for (const char* opt : {"--platform", "--set", "--scheduler", "--workload", "--stats", "--max-cycles", "--quiet"})
        EXPECT_NE(r.out.find(opt), std::string::npos) << opt << " missing from:\n" << r.out;
}

TEST(CliGoodInput, ListPlatformsNamesFermi15) {
    const ProcessResult r = runGpusim({"list", "platforms"});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    bool found = false;
    std::istringstream in(r.out);
    for (std::string l; std::getline(in, l);) found |= l.starts_with("fermi15 ");
    EXPECT_TRUE(found) << r.out;
}

TEST(CliGoodInput, ListSchedulersAndWorkloads) {
    const ProcessResult s = runGpusim({"list", "schedulers"});
    EXPECT_EQ(s.status, 0) << s.err;
    EXPECT_NE(s.out.find("lrr"), std::string::npos) << s.out;
    EXPECT_NE(s.out.find("gto"), std::string::npos) << s.out;
    const ProcessResult w = runGpusim({"list", "workloads"});
    EXPECT_EQ(w.status, 0) << w.err;
    EXPECT_NE(w.out.find("atax"), std::string::npos) << w.out;
    EXPECT_NE(w.out.find("vectoradd"), std::string::npos) << w.out;
}

TEST(CliGoodInput, ConfigAppliesSetOverride) {
    const ProcessResult r = runGpusim({"config", "--platform", "fermi15", "--set", "l1d.ways=4"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    const auto j = nlohmann::json::parse(r.out, nullptr, /*allow_exceptions=*/false);
    ASSERT_FALSE(j.is_discarded()) << "not JSON:\n" << r.out;
    EXPECT_EQ(j.value("platform", ""), "fermi15");
    ASSERT_TRUE(j.contains("params")) << r.out;
    EXPECT_EQ(j["params"]["l1d.ways"], 4);
    EXPECT_EQ(j["params"]["l1d.size_bytes"], 32768);  // the rest from fermi15.json
    EXPECT_EQ(j["params"]["gpu.num_sms"], 15);
}

} // namespace cli_errors_test
