#include "memory/DramControllerParams.hpp"

#include "common/Config.hpp"

namespace gpusim {

DramControllerParams DramControllerParams::from(const Config& c) {
    auto u = [&](const char* k) { return static_cast<unsigned>(c.getInt(k)); };
    DramControllerParams p;
    p.timing = DramTiming::from(c);
    p.queueSize = u("dram.queue_size");
    p.frontendLatency = u("dram.frontend_latency_cycles");
    p.scheduler = DramScheduler::parse(c.getString("dram.scheduler"));
    p.prefetch = c.getChoice<DramPrefetchKind>("dram.prefetch",
                                               {{"none", DramPrefetchKind::None}, {"owl", DramPrefetchKind::Owl}});
    p.owl.minLines = u("dram.prefetch_min_lines");
    p.owl.minLinesHigh = u("dram.prefetch_min_lines_high");
    p.owl.queueThreshold = u("dram.prefetch_queue_threshold");
    return p;
}

} // namespace gpusim
