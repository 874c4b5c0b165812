#pragma once
// The ideal memory's one parameter as plain data, declared and read from a Config here and
// handed to IdealMemory's constructor (a test builds it without a Config). The default is the
// schema's default; the clock (dram.clock_mhz) is the platform's.
#include <cstdint>

namespace gpusim {

class Config;
class ParamSchema;

struct IdealMemoryParams {
    uint64_t latencyCycles = 100;  // mem.ideal_latency_cycles
    bool operator==(const IdealMemoryParams&) const = default;

    static void declare(ParamSchema& s);
    static IdealMemoryParams from(const Config& c);
};

} // namespace gpusim
