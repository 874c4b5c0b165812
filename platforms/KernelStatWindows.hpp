#pragma once
// Per-kernel statistics: every statistic's change over each kernel's lifetime, from a snapshot of
// the registry when the dispatcher starts the kernel to one when it ends it (the core cycles of
// its record's start_cycle and end_cycle, each after every SM's step of that cycle; the
// dispatcher calls it, so a run pays nothing per cycle for it), joined over the
// instances of each unit as `gpusim stats` joins them ("sm*.l1d.read_misses": the SMs' sum; an
// average or a histogram: the count and mean of the samples taken in the window). Per stream:
// the sum of its kernels' windows.
// Counters are shared by whatever runs: with concurrent kernels (gpu.kernel_concurrency spatial
// or mixed) everything that happens while two kernels overlap counts in both windows, unsplit, so
// the kernels' figures then add up to more than the run's. What happens outside every window (the
// cycle between two serial kernels, the memory system draining after the last) counts in none.
// The run's own kernel<i>.*, stream<s>.*, launch<k>.* and gpu.* statistics are left out (the
// kernel's record holds them).
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/Stats.hpp"
#include "modules/CtaDispatcher.hpp"

namespace gpusim {

class KernelStatWindows {
public:
    explicit KernelStatWindows(const StatRegistry& stats) : stats_(stats) {}
    // At every kernel start and end (CtaDispatcher's kernel observer, inside its tick, after
    // every SM's step of the cycle): opens the windows of the kernels started, closes those of
    // the kernels ended.
    void update(const CtaDispatcher& d);
    // {"kernel_stats": [{index, name, stream, start_cycle, end_cycle, stats}], and with more than
    // one stream "stream_stats": [{stream, kernels, stats}]}; a kernel still running at the end
    // (a truncated run) is left out.
    nlohmann::json toJson(const CtaDispatcher& d) const;

    struct Figure {
        double value = 0;  // a counter's change
        double count = 0, sum = 0;
        bool sampled = false;
    };
    using Figures = std::map<std::string, Figure>;  // by pattern (statPattern)

private:
    struct Entry {
        const std::string* name;
        const Stat* stat;
        double value, count, sum;
    };
    using Snapshot = std::vector<Entry>;  // registry order
    Snapshot take() const;
    Figures difference(const Snapshot& from, const Snapshot& to) const;

    const StatRegistry& stats_;
    size_t opened_ = 0;
    std::vector<size_t> open_;             // records whose window is open
    std::map<size_t, Snapshot> starts_;    // by record, while open
    std::map<size_t, Figures> windows_;    // by record, once closed
};

} // namespace gpusim
