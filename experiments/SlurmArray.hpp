#pragma once
// The Slurm back end of `gpusim sweep SPEC --slurm` (docs/sweeps.md, "Running on a Slurm
// cluster"): a sweep's pending jobs as one Slurm job array whose task I runs job I of
// OUT/sweep.json through `gpusim sweep run-task OUT I`. The task records the job's outcome in
// OUT/jobs exactly as the local runner does (sweep::recordJobOutcome: ID.json.tmp renamed to
// ID.json, or ID.failed), so `gpusim sweep collect OUT` builds the table. The batch script is a
// pure function of its inputs; submitting and waiting are thin wrappers around sbatch and squeue
// found on PATH.
//
// Left out: accounting (sacct needs slurmdbd, which small clusters and the CI test lack): a job's
// fate is read from its result files, and squeue only tells whether the array is still there.
// Nothing is retried or requeued; a task killed by Slurm (time limit, scancel, node failure)
// leaves its job `missing`, which `--slurm --resume` submits again.
#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "experiments/SweepSpec.hpp"

namespace gpusim::slurm {

namespace fs = std::filesystem;

struct ArrayOptions {
    std::string jobName;             // #SBATCH --job-name
    std::string partition;           // #SBATCH --partition; empty: the cluster's default
    unsigned maxRunning = 0;         // the array's %K throttle; 0: no limit
    std::vector<std::string> extra;  // further sbatch options, one #SBATCH line each, verbatim
};

// Throws InputError naming the option: an `extra` option that does not start with '-', holds a
// line break, or is one the script sets or that would break it (--array, --output, --error,
// --chdir, --job-name, --partition, --wrap, --parsable, long or short); a partition with blanks.
void validateArrayOptions(const ArrayOptions& opt);

// Slurm's --array list of sorted, distinct indices, runs of consecutive ones as ranges:
// {0,1,2,3} -> "0-3", {1,3,4,5,9} -> "1,3-5,9".
std::string arrayIndexList(const std::vector<size_t>& indices);

// OUT/slurm/array.sh, and OUT/slurm where the tasks' stdout and stderr go (%A_%a.out).
fs::path scriptFile(const fs::path& out);
fs::path logDir(const fs::path& out);

// The batch script: array `indices` (job numbers in OUT/sweep.json), each task running
// `gpusim sweep run-task OUT $SLURM_ARRAY_TASK_ID` in workDir (where relative paths of the spec
// resolve, as in a local sweep). out, workDir and gpusim must be absolute; out and workDir must
// not hold blanks or quotes (they appear in #SBATCH lines): InputError otherwise.
std::string arrayScript(const fs::path& out, const fs::path& workDir, const std::string& gpusim,
                        const std::vector<size_t>& indices, const ArrayOptions& opt);

// `gpusim sweep run-task OUT INDEX`: runs job INDEX of OUT/sweep.json as a child `gpusim run`
// (gpusim: that executable) and records its outcome; a job that already has a valid result is
// not rerun. Returns 0 when the job is ok, 1 when it failed. InputError: no manifest, INDEX out
// of range.
int runTask(const fs::path& out, size_t index, const std::string& gpusim);

// The full path of `program` found in the directories of $PATH; "" when it is not there.
std::string findOnPath(const std::string& program);

// `sbatch --parsable SCRIPT`; returns the job id. InputError (exit 2) when sbatch is not on PATH,
// fails (its stderr in the message) or prints no job id.
std::string submit(const fs::path& script);

// Whether job `jobId` still has a task that is pending, running or completing (`squeue -j ID
// -t all`; a job Slurm has already forgotten is finished). When squeue cannot answer (not on
// PATH, controller unreachable) returns true and sets `error` to why.
bool arrayActive(const std::string& jobId, std::string& error);

// Polls arrayActive until the array is gone (every 2 s for the first minute, then 10 s, then
// 30 s after ten minutes), calling onPoll between polls. InputError after 10 squeue failures in
// a row.
void waitForArray(const std::string& jobId, const std::function<void()>& onPoll);

} // namespace gpusim::slurm
