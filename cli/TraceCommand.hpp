#pragma once
// `gpusim trace export --workload NAME[:k=v,...] --out DIR [--seed N] [--xz]`: writes a workload
// (any built-in kernel, or a trace read with trace:DIR) as an Accel-Sim trace directory
// (workloads/trace/TraceWriter.hpp). Returns the exit status; throws InputError on bad input.
#include <string>
#include <vector>

namespace gpusim {

int cmdTrace(const std::vector<std::string>& args);

} // namespace gpusim
