#pragma once
// `gpusim bench`: the simulation-speed benchmark (issue 10, docs/performance.md). A fixed suite
// of runs (fermi15 and fermi30 x gto x a streaming, a divergent-gather and the ATAX kernel, plus
// one Accel-Sim trace), each a child `gpusim run`, with its simulated cycles and warp
// instructions, host CPU seconds (user + system of the child, from wait4), simulated cycles and
// warp instructions per CPU second, and peak RSS; printed as a table and optionally written as
// JSON. `--callgrind` runs smaller sizes under valgrind's callgrind and reports host
// instructions per simulated warp instruction, a figure that is stable on a noisy machine.
// Figures only: nothing passes or fails on speed.
#include <string>
#include <vector>

namespace gpusim {

int cmdBench(const std::vector<std::string>& args);

} // namespace gpusim
