// `gpusim noc`, the synthetic-traffic testbench, end to end: one run, a sweep (CSV on stdout,
// saturation on stderr, JSON with --stats), a soak, and bad input (exit 2, one line).
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/common/ProcessRunner.hpp"

namespace noc_cli_test {

using namespace gpusim::tb;

namespace {

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    for (std::string l; std::getline(in, l);) out.push_back(l);
    return out;
}

} // namespace

TEST(NocCli, OneRunPrintsASummary) {
    const std::vector<std::string> args = {"noc", "--topology", "mesh", "--nodes", "16", "--rate", "0.05",
                                           "--warmup", "200", "--cycles", "2000"};
    const ProcessResult r = runGpusim(args);
    ASSERT_EQ(r.status, 0) << commandLine(args) << "\n" << r.err;
    EXPECT_NE(r.out.find("mesh 4x4, XY routing"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("accepted throughput"), std::string::npos) << r.out;
    // 4x4 uniform: zero load 3.5 routers * 4 cycles (see synthetic_traffic_test).
    EXPECT_NE(r.out.find("zero load 14.00"), std::string::npos) << r.out;
}

TEST(NocCli, SweepPrintsCsvAndReportsSaturation) {
    ScratchDir dir;
    const std::string statsPath = (dir / "sweep.json").string();
    const std::vector<std::string> args = {"noc",     "--topology", "crossbar", "--rates", "0.2,0.5,0.9",
                                           "--sweep", "--warmup",   "200",      "--cycles", "2000",
                                           "--drain", "3000",       "--stats",  statsPath};
    const ProcessResult r = runGpusim(args);
    ASSERT_EQ(r.status, 0) << commandLine(args) << "\n" << r.err;
    const auto out = lines(r.out);
    ASSERT_EQ(out.size(), 4u) << r.out;
    EXPECT_EQ(out[0], "rate,offered,accepted,latency_mean,latency_p50,latency_p99,latency_max,zero_load_latency,drained");
    for (size_t i = 1; i < out.size(); ++i) {
        size_t commas = 0;
        for (char c : out[i]) commas += c == ',';
        EXPECT_EQ(commas, 8u) << out[i];
    }
    // A FIFO crossbar saturates near 0.6: 0.2 and 0.5 are below, 0.9 above.
    EXPECT_EQ(out[3].rfind("0.9,", 0), 0u) << out[3];
    EXPECT_NE(r.err.find("saturation at rate 0.9 "), std::string::npos) << r.err;
    const auto j = nlohmann::json::parse(readFile(statsPath));
    ASSERT_EQ(j["results"].size(), 3u);
    EXPECT_EQ(j["saturation_index"], 2);
    EXPECT_EQ(j["config"]["noc.topology"], "crossbar");
    EXPECT_LT(j["results"][2]["accepted"].get<double>(), 0.65);
}

TEST(NocCli, SoakChecksDelivery) {
    const std::vector<std::string> args = {"noc", "--topology", "butterfly", "--soak", "--rate", "1",
                                           "--packet-flits", "5", "--cycles", "1000"};
    const ProcessResult r = runGpusim(args);
    ASSERT_EQ(r.status, 0) << commandLine(args) << "\n" << r.err;
    EXPECT_NE(r.out.find("every packet delivered exactly once"), std::string::npos) << r.out;
}

TEST(NocCli, BadInputExitsTwoWithOneLine) {
    const std::vector<std::vector<std::string>> cases = {
        {"noc", "--pattern", "bitrev"},          {"noc", "--rate", "2"},
        {"noc", "--topology", "torus"},          {"noc", "stray"},
        {"noc", "--sweep", "--rates", "1:0:1"},  {"noc", "--topology", "mesh", "--nodes", "12"},
        {"noc", "--sweep", "--soak"},            {"noc", "--set", "noc.vcs=0"}};
    for (const auto& args : cases) {
        const ProcessResult r = runGpusim(args);
        EXPECT_EQ(r.status, 2) << commandLine(args) << "\n" << r.err;
        EXPECT_EQ(r.errLines().size(), 1u) << commandLine(args) << "\n" << r.err;
    }
    const ProcessResult t = runGpusim({"noc", "--topology", "torus"});
    EXPECT_NE(t.err.find("noc.topology"), std::string::npos) << t.err;
}

} // namespace noc_cli_test
