#pragma once
// A design-space sweep as data: the SPEC file of `gpusim sweep` (docs/sweeps.md) parsed into
// axes and fixed options, checked against the registries before any job starts, and expanded
// into jobs (the cross product of the axes) with stable, file-name-safe ids. Nothing here runs
// a process: the local runner (SweepCommand) and a cluster back end share this expansion and the
// argv of the child `gpusim run` each job is.
//
// Left out: cross-parameter configuration checks (cache geometry, ...) are not run here, they
// belong to the combination a job makes; such a job fails on its own and is listed as failed.
// Statistic names are checked by runs of the configurations (SweepStatCheck.hpp).
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusim {

struct SweepSpec {
    std::string file;  // for messages
    std::string name;  // "name" key, or the file's stem
    std::vector<std::string> platforms, schedulers, workloads;
    // `set` keys with a list of values (axes, in key order) and with a single value (fixed).
    std::vector<std::pair<std::string, std::vector<nlohmann::json>>> setAxes;
    std::vector<std::pair<std::string, nlohmann::json>> setFixed;
    uint64_t seed = 1;
    uint64_t maxCycles = 0;  // 0: run to the end
    std::vector<std::string> stats;  // requested statistics, after the always-collected ones
    // Policy plugins every job loads (absolute paths; `gpusim sweep --plugin`, docs/extending.md).
    std::vector<std::string> plugins;

    // What must not change between a sweep and its resumption (seed, max_cycles, fixed sets,
    // plugins when there are any).
    nlohmann::json fixedOptions() const;
    nlohmann::json toJson() const;
};

struct SweepJob {
    std::string id;  // e.g. fermi15__gto__atax_n=64__l1d.mshr_entries=16
    std::string platform, scheduler, workload;
    std::vector<std::pair<std::string, nlohmann::json>> set;  // one value per set axis
};

// The statistics every row carries, before the requested ones.
const std::vector<std::string>& alwaysCollectedStats();

// Parses a spec document; throws InputError("FILE: KEY: reason") on an unknown key, a missing or
// empty axis, or a value of the wrong type. `file` names the spec in messages and gives the
// default name.
SweepSpec parseSweepSpec(const nlohmann::json& doc, const std::string& file);
// Reads and parses a spec file (JSON; comments allowed).
SweepSpec loadSweepSpec(const std::string& file);

// Checks platform and scheduler names, every workload with its parameters, and every `set` key
// and value (type and range, on every platform of the spec) against the registries and the
// configuration schema; throws InputError("FILE: KEY: reason").
void validateSweepSpec(const SweepSpec& spec);

// The cross product, platforms outermost, then schedulers, workloads and set axes in key order.
// Ids are unique: a clash after making names file-name safe, or an id over 180 characters, gets
// a hash of the exact values appended.
std::vector<SweepJob> expandSweep(const SweepSpec& spec);

// The child command line of one job, writing its statistics to statsPath.
std::vector<std::string> sweepJobArgv(const SweepSpec& spec, const SweepJob& job, const std::string& gpusim,
                                      const std::string& statsPath);

// A set value as written after `--set key=` (strings verbatim, numbers and booleans as JSON).
std::string setValueText(const nlohmann::json& v);

} // namespace gpusim
