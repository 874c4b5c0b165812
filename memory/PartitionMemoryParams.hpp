#pragma once
// The parameters of the memory behind each partition's L2 as plain data: which model
// (memory.model), its clock (dram.clock_mhz) and each model's own parameters. Read from a Config
// in one place (from; the keys are declared by DramConfig::declare and IdealMemoryParams::declare)
// and handed to makePartitionMemory. The member defaults are the schema's defaults.
#include "memory/DramControllerParams.hpp"
#include "memory/IdealMemoryParams.hpp"

namespace gpusim {

class Config;

enum class MemoryModel { FrFcfs, Ideal };

struct PartitionMemoryParams {
    MemoryModel model = MemoryModel::FrFcfs;  // memory.model
    double clockMhz = 924;                    // dram.clock_mhz (the platform builds the clock)
    IdealMemoryParams ideal;
    DramControllerParams dram;

    static PartitionMemoryParams from(const Config& c);
};

} // namespace gpusim
