#pragma once
// An L2 slice's parameters (every l2.* key) as plain data: declared once with the geometry
// checks, read from a Config in one place (from), and handed to L2Slice's constructor, so a test
// builds a slice without a Config. The member defaults are the schema's defaults.
#include <cstdint>

namespace gpusim {

class Config;
class ParamSchema;

struct L2SliceParams {
    uint64_t sizeBytes = 131072;       // l2.size_bytes, per slice
    uint64_t lineBytes = 128;          // l2.line_bytes
    unsigned ways = 8;                 // l2.ways
    unsigned mshrEntries = 32;         // l2.mshr_entries
    unsigned mshrMaxMerge = 8;         // l2.mshr_max_merge
    uint64_t tagLatencyCycles = 60;    // l2.tag_latency_cycles
    unsigned inputQueue = 8;           // l2.input_queue
    unsigned responseQueue = 8;        // l2.response_queue
    unsigned missQueue = 8;            // l2.miss_queue
    double clockMhz = 700;             // l2.clock_mhz (the platform builds the clock)
    unsigned prefetchQueue = 16;       // l2.prefetch_queue
    unsigned slicesPerPartition = 1;   // l2.slices_per_partition
    unsigned sectorBytes = 0;          // l2.sector_bytes (0: not sectored)
    uint64_t atomicCycles = 9;         // l2.atomic_cycles

    // Sectors per line (1 when not sectored): the unit of valid bits, misses and memory reads.
    unsigned sectorsPerLine() const { return sectorBytes ? static_cast<unsigned>(lineBytes / sectorBytes) : 1; }

    unsigned sets() const { return static_cast<unsigned>(sizeBytes / (lineBytes * ways)); }
    bool operator==(const L2SliceParams&) const = default;

    // Declares every l2.* key and the geometry checks (needs AddressMapParams::declare too: the
    // checks relate the line to the partition and bank interleaving).
    static void declare(ParamSchema& s);
    static L2SliceParams from(const Config& c);
};

} // namespace gpusim
