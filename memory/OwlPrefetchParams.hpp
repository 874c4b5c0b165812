#pragma once
// The thresholds of OWL's opportunistic prefetch (memory/OwlPrefetcher.hpp) as plain data, part
// of DramControllerParams (read there from dram.prefetch_*). The member defaults are the
// schema's defaults.
namespace gpusim {

struct OwlPrefetchParams {
    unsigned minLines = 8;         // dram.prefetch_min_lines: C while the demand queue is long
    unsigned minLinesHigh = 16;    // dram.prefetch_min_lines_high: C while it is short
    unsigned queueThreshold = 8;   // dram.prefetch_queue_threshold: "short" is fewer queued than this
    bool operator==(const OwlPrefetchParams&) const = default;
};

} // namespace gpusim
