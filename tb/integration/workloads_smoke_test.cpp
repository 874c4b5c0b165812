// Every built-in workload, at a tiny size, runs to completion on the whole fermi15 GPU with the
// GTO scheduler and a TLM protocol checker on every link: the SMs issue exactly the instructions
// the workload's streams hold (counted by draining a second copy of the streams, the reference
// here), the protocol stays clean and nothing is left in flight. One test case per workload.
#include <gtest/gtest.h>

#include <string>

#include "tb/common/GpuTestBench.hpp"

namespace workloads_smoke_test {

using namespace gpusim;
using namespace gpusim::tb;

namespace {

// The reference count: pull every warp's stream of every kernel to its end. Streams are created
// afresh per call, so this does not disturb the run.
uint64_t totalInstructions(const Workload& w) {
    uint64_t total = 0;
    for (const auto& k : w.kernels())
        for (uint64_t cta = 0; cta < k->info().ctas(); ++cta)
            for (unsigned warp = 0; warp < k->info().warpsPerCta(); ++warp) {
                auto s = k->warp(cta, warp);
                WarpInstruction in;
                while (s->next(in)) ++total;
            }
    return total;
}

void runSmoke(const std::string& spec) {
    GpuTestBench b("gto", spec);
    const uint64_t expected = totalInstructions(*b.workload);
    ASSERT_GT(expected, 0u);
    RunResult r;
    ASSERT_NO_THROW(r = b.run()) << spec;
    EXPECT_FALSE(r.truncated) << spec;
    EXPECT_EQ(r.instructions, expected) << spec;
    EXPECT_EQ(b.stat("gpu.warp_instructions"), expected) << spec;
    uint64_t ctas = 0;
    for (const auto& k : b.workload->kernels()) ctas += k->info().ctas();
    EXPECT_EQ(b.sum("sm", ".ctas"), ctas) << spec;
    EXPECT_EQ(b.checkers.size(), b.numSms() + 2 * b.numPartitions()) << "a checker on every link";
    EXPECT_EQ(b.checkers.violationCount(), 0u) << b.checkers.report();
    EXPECT_EQ(b.checkers.openTransactions(), 0u) << b.checkers.report();
    EXPECT_EQ(b.gpu->pool().outstanding(), 0u);
    EXPECT_TRUE(b.gpu->dispatcher().done());
}

} // namespace

TEST(WorkloadsSmoke, Vectoradd) { runSmoke("vectoradd:n=3000"); }
TEST(WorkloadsSmoke, Atax) { runSmoke("atax:n=64"); }
TEST(WorkloadsSmoke, Bicg) { runSmoke("bicg:n=64"); }
TEST(WorkloadsSmoke, Mvt) { runSmoke("mvt:n=64"); }
TEST(WorkloadsSmoke, Gesummv) { runSmoke("gesummv:n=64"); }
TEST(WorkloadsSmoke, Syrk) { runSmoke("syrk:n=32,m=16"); }
TEST(WorkloadsSmoke, Syr2k) { runSmoke("syr2k:n=32,m=8"); }
TEST(WorkloadsSmoke, TwoMm) { runSmoke("2mm:n=32"); }
TEST(WorkloadsSmoke, Conv3d) { runSmoke("3dconv:n=12"); }
TEST(WorkloadsSmoke, Fdtd2d) { runSmoke("fdtd2d:nx=16,ny=64,tmax=2"); }
TEST(WorkloadsSmoke, Bfs) { runSmoke("bfs:nodes=2000"); }
TEST(WorkloadsSmoke, Kmeans) { runSmoke("kmeans:points=1000,features=4,clusters=3,iterations=2"); }
TEST(WorkloadsSmoke, Streamcluster) { runSmoke("streamcluster:points=1024,dim=4,centers=5,launches=2"); }
TEST(WorkloadsSmoke, Srad) { runSmoke("srad:rows=32,cols=64,iterations=1"); }
TEST(WorkloadsSmoke, Backprop) { runSmoke("backprop:in=128"); }
TEST(WorkloadsSmoke, Pathfinder) { runSmoke("pathfinder:cols=1000,rows=9,pyramid_height=4"); }
TEST(WorkloadsSmoke, Hotspot) { runSmoke("hotspot:grid=40,pyramid_height=2,iterations=3"); }
TEST(WorkloadsSmoke, SpmvRows) { runSmoke("spmv:rows=1000,nnz_per_row=6,cluster=0"); }
TEST(WorkloadsSmoke, SpmvColumns) { runSmoke("spmv:rows=1000,nnz_per_row=6,cluster=1"); }
TEST(WorkloadsSmoke, Lps) { runSmoke("lps:nx=40,ny=8,nz=4,iterations=2"); }
TEST(WorkloadsSmoke, Matmul) { runSmoke("matmul:n=32,tile=16"); }
TEST(WorkloadsSmoke, Blackscholes) { runSmoke("blackscholes:options=2000,blocks=8"); }
TEST(WorkloadsSmoke, InvertedIndex) { runSmoke("invertedindex:records=256,record_bytes=32"); }
TEST(WorkloadsSmoke, HistogramPrivatized) { runSmoke("histogram:bytes=8000,blocks=4,privatized=1"); }
TEST(WorkloadsSmoke, HistogramGlobal) { runSmoke("histogram:bytes=8000,blocks=4,privatized=0"); }

} // namespace workloads_smoke_test
