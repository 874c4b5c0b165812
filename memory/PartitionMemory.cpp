#include "memory/PartitionMemory.hpp"

#include "common/Config.hpp"
#include "memory/DramController.hpp"
#include "memory/IdealMemory.hpp"

namespace gpusim {

std::unique_ptr<PartitionMemory> makePartitionMemory(const std::string& name, const Config& cfg,
                                                     StatRegistry& stats, ClockDomain& dramClock,
                                                     const AddressMap& map, unsigned index) {
    if (cfg.getString("memory.model") == "ideal")
        return std::make_unique<IdealMemory>(name.c_str(), cfg, stats, dramClock, index);
    return std::make_unique<DramController>(name.c_str(), cfg, stats, dramClock, map, index);
}

} // namespace gpusim
