#pragma once
// The FR-FCFS controller's parameters as plain data: timing (DramTiming, from the preset and the
// dram.t* overrides), request queue, command scheduling and OWL prefetch. Read from a Config in
// one place (from; the keys are declared by DramConfig::declare) and handed to DramController's
// constructor, so a test builds a controller without a Config. The member defaults are the
// schema's defaults. Geometry (banks, rows) belongs to the address map.
#include <cstdint>

#include "common/UnitVariants.hpp"
#include "memory/DramConfig.hpp"
#include "memory/DramScheduler.hpp"
#include "memory/OwlPrefetchParams.hpp"

namespace gpusim {

class Config;

struct DramControllerParams {
    DramTiming timing;              // dram.preset, dram.t*, burst, bus (members: GDDR5)
    unsigned queueSize = 32;                                    // dram.queue_size
    unsigned frontendLatency = 0;                               // dram.frontend_latency_cycles
    DramScheduler::Policy scheduler = DramScheduler::Policy::FrFcfs;  // dram.scheduler
    // dram.prefetch. The platform turns the prefetch on (DramController::enablePrefetch) when
    // this or the scheduling policy asks for it: it must also wire the fills to the L2.
    DramPrefetchKind prefetch = DramPrefetchKind::None;
    OwlPrefetchParams owl;                                      // dram.prefetch_*

    static DramControllerParams from(const Config& c);
};

} // namespace gpusim
