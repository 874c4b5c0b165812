// l1d.flush_at_kernel_end on a whole GPU: srad with two iterations runs its kernels again over the
// same image, and a CTA of a later kernel meets lines an earlier kernel left in its SM's L1D
// (measured: 1916 read hits without the flush); with the flush every kernel starts cold: lines
// are invalidated at each kernel boundary (counted) and the later kernels miss more. (Kernels
// whose CTAs land on other SMs than the data's earlier readers, atax, bicg or 2mm at small sizes,
// show no difference: their reuse across kernels is not within one SM.)
#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

#include "tb/common/ProcessRunner.hpp"

namespace l1d_flush_test {

using namespace gpusim::tb;
using nlohmann::json;

namespace {

json runSrad(bool flush) {
    ScratchDir dir;
    const std::string stats = (dir / "s.json").string();
    const ProcessResult r =
        runGpusim({"run", "-q", "--platform", "fermi15", "--scheduler", "gto", "--workload", "srad:rows=64,cols=64,iterations=2", "--set",
                   std::string("l1d.flush_at_kernel_end=") + (flush ? "true" : "false"), "--stats", stats});
    EXPECT_EQ(r.status, 0) << r.err;
    return json::parse(readFile(stats));
}

double sumOf(const json& doc, const std::string& suffix) {
    double s = 0;
    for (const auto& [k, v] : doc["stats"].items())
        if (k.rfind("sm", 0) == 0 && k.size() > suffix.size() && k.compare(k.size() - suffix.size(), suffix.size(), suffix) == 0)
            s += v.get<double>();
    return s;
}

} // namespace

TEST(L1dFlush, EveryKernelStartsColdWithTheFlush) {
    const json kept = runSrad(false), flushed = runSrad(true);
    EXPECT_EQ(sumOf(kept, ".l1d.flushed_lines"), 0);
    EXPECT_GT(sumOf(flushed, ".l1d.flushed_lines"), 0);
    EXPECT_EQ(kept["stats"]["gpu.warp_instructions"], flushed["stats"]["gpu.warp_instructions"]);
    EXPECT_GT(sumOf(flushed, ".l1d.read_misses"), sumOf(kept, ".l1d.read_misses"));
    EXPECT_LT(sumOf(flushed, ".l1d.read_hits"), sumOf(kept, ".l1d.read_hits"));
}

} // namespace l1d_flush_test
