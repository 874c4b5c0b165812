#include "memory/L2SliceParams.hpp"

#include <bit>
#include <string>

#include "common/Config.hpp"

namespace gpusim {

namespace {
bool isPow2(int64_t v) { return v > 0 && std::has_single_bit(static_cast<uint64_t>(v)); }
} // namespace

void L2SliceParams::declare(ParamSchema& s) {
    s.addInt("l2.size_bytes", 131072, "bytes", 16, int64_t(1) << 30,
             "Capacity of one L2 slice (one per memory partition); 128 KB per controller in the "
             "Fermi baselines")
        .addInt("l2.line_bytes", 128, "bytes", 16, 4096, "L2 line size (power of two)")
        .addInt("l2.ways", 8, "", 1, 64, "L2 associativity")
        .addInt("l2.mshr_entries", 32, "", 1, 4096, "Lines one slice can have in flight to memory")
        .addInt("l2.mshr_max_merge", 8, "", 1, 64,
                "Requests one MSHR entry can hold, the one that allocated it included")
        .addInt("l2.tag_latency_cycles", 60, "cycles", 1, 100000,
                "L2 cycles from a lookup (the first L2 edge after a request is accepted) to its "
                "hit answer, write acknowledgement or miss request leaving the slice; 60 at "
                "700 MHz is the 120 core cycles at 1400 MHz of GPGPU-Sim's ROP delay (OAWS "
                "Table 1, minimum L2 latency)")
        .addInt("l2.input_queue", 8, "", 1, 4096,
                "Requests accepted from the NoC but not yet looked up; when full, END_REQ is "
                "withheld (back-pressure)")
        .addInt("l2.response_queue", 8, "", 1, 4096,
                "Answers waiting for the NoC; when full the tag pipeline and lookups stall")
        .addInt("l2.miss_queue", 8, "", 1, 4096,
                "Line reads and write-backs waiting for the memory socket")
        .addDouble("l2.clock_mhz", 700, "MHz", 1, 10000, "L2 clock (GPGPU-Sim's Fermi L2 clock)")
        .addInt("l2.prefetch_queue", 16, "", 1, 4096,
                "Prefetched lines from the controller (dram.prefetch = owl) waiting to be installed; "
                "one arriving at a full queue is dropped")
        .addInt("l2.slices_per_partition", 1, "", 1, 2,
                "L2 slices in front of each memory controller (2: GPGPU-Sim's sub-partitions; "
                "consecutive interleave chunks of a partition alternate between them); "
                "l2.size_bytes is per slice")
        .addInt("l2.sector_bytes", 0, "bytes", 0, 1024,
                "Sector size of a sectored L2 (0: not sectored). Each request is looked up one "
                "sector per L2 cycle, a miss reads only its missing sectors (one memory request "
                "each) and a store makes only the sectors it touches valid and dirty (GPGPU-Sim's "
                "sectored L2: 32)")
        .addInt("l2.atomic_cycles", 9, "cycles", 1, 10000,
                "L2 cycles a global atomic's line request occupies the slice's read-modify-write "
                "unit, once its line is present; the unit starts one request per cycle, and a "
                "request waits while an earlier one of its line is in the unit, so atomics on one "
                "line serialise at this interval. Our default (GPGPU-Sim charges nothing): Kepler's "
                "GK110 whitepaper puts its same-address atomic throughput, one per clock, at 9x "
                "Fermi's")
        .addCheck([](const Config& c) {
            const int64_t line = c.getInt("l2.line_bytes");
            const int64_t sector = c.getInt("l2.sector_bytes");
            if (sector != 0 && (sector % 32 != 0 || line % sector != 0))
                c.fail("l2.sector_bytes", std::to_string(sector) +
                                              " must be 0 or a multiple of 32 bytes (the stores' chunk) that "
                                              "divides l2.line_bytes (" + std::to_string(line) + ")",
                       {"l2.line_bytes"});
            const int64_t ways = c.getInt("l2.ways");
            const int64_t size = c.getInt("l2.size_bytes");
            if (!isPow2(line)) c.fail("l2.line_bytes", std::to_string(line) + " is not a power of two");
            if (size % (line * ways) != 0)
                c.fail("l2.size_bytes",
                       std::to_string(size) + " is not divisible by line x ways (" +
                           std::to_string(line * ways) + ")",
                       {"l2.line_bytes", "l2.ways"});
            const int64_t sets = size / (line * ways);
            if (!isPow2(sets))
                c.fail("l2.size_bytes", std::to_string(size) + " gives " + std::to_string(sets) +
                                            " sets, not a power of two",
                       {"l2.line_bytes", "l2.ways"});
            // A line must not straddle two partitions, or two slices would cache parts of it.
            if (c.getInt("addrmap.interleave_bytes") % line != 0)
                c.fail("addrmap.interleave_bytes",
                       "must be a multiple of l2.line_bytes (" + std::to_string(line) + ")", {"l2.line_bytes"});
            // Nor two DRAM banks: the controller serves a line from one bank and row.
            if (c.getInt("addrmap.bank_interleave_bytes") < line)
                c.fail("addrmap.bank_interleave_bytes",
                       "must be at least l2.line_bytes (" + std::to_string(line) + ")", {"l2.line_bytes"});
        });
}

L2SliceParams L2SliceParams::from(const Config& c) {
    auto u = [&](const char* k) { return static_cast<unsigned>(c.getInt(k)); };
    L2SliceParams p;
    p.sizeBytes = static_cast<uint64_t>(c.getInt("l2.size_bytes"));
    p.lineBytes = static_cast<uint64_t>(c.getInt("l2.line_bytes"));
    p.ways = u("l2.ways");
    p.mshrEntries = u("l2.mshr_entries");
    p.mshrMaxMerge = u("l2.mshr_max_merge");
    p.tagLatencyCycles = static_cast<uint64_t>(c.getInt("l2.tag_latency_cycles"));
    p.inputQueue = u("l2.input_queue");
    p.responseQueue = u("l2.response_queue");
    p.missQueue = u("l2.miss_queue");
    p.clockMhz = c.getDouble("l2.clock_mhz");
    p.prefetchQueue = u("l2.prefetch_queue");
    p.slicesPerPartition = u("l2.slices_per_partition");
    p.sectorBytes = u("l2.sector_bytes");
    p.atomicCycles = static_cast<uint64_t>(c.getInt("l2.atomic_cycles"));
    return p;
}

} // namespace gpusim
