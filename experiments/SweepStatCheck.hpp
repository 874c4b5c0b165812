#pragma once
// The statistic names of a sweep spec, checked before its jobs run. Names depend on the
// configuration (sm29.* exists on fermi30, not on fermi15; a policy registers statistics of its
// own), so they are looked up in what a run of the sweep's own configurations registers: a probe
// is a job's own command line stopped after one core cycle (a fraction of a second: the units and
// their statistics exist once the model is built). The first job is probed; only names it lacks
// lead to probes of the other configurations (one job per distinct platform, scheduler and `set`
// values), so a spec without a typo costs one probe.
//
// Left out: statistics registered while a run goes on, which a one-cycle probe cannot have seen
// (kernel0.cycles and stream1.kernels when a kernel ends, gpu.ipaws.kernel0.rr when iPAWS has
// classified it): a name with a dotted part starting with "kernel" or "stream" (or '*') is not
// checked here, only counted empty at the end of the sweep like any other.
// A probe that fails (a cross-parameter rule its combination breaks) is skipped: the job fails
// on its own when it runs.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiments/SweepSpec.hpp"

namespace gpusim::sweep {

// The names of `stats` that select nothing in a stats document (sweep::selectStat), with the
// nearest names the document has, as "'NAME' (did you mean 'X'?)".
std::vector<std::string> unmatchedStats(const nlohmann::json& statsDoc, const std::vector<std::string>& stats);

// Throws InputError("SPEC: stats: no statistic 'NAME' (did you mean 'X'?) in a one-cycle run of
// JOB ...") when a name of spec.stats matches nothing in any probe. `gpusim` is the executable run as
// the probes, `parallel` how many at a time.
void checkSweepStats(const SweepSpec& spec, const std::vector<SweepJob>& jobs, const std::string& gpusim,
                     unsigned parallel);

} // namespace gpusim::sweep
