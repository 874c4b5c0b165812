#include "memory/PartitionMemoryParams.hpp"

#include "common/Config.hpp"

namespace gpusim {

PartitionMemoryParams PartitionMemoryParams::from(const Config& c) {
    PartitionMemoryParams p;
    p.model = c.getString("memory.model") == "ideal" ? MemoryModel::Ideal : MemoryModel::FrFcfs;
    p.clockMhz = c.getDouble("dram.clock_mhz");
    p.ideal = IdealMemoryParams::from(c);
    p.dram = DramControllerParams::from(c);
    return p;
}

} // namespace gpusim
