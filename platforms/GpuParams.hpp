#pragma once
// Every parameter of a whole GPU as plain data, built from a resolved Config in one place
// (from): the GPU's own keys (gpu.num_sms, sm.clock_mhz, sim.*) plus each unit's typed struct,
// each read by that struct's own from(). Gpu's constructor takes it, so the platform reads no key
// by name, and a test or an embedding program can build or adjust one without a Config.
#include <cstdint>

#include "common/AddressMapParams.hpp"
#include "common/TlmLinkParams.hpp"
#include "interconnect/NocParams.hpp"
#include "memory/L2SliceParams.hpp"
#include "memory/PartitionMemoryParams.hpp"
#include "modules/DispatchParams.hpp"
#include "modules/SmConfig.hpp"

namespace gpusim {

class Config;
class ParamSchema;

struct GpuParams {
    unsigned numSms = 15;                      // gpu.num_sms
    double coreClockMhz = 1400;                // sm.clock_mhz
    uint64_t watchdogCycles = 200000;          // sim.watchdog_cycles
    DispatchParams dispatch;                   // gpu.kernel_concurrency, gpu.max_concurrent_kernels
    SmConfig sm;                               // sm.*, l1d.*
    NocParams noc;                             // noc.*
    AddressMapParams map;                      // mem.partitions, addrmap.*, dram geometry
    L2SliceParams l2;                          // l2.*
    PartitionMemoryParams memory;              // memory.model, dram.*, mem.ideal_latency_cycles
    TlmLinkParams tlm;                         // tlm.*

    // Declares the GPU's own keys (the units declare theirs).
    static void declare(ParamSchema& s);
    static GpuParams from(const Config& c);
};

} // namespace gpusim
