#pragma once
// `gpusim sweep SPEC`: runs a design-space sweep (platforms x schedulers x workloads x `set`
// axes, experiments/SweepSpec.hpp) as child `gpusim run` processes on this machine, at most -j at a
// time, with a progress line, and writes the results table even when jobs fail (exit 1 then).
// A job whose statistics file already exists in OUT/jobs is not rerun (--resume), so an
// interrupted sweep continues where it stopped. `gpusim sweep collect DIR` only rebuilds the
// table from OUT/jobs (for jobs run by another back end, e.g. a cluster). `--slurm` submits the
// jobs as a Slurm job array instead, each task being `gpusim sweep run-task OUT INDEX`
// (experiments/SlurmArray.hpp). Nothing is retried.
#include <string>
#include <vector>

namespace gpusim {

int cmdSweep(const std::vector<std::string>& args);

} // namespace gpusim
