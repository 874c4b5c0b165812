// A user's memory behind the L2 (GpuOptions::externalMemory) written the easy ways, on fermi15
// with a protocol checker on every link: a loosely-timed model that registers only b_transport
// behind a tlm_utils::simple_target_socket (the socket turns our nb_transport_fw into its
// b_transport calls), and a memory that asks for partition-local addresses
// (GpuOptions::memoryAddresses). The address map the Gpu makes public is checked against hand
// arithmetic.
//
// vectoradd:n=4096 reads A = [0x10000000, 0x10004000) and B = [0x10004000, 0x10008000)
// (workloads/DeviceAllocator.hpp: buffers of 16 KB from 0x10000000), each 128-byte line by one
// warp: 256 line reads, none merged. fermi15's map: 6 partitions, 256-byte chunks, no hash; 16
// banks, 2048-byte rows, bank interleave 2048.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "common/Config.hpp"
#include "common/SimError.hpp"
#include "common/Stats.hpp"
#include "platforms/Gpu.hpp"
#include "platforms/PlatformFiles.hpp"
#include "platforms/Schema.hpp"
#include "scheduler/PolicyRegistry.hpp"
#include "tb/common/TlmProtocolChecker.hpp"
#include "workloads/Workload.hpp"

namespace gpusim::tb {
namespace cosim_user_memory_test {

using namespace sc_core;

struct Platform {
    Config cfg{gpuSchema()};
    PolicyChoice policy;
    StatRegistry stats;
    ProtocolCheckers checkers;
    explicit Platform(const std::vector<std::string>& sets = {}) {
        cfg.loadFile(resolvePlatform("fermi15"));
        for (const auto& kv : sets) cfg.setFromString(kv);
        cfg.validate();
        policy = PolicyRegistry::builtin().parse("gto");
    }
    void expectCleanLinks() const {
        EXPECT_EQ(checkers.violationCount(), 0u) << checkers.report();
        EXPECT_EQ(checkers.openTransactions(), 0u) << checkers.report();
    }
};

// A loosely-timed memory: b_transport only, `latency` added to the delay, every address kept.
struct LtMemory : sc_module {
    tlm_utils::simple_target_socket<LtMemory> socket{"socket"};
    sc_time latency;
    uint64_t calls = 0, reads = 0, writes = 0;
    std::vector<uint64_t> addresses;
    LtMemory(sc_module_name n, sc_time l) : sc_module(n), latency(l) {
        socket.register_b_transport(this, &LtMemory::bTransport);
    }
    void bTransport(tlm::tlm_generic_payload& p, sc_time& t) {
        ++calls;
        (p.is_read() ? reads : writes)++;
        addresses.push_back(p.get_address());
        t += latency;
        p.set_response_status(tlm::TLM_OK_RESPONSE);
    }
};

struct UserMemoryRun {
    Platform p;
    std::unique_ptr<Workload> wl;
    std::unique_ptr<Gpu> gpu;
    std::vector<std::unique_ptr<LtMemory>> mems;
    UserMemoryRun(const std::string& spec, const std::vector<std::string>& sets, MemoryAddresses addresses) : p(sets) {
        wl = WorkloadRegistry::builtin().create(spec, 1);
        GpuOptions opt;
        opt.externalMemory = true;
        opt.memoryAddresses = addresses;
        gpu = std::make_unique<Gpu>("gpu", p.cfg, p.policy, *wl, p.stats, p.checkers.hook(), opt);
        for (unsigned j = 0; j < gpu->partitions(); ++j) {
            mems.push_back(std::make_unique<LtMemory>(("lt_mem" + std::to_string(j)).c_str(), sc_time(100, SC_NS)));
            gpu->memorySocket(j).bind(mems.back()->socket);
        }
    }
    uint64_t total(uint64_t LtMemory::*field) const {
        uint64_t n = 0;
        for (const auto& m : mems) n += (*m).*field;
        return n;
    }
};

// The b_transport memory answers every L2 miss: 256 calls, all reads, one per line read, no
// write-back (vectoradd's output stays in the 768 KB L2).
TEST(CosimUserMemory, BTransportOnlyMemoryAnswersEveryL2Miss) {
    UserMemoryRun r("vectoradd:n=4096", {}, MemoryAddresses::Global);
    const RunResult res = r.gpu->run({});
    EXPECT_FALSE(res.truncated);
    r.p.expectCleanLinks();
    EXPECT_EQ(r.total(&LtMemory::calls), 256u);
    EXPECT_EQ(r.total(&LtMemory::reads), 256u);
    EXPECT_EQ(r.total(&LtMemory::writes), 0u);
    EXPECT_EQ(r.p.stats.sum("l2.slice", ".read_misses"), 256);
    EXPECT_EQ(r.p.stats.sum("l2.slice", ".mshr_merges"), 0);
    EXPECT_EQ(r.p.stats.get("kernel0.ctas"), 16);
}

// With an L2 of 2 KB per slice (16 lines: 2 sets of 8 ways) the output C (128 lines, written
// without a fetch) no longer fits, and dirty lines are written back through b_transport too:
// calls = read misses + write-back writes, every A and B line read once (256), and between
// 128 - 6 x 16 = 32 and 128 write-backs (at most 16 lines of any kind stay in each of the 6
// slices at the end). Two slices per partition put the slice arbiter in front of each memory.
void runWithWritebacks(const std::vector<std::string>& extra) {
    std::vector<std::string> sets = {"l2.size_bytes=2048"};
    sets.insert(sets.end(), extra.begin(), extra.end());
    UserMemoryRun r("vectoradd:n=4096", sets, MemoryAddresses::Global);
    r.gpu->run({});
    r.p.expectCleanLinks();
    const double misses = r.p.stats.sum("l2.slice", ".read_misses") -
                          (r.p.stats.sum("l2.slice", ".mshr_merges") - r.p.stats.sum("l2.slice", ".write_merges"));
    const double writebacks = r.p.stats.sum("l2.slice", ".writebacks");
    EXPECT_EQ(double(r.total(&LtMemory::reads)), misses);
    EXPECT_EQ(r.total(&LtMemory::reads), 256u);
    EXPECT_EQ(double(r.total(&LtMemory::writes)), r.p.stats.sum("l2.slice", ".writeback_writes"));
    EXPECT_EQ(double(r.total(&LtMemory::writes)), writebacks);  // unsectored: one write per line
    EXPECT_EQ(double(r.total(&LtMemory::calls)), misses + writebacks);
    EXPECT_GE(writebacks, 32);
    EXPECT_LE(writebacks, 128);
}

TEST(CosimUserMemory, BTransportOnlyMemoryTakesWritebacks) { runWithWritebacks({}); }
TEST(CosimUserMemory, BTransportOnlyMemoryBehindTwoSlicesPerPartition) {
    // 1 KB per slice keeps 2 KB (16 lines) per partition: the bounds above still hold.
    runWithWritebacks({"l2.slices_per_partition=2", "l2.size_bytes=1024"});
}

// Gpu::addressMap() on fermi15, by hand: 0x10000000 is chunk 0x100000 = 1048576 =
// 6 x 174762 + 4: partition 4, local 174762 x 256 = 0x2AAAA00; bank bits 11..14 of it:
// 0x2AAAA00 >> 11 = 0x5555, bank 5, row 0x555 = 1365, column 0x200 = 512. 0x10000100 (the next
// chunk) is partition 5 with the same local address.
TEST(CosimUserMemory, AddressMapIsPublic) {
    Platform p;
    std::unique_ptr<Workload> wl = WorkloadRegistry::builtin().create("vectoradd:n=4096", 1);
    Gpu gpu("gpu", p.cfg, p.policy, *wl, p.stats);
    const AddressMap& map = gpu.addressMap();
    EXPECT_EQ(map.partitions(), 6u);
    EXPECT_EQ(map.locate(0x10000000), (AddressLocation{4, 0x2AAAA00, DramCoord{5, 1365, 512}}));
    EXPECT_EQ(map.locate(0x10000100), (AddressLocation{5, 0x2AAAA00, DramCoord{5, 1365, 512}}));
    EXPECT_EQ(map.globalAddress(4, 0x2AAAA00), 0x10000000u);
}

// Partition-local addresses: A and B are chunks 1048576..1048703 (128 chunks of 256 bytes),
// groups of 6 chunks 174762..174783, so every memory's line reads lie in
// [174762 x 256, 174784 x 256) = [0x2AAAA00, 0x2AAC000), dense, instead of the global
// [0x10000000, 0x10008000). 128 = 6 x 21 + 2 chunks starting at partition 4: partitions 4 and 5
// get 22 chunks (44 lines), the others 21 (42 lines). Partition 4 sees local 0x2AAAA00 (global
// 0x10000000). The L2 gets the global addresses back: every fill finds its MSHR entry and the
// run ends with every link drained.
TEST(CosimUserMemory, PartitionLocalAddressesReachTheMemoryAndGlobalOnesComeBack) {
    UserMemoryRun r("vectoradd:n=4096", {}, MemoryAddresses::PartitionLocal);
    r.gpu->run({});
    r.p.expectCleanLinks();
    EXPECT_NE(r.p.checkers.find("l2.0->mem"), nullptr);
    const std::vector<uint64_t> perMemory = {42, 42, 42, 42, 44, 44};
    const AddressMap& map = r.gpu->addressMap();
    for (unsigned j = 0; j < 6; ++j) {
        const LtMemory& m = *r.mems[j];
        EXPECT_EQ(m.reads, perMemory[j]) << "memory " << j;
        for (const uint64_t a : m.addresses) {
            EXPECT_GE(a, 0x2AAAA00u) << "memory " << j;
            EXPECT_LT(a, 0x2AAC000u) << "memory " << j;
            EXPECT_EQ(a % 128, 0u);
            const uint64_t g = map.globalAddress(j, a);
            EXPECT_EQ(map.partition(g), j);
            EXPECT_GE(g, 0x10000000u);
            EXPECT_LT(g, 0x10008000u);
        }
    }
    const auto& m4 = r.mems[4]->addresses;
    EXPECT_NE(std::find(m4.begin(), m4.end(), 0x2AAAA00u), m4.end());
    EXPECT_EQ(r.p.stats.sum("l2.slice", ".read_misses"), 256);
}

// The built-in memory models decode global addresses: asking for local ones without an external
// memory is refused when the GPU is built.
TEST(CosimUserMemory, PartitionLocalAddressesNeedAnExternalMemory) {
    Platform p;
    std::unique_ptr<Workload> wl = WorkloadRegistry::builtin().create("vectoradd:n=4096", 1);
    GpuOptions opt;
    opt.memoryAddresses = MemoryAddresses::PartitionLocal;
    EXPECT_THROW(Gpu("gpu", p.cfg, p.policy, *wl, p.stats, {}, opt), ModelError);
}

} // namespace cosim_user_memory_test
} // namespace gpusim::tb
