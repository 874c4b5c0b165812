#pragma once
// `gpusim stats FILE.json`: a run's statistics as text a person reads (the layout of gem5's
// stats.txt): every statistic on a line of its own with its value, description and unit, grouped
// by the unit that counts it (gpu, kernels, SMs, L2 slices, DRAM controllers, NoC), each group
// opening with the GPU-wide figure of every statistic its instances share ("sm*.l1d.read_misses":
// the sum over the SMs; for an average or a histogram the mean over all their samples). Then,
// if the file has them, the per-kernel (and per-stream) statistics. `gpusim run --stats-text
// FILE` writes the same text for the run it makes.
// A file without descriptions (a regression golden, an older run) prints its values with the
// units the names give (common/StatNames.hpp) and no descriptions.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusim {

// The text for a run document (cli/RunDocument.hpp); `source` is named in its first line.
std::string statsText(const nlohmann::json& doc, const std::string& source);

int cmdStats(const std::vector<std::string>& args);

} // namespace gpusim
