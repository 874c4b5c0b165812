#include "memory/PartitionMemoryParams.hpp"

#include "common/Config.hpp"

namespace gpusim {

PartitionMemoryParams PartitionMemoryParams::from(const Config& c) {
    PartitionMemoryParams p;
    p.model = c.getChoice<MemoryModel>("memory.model", {{"frfcfs", MemoryModel::FrFcfs}, {"ideal", MemoryModel::Ideal}});
    p.clockMhz = c.getDouble("dram.clock_mhz");
    p.ideal = IdealMemoryParams::from(c);
    p.dram = DramControllerParams::from(c);
    return p;
}

} // namespace gpusim
