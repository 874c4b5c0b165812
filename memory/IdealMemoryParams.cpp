#include "memory/IdealMemoryParams.hpp"

#include "common/Config.hpp"

namespace gpusim {

void IdealMemoryParams::declare(ParamSchema& s) {
    s.addInt("mem.ideal_latency_cycles", 100, "cycles", 1, 1000000,
                "Ideal memory: DRAM clock cycles from a request's arrival edge to its answer "
                "(bandwidth unlimited)");
}

IdealMemoryParams IdealMemoryParams::from(const Config& c) {
    IdealMemoryParams p;
    p.latencyCycles = static_cast<uint64_t>(c.getInt("mem.ideal_latency_cycles"));
    return p;
}

} // namespace gpusim
