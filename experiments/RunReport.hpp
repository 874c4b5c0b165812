#pragma once
// One run's page (`gpusim report RUN.json` on a file written by `gpusim run --stats`): the run's
// headline figures, its kernels with their per-kernel instructions and cycles, and, when the run
// was sampled (--sample-interval), line charts of its time series (IPC, L1D and L2 miss rates,
// DRAM bandwidth and row-hit rate, NoC latencies, active warps; AerialVision's view of a run) and
// a per-SM IPC chart. Self-contained HTML (inline SVG), as the sweep report. Pure: the command
// writes the files.
// Left out: per-SM heat maps (the per-SM IPC chart draws one line per SM, hard to read past eight),
// zooming.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiments/SweepReport.hpp"

namespace gpusim::report {

// Throws InputError naming `source` when `run` has no "stats" object.
SweepReport buildRunReport(const nlohmann::json& run, const std::string& source);

} // namespace gpusim::report
