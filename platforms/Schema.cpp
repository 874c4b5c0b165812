#include "platforms/Schema.hpp"

#include "common/AddressMap.hpp"
#include "interconnect/Noc.hpp"
#include "memory/DramConfig.hpp"
#include "memory/IdealMemory.hpp"
#include "memory/L2Slice.hpp"
#include "modules/SmConfig.hpp"

namespace gpusim {

const ParamSchema& gpuSchema() {
    static const ParamSchema schema = [] {
        ParamSchema s;
        s.addInt("gpu.num_sms", 15, "SMs", 1, 256, "Streaming multiprocessors")
            .addDouble("sm.clock_mhz", 1400, "MHz", 1, 10000, "Core clock (the unit of reported cycles)")
            .addInt("sim.watchdog_cycles", 200000, "cycles", 100, int64_t(1) << 40,
                    "End the run with an error if no SM issues or receives anything for this many core cycles")
            .addInt("sim.progress_interval_cycles", 100000, "cycles", 1000, int64_t(1) << 40,
                    "Core cycles between progress lines on stderr (when it is a terminal)");
        AddressMap::declare(s);
        SmConfig::declare(s);
        Noc::declare(s);
        L2Slice::declare(s);
        IdealMemory::declare(s);
        DramConfig::declare(s);
        return s;
    }();
    return schema;
}

} // namespace gpusim
