#pragma once
// The results side of a sweep, independent of how its jobs were run: the layout of a sweep's
// output directory, the choice of statistics from a job's `gpusim run --stats` document, and the
// results table (CSV and JSON) rebuilt from whatever job files exist. `gpusim sweep` calls it
// after its local run and `gpusim sweep collect DIR` calls it alone (for jobs run elsewhere).
//
// OUT/sweep.json         the expanded sweep (spec, fixed options, every job's axis values)
// OUT/jobs/ID.json       a finished job's statistics; only ever renamed into place whole
// OUT/jobs/ID.json.tmp   written by the running child
// OUT/jobs/ID.failed     {"status": N, "error": "last line of stderr"} of a failed job
// OUT/jobs/ID.out, .err  the child's stdout and stderr
// OUT/results.csv, .json the table: one row per job
//
// Statistic names (docs/sweeps.md): a key of the run's "summary" (ipc, l1d_read_miss_rate,
// ldst_stalls.LDST_MSHR), else a registry statistic (sm0.l1d.read_misses; a field of an average
// or histogram as sm0.ldst.load_latency.mean), or sum:PATTERN, the sum of every registry
// statistic (or field) whose name matches PATTERN, where '*' matches any run of characters.
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "experiments/SweepSpec.hpp"

namespace gpusim::sweep {

namespace fs = std::filesystem;

fs::path jobsDir(const fs::path& out);
fs::path resultFile(const fs::path& out, const std::string& id);
fs::path tempResultFile(const fs::path& out, const std::string& id);
fs::path failedFile(const fs::path& out, const std::string& id);
fs::path stdoutFile(const fs::path& out, const std::string& id);
fs::path stderrFile(const fs::path& out, const std::string& id);

// Writes text to path through a temporary name and a rename, so a reader never sees half a file.
void writeAtomically(const fs::path& path, const std::string& text);

// Records how a job's child ended, for every back end alike (the local runner, a Slurm task):
// exit status 0 with OUT/jobs/ID.json.tmp written renames it to ID.json; anything else removes
// the .tmp and writes ID.failed {"status": N, "error": "..."} (the last line of ID.err, or why).
// Returns "" when the job is ok, else that error.
std::string recordJobOutcome(const fs::path& out, const std::string& id, int status);

// The job's statistics document, or a discarded/null json when the file is missing, truncated
// or not a stats document (has no "summary").
nlohmann::json readResult(const fs::path& out, const std::string& id);

// Why a job has no statistics document: status "failed" with its .failed record ("exit N:
// message"), or "missing" with the last line of its stderr. Call it when readResult() is null.
struct NoResult {
    std::string status, error;
};
NoResult whyNoResult(const fs::path& out, const std::string& id);

// The value of one statistic name (see above) in a stats document; null when nothing matches.
nlohmann::json selectStat(const nlohmann::json& statsDoc, const std::string& name);

// The manifest OUT/sweep.json, and the spec and jobs back from it.
nlohmann::json manifest(const SweepSpec& spec, const std::vector<SweepJob>& jobs);
void readManifest(const fs::path& out, SweepSpec& spec, std::vector<SweepJob>& jobs);

struct Row {
    const SweepJob* job = nullptr;
    std::string status;  // ok | failed | missing
    std::string error;   // failed: "exit N: message"; missing: why
    nlohmann::json values = nlohmann::json::object();  // statistic name -> value (null: no match)
};

struct Table {
    std::vector<std::string> columns;
    std::vector<Row> rows;
    size_t ok = 0, failed = 0, missing = 0;
    std::vector<std::string> warnings;  // requested statistics that matched nothing in some ok job
};

// The table of every job of the manifest from the files under OUT/jobs.
Table collectTable(const fs::path& out, const SweepSpec& spec, const std::vector<SweepJob>& jobs);
std::string tableCsv(const Table& t, const SweepSpec& spec);
nlohmann::json tableJson(const Table& t, const SweepSpec& spec);
// Writes OUT/results.csv and OUT/results.json.
void writeTable(const fs::path& out, const Table& t, const SweepSpec& spec);

} // namespace gpusim::sweep
