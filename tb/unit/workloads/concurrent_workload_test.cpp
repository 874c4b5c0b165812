// The workload concurrent:A+B (workloads/ConcurrentWorkload.hpp): part i's kernels in order on
// stream i, its global/local addresses moved up by i x 2^36 and its PCs by i x 2^28 (shared
// addresses kept), its parameters and errors; and `trace export` keeps the streams.
#include <gtest/gtest.h>

#include <string>

#include "common/SimError.hpp"
#include "tb/common/ProcessRunner.hpp"
#include "workloads/ConcurrentWorkload.hpp"
#include "workloads/Workload.hpp"
#include "workloads/trace/TraceWorkload.hpp"
#include "workloads/trace/TraceWriter.hpp"

namespace concurrent_workload_test {

using namespace gpusim;
using gpusim::tb::ScratchDir;

namespace {

std::unique_ptr<Workload> make(const std::string& spec) { return WorkloadRegistry::builtin().create(spec, 7); }

// The first memory instruction of warp 0 of CTA 0.
WarpInstruction firstMemory(const Kernel& k, MemSpace space) {
    auto s = k.warp(0, 0);
    WarpInstruction in;
    while (s->next(in))
        if (in.isMemory() && in.space == space) return in;
    ADD_FAILURE() << "no memory instruction in " << k.info().name;
    return in;
}

std::string errorOf(const std::string& spec) {
    try {
        make(spec);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST(ConcurrentWorkload, PartsOnTheirOwnStreamsInOrder) {
    const auto w = make("concurrent:atax:n=64+vectoradd:n=1024+atax:n=64");
    const auto atax = make("atax:n=64");
    ASSERT_EQ(w->kernels().size(), 5u);  // atax has 2 kernels, vectoradd 1
    const uint64_t streams[] = {0, 0, 1, 2, 2};
    const char* names[] = {"atax_kernel1", "atax_kernel2", "vectorAdd", "atax_kernel1", "atax_kernel2"};
    for (size_t k = 0; k < 5; ++k) {
        EXPECT_EQ(w->kernels()[k]->info().stream, streams[k]) << k;
        EXPECT_EQ(w->kernels()[k]->info().name, names[k]) << k;
    }
    EXPECT_EQ(w->name(), "concurrent");
    const auto p = w->params();
    ASSERT_EQ(p["parts"].size(), 3u);
    EXPECT_EQ(p["parts"][1]["spec"], "vectoradd:n=1024");
    EXPECT_EQ(p["parts"][1]["name"], "vectoradd");
    EXPECT_EQ(p["parts"][1]["params"]["n"], 1024);
    // Part 0 is unchanged; part 2 (the same atax) is moved by 2 x 2^36 and 2 x 2^28.
    const WarpInstruction a = firstMemory(*atax->kernels()[0], MemSpace::Global);
    const WarpInstruction p0 = firstMemory(*w->kernels()[0], MemSpace::Global);
    const WarpInstruction p2 = firstMemory(*w->kernels()[3], MemSpace::Global);
    EXPECT_EQ(p0.pc, a.pc);
    EXPECT_EQ(p2.pc, a.pc + 2 * kConcurrentPcStride);
    for (unsigned l = 0; l < kWarpSize; ++l) {
        if (!(a.activeMask >> l & 1u)) continue;
        EXPECT_EQ(p0.addr[l], a.addr[l]);
        EXPECT_EQ(p2.addr[l], a.addr[l] + 2 * kConcurrentAddressStride) << "lane " << l;
    }
}

TEST(ConcurrentWorkload, SharedMemoryAddressesAreKept) {
    // matmul tiles through shared memory: its shared accesses stay, its global ones move.
    const auto m = make("matmul:n=64");
    const auto w = make("concurrent:vectoradd:n=1024+matmul:n=64");
    const WarpInstruction s = firstMemory(*m->kernels()[0], MemSpace::Shared);
    const WarpInstruction s1 = firstMemory(*w->kernels()[1], MemSpace::Shared);
    for (unsigned l = 0; l < kWarpSize; ++l) {
        if (s.activeMask >> l & 1u) { EXPECT_EQ(s1.addr[l], s.addr[l]); }
    }
    const WarpInstruction g = firstMemory(*m->kernels()[0], MemSpace::Global);
    const WarpInstruction g1 = firstMemory(*w->kernels()[1], MemSpace::Global);
    for (unsigned l = 0; l < kWarpSize; ++l) {
        if (g.activeMask >> l & 1u) { EXPECT_EQ(g1.addr[l], g.addr[l] + kConcurrentAddressStride); }
    }
}

TEST(ConcurrentWorkload, BadSpecsAreNamed) {
    EXPECT_EQ(errorOf("concurrent:vectoradd"),
              "--workload: concurrent: needs at least two workloads (expected concurrent:SPEC+SPEC[+...], e.g. "
              "concurrent:kmeans+blackscholes)");
    EXPECT_EQ(errorOf("concurrent:vectoradd++atax"),
              "--workload: concurrent: part 1 is empty (expected concurrent:SPEC+SPEC[+...], e.g. "
              "concurrent:kmeans+blackscholes)");
    EXPECT_EQ(errorOf("concurrent:vectoradd+concurrent:atax+bicg"),
              "--workload: concurrent: part 1 'concurrent:atax' is itself concurrent (list every part at the top level)");
    EXPECT_EQ(errorOf("concurrent:vectoradd+atax:m=3"),
              "--workload: atax: unknown parameter 'm' (known: n)");
}

TEST(ConcurrentWorkload, TraceExportKeepsTheStreams) {
    ScratchDir dir;
    const auto w = make("concurrent:vectoradd:n=1024+atax:n=64");
    exportTrace(*w, dir.path().string());
    const TraceWorkload back(dir.path().string());
    ASSERT_EQ(back.kernels().size(), 3u);
    EXPECT_EQ(back.kernels()[0]->info().stream, 0u);
    EXPECT_EQ(back.kernels()[1]->info().stream, 1u);
    EXPECT_EQ(back.kernels()[2]->info().stream, 1u);
}

} // namespace concurrent_workload_test
