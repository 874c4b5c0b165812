// `gpusim bench` at its quick sizes: every suite case runs and reports figures whose simulated
// side is checkable by hand (the host-speed side is only checked for being measured at all:
// speed targets live in the benchmark's output, never in a test).
#include <gtest/gtest.h>

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "tb/common/ProcessRunner.hpp"

namespace bench_cli_test {

using namespace gpusim::tb;
using nlohmann::json;

TEST(BenchCli, QuickSuiteReportsEveryCaseAsTableAndJson) {
    ScratchDir dir;
    const auto out = (dir / "bench.json").string();
    const ProcessResult r = runGpusim({"bench", "--size", "quick", "--json", out});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("insts/s"), std::string::npos) << r.out;
    const json j = json::parse(readFile(out));
    ASSERT_EQ(j["cases"].size(), 7u);  // fermi15 and fermi30 x 3 kernels, plus one trace
    std::map<std::string, uint64_t> insts;
    for (const auto& c : j["cases"]) {
        EXPECT_GT(c["cycles"].get<uint64_t>(), 0u);
        EXPECT_GT(c["cpu_seconds"].get<double>(), 0.0);
        EXPECT_GT(c["peak_rss_mib"].get<double>(), 1.0);
        EXPECT_NE(r.out.find(c["case"].get<std::string>()), std::string::npos) << "row missing from the table";
        insts[c["case"].get<std::string>()] = c["warp_instructions"];
    }
    // vectoradd n = 16384: 512 warps x 9 instructions (workloads/builtin/VectorAdd.cpp).
    EXPECT_EQ(insts["fermi15 streaming vectoradd:n=16384"], 4608u);
    // atax n = 64: one CTA of 256 threads per kernel, 2 warps with rows (7n + 6 instructions)
    // and 6 without (5), 2 kernels (tb/integration/gpu_run_test.cpp's formula): 1876.
    EXPECT_EQ(insts["fermi15 atax atax:n=64"], 2u * (2u * (7u * 64u + 6u) + 6u * 5u));
    // The program does not depend on the platform.
    EXPECT_EQ(insts["fermi30 streaming vectoradd:n=16384"], 4608u);
    EXPECT_EQ(insts["fermi30 divergent spmv:rows=1024"], insts["fermi15 divergent spmv:rows=1024"]);
    // A trace of bicg replays bicg's instructions.
    EXPECT_GT(insts["fermi15 trace bicg:n=64"], 0u);
}

TEST(BenchCli, BadSizeExits2) {
    const ProcessResult r = runGpusim({"bench", "--size", "huge"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--size: 'huge' is not one of full, quick, callgrind"), std::string::npos) << r.err;
}

} // namespace bench_cli_test
