// The trace front end through the gpusim executable: `trace export` then `run --workload
// trace:DIR` reproduces the built-in run statistic for statistic; malformed traces end with exit
// status 2 and one stderr line "gpusim: error: FILE:LINE: reason", including errors found only
// once the simulation reads a section; the end-of-run warning for unknown opcodes; every
// instruction-line layout (tb/data/traces/layouts) runs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/common/ProcessRunner.hpp"

namespace trace_cli_test {

using namespace gpusim::tb;

namespace {

const std::string kSmallDir = std::string(GPUSIM_SOURCE_DIR) + "/tb/data/traces/small";

nlohmann::json stats(const std::string& path) { return nlohmann::json::parse(readFile(path)); }

void expectInputError(const ProcessResult& r, const std::string& message, const std::vector<std::string>& args) {
    EXPECT_EQ(r.status, 2) << commandLine(args) << "\n" << r.err;
    ASSERT_EQ(r.errLines().size(), 1u) << commandLine(args) << "\n" << r.err;
    EXPECT_EQ(r.errLines()[0], "gpusim: error: " + message);
    EXPECT_EQ(r.out, "");
}

} // namespace

TEST(TraceCli, ExportedBuiltinRunsExactlyLikeTheBuiltin) {
    // Identical instruction streams (the round-trip unit test) must give an identical run.
    ScratchDir d;
    const std::string dir = (d / "atax").string();
    const std::vector<std::string> exp = {"trace", "export", "--workload", "atax:n=64", "--out", dir};
    const ProcessResult e = runGpusim(exp);
    ASSERT_EQ(e.status, 0) << e.err;
    // atax n=64: 2 kernels, 1 CTA of 8 warps each.
    const std::string summary = "wrote " + dir + "/kernelslist.g: 2 kernels, 16 warps, ";
    EXPECT_EQ(e.out.substr(0, summary.size()), summary);
    const std::string a = (d / "a.json").string(), b = (d / "b.json").string();
    const ProcessResult ra = runGpusim({"run", "-q", "--workload", "atax:n=64", "--stats", a});
    const ProcessResult rb = runGpusim({"run", "-q", "--workload", "trace:" + dir, "--stats", b});
    ASSERT_EQ(ra.status, 0) << ra.err;
    ASSERT_EQ(rb.status, 0) << rb.err;
    EXPECT_EQ(rb.err, "");  // no warning: every opcode known, every warp ends with EXIT
    const nlohmann::json sa = stats(a), sb = stats(b);
    EXPECT_GT(sa["stats"]["gpu.cycles"].get<uint64_t>(), 0u);
    EXPECT_EQ(sa["stats"], sb["stats"]);
    EXPECT_EQ(sb["workload"]["name"], "trace");
    EXPECT_EQ(sb["workload"]["report"]["unknown_opcode_instructions"], 0);
}

TEST(TraceCli, EveryLineLayoutRuns) {
    // tb/data/traces/layouts: one kernel per instruction-line layout (v3, v4, v5 with one and
    // with two immediates, v6 with register values, v6 with lineinfo); 7 + 6 + 8 + 7 + 9 + 6
    // warp instructions, counted by hand (trace_layout_test.cpp).
    ScratchDir d;
    const std::string s = (d / "s.json").string();
    const std::vector<std::string> args = {"run", "-q", "--workload",
                                           "trace:" + std::string(GPUSIM_SOURCE_DIR) + "/tb/data/traces/layouts",
                                           "--stats", s};
    const ProcessResult r = runGpusim(args);
    ASSERT_EQ(r.status, 0) << commandLine(args) << "\n" << r.err;
    EXPECT_EQ(r.err, "");
    const nlohmann::json st = stats(s);
    EXPECT_EQ(st["stats"]["gpu.warp_instructions"], 43);
    EXPECT_EQ(st["workload"]["report"]["unknown_opcode_instructions"], 0);
    EXPECT_EQ(st["workload"]["report"]["warps_without_exit"], 0);
}

TEST(TraceCli, UnknownOpcodesAreReportedAtTheEnd) {
    ScratchDir d;
    const std::string s = (d / "s.json").string();
    const ProcessResult r = runGpusim({"run", "-q", "--workload", "trace:" + kSmallDir, "--stats", s});
    ASSERT_EQ(r.status, 0) << r.err;
    ASSERT_EQ(r.errLines().size(), 1u) << r.err;
    EXPECT_EQ(r.errLines()[0],
              "gpusim: warning: trace: 4 instructions with opcodes not in the opcode table ran as ALU: FOO (4)");
    const nlohmann::json j = stats(s);
    EXPECT_EQ(j["workload"]["report"]["unknown_opcodes"]["FOO"], 4);
    EXPECT_EQ(j["workload"]["report"]["memcpy_htod"].size(), 3u);
    EXPECT_EQ(j["stats"]["gpu.warp_instructions"], 55);
}

TEST(TraceCli, ErrorFoundInsideTheSimulationExitsTwoWithFileAndLine) {
    ScratchDir d;
    std::string text = readFile(kSmallDir + "/kernel-1.traceg");
    // Block 1, warp 1 declares one instruction more than it has: found when CTA 1 is placed.
    const size_t tb1 = text.find("thread block = 1,0,0");
    const size_t w1 = text.find("warp = 1", tb1);
    text.replace(text.find("insts = 13", w1), 10, "insts = 14");
    writeFile(d / "kernel-1.traceg", text);
    writeFile(d / "kernelslist.g", "kernel-1.traceg\n");
    unsigned endLine = 1;  // the #END_TB that closes the short warp
    for (size_t i = 0; i < text.find("#END_TB", w1); ++i) endLine += text[i] == '\n';
    const std::vector<std::string> args = {"run", "-q", "--workload", "trace:" + d.path().string()};
    expectInputError(runGpusim(args),
                     (d / "kernel-1.traceg").string() + ":" + std::to_string(endLine) +
                         ": warp 1: insts = 14 but 13 instruction lines follow",
                     args);
}

TEST(TraceCli, ErrorsFoundAtLoadExitTwo) {
    ScratchDir d;
    std::string text = readFile(kSmallDir + "/kernel-1.traceg");
    text.replace(text.find("-accelsim tracer version = 5"), 28, "-accelsim tracer version = 9");
    writeFile(d / "kernel-1.traceg", text);
    writeFile(d / "kernelslist.g", "kernel-1.traceg\n");
    const std::vector<std::string> bad = {"run", "-q", "--workload", "trace:" + d.path().string()};
    expectInputError(runGpusim(bad), (d / "kernel-1.traceg").string() + ":12: -accelsim tracer version 9 is not supported (3 to 6)", bad);
    const std::vector<std::string> missing = {"run", "-q", "--workload", "trace:" + (d / "nope").string()};
    expectInputError(runGpusim(missing),
                     "--workload: trace: " + (d / "nope").string() + ": no such file (DIR must hold kernelslist.g)", missing);
}

TEST(TraceCli, ExportCommandErrors) {
    const std::vector<std::string> noOut = {"trace", "export", "--workload", "atax:n=32"};
    expectInputError(runGpusim(noOut), "trace export: --out is required", noOut);
    const std::vector<std::string> noWl = {"trace", "export", "--out", "/tmp/x"};
    expectInputError(runGpusim(noWl), "trace export: --workload is required", noWl);
    const std::vector<std::string> sub = {"trace", "import"};
    expectInputError(runGpusim(sub), "trace: unknown subcommand 'import'; did you mean 'export'? (expected export)", sub);
    const std::vector<std::string> badWl = {"trace", "export", "--workload", "nosuch", "--out", "/tmp/x"};
    expectInputError(runGpusim(badWl), "--workload: unknown workload 'nosuch' (see gpusim list workloads)", badWl);
}

} // namespace trace_cli_test
