#pragma once
// `gpusim correlate`: our model against a reference simulator's figures, kernel by kernel
// (docs/correlation.md). Exports every workload of the reference file as a trace (kept under
// --out, so a rerun does not export again), runs them on one platform with GTO as an ordinary
// `gpusim sweep --resume` (an interrupted run continues), counts our figures as the reference
// counts them (experiments/Correlation.hpp), prints the table and the error measures, and writes
// the page and its IPC scatter plot. Exit status 1 when a run failed, or with --check when a
// target of issue 22 is missed.
#include <string>
#include <vector>

namespace gpusim {

int cmdCorrelate(const std::vector<std::string>& args);

} // namespace gpusim
