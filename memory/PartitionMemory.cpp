#include "memory/PartitionMemory.hpp"

#include "memory/DramController.hpp"
#include "memory/IdealMemory.hpp"
#include "memory/PartitionMemoryParams.hpp"

namespace gpusim {

std::unique_ptr<PartitionMemory> makePartitionMemory(const std::string& name, const PartitionMemoryParams& params,
                                                     StatRegistry& stats, ClockDomain& dramClock,
                                                     const AddressMap& map, unsigned index) {
    if (params.model == MemoryModel::Ideal)
        return std::make_unique<IdealMemory>(name.c_str(), params.ideal, stats, dramClock, index);
    return std::make_unique<DramController>(name.c_str(), params.dram, stats, dramClock, map, index);
}

} // namespace gpusim
