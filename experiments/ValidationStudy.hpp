#pragma once
// The validation report's data side (docs/validation.md, `gpusim validate`): a study is a set of
// sweeps (ordinary `gpusim sweep` specs under validation/) whose rows are merged into one table
// of series (a scheduler, or a label such as "swl-best" given to several per-benchmark sweeps,
// with any `set` axis value) by workload, normalised to a baseline series and averaged over
// workload groups the way the paper averages (geometric, harmonic or arithmetic mean), next to
// the figures the paper reports. Nothing here runs a simulation or writes a file: the command
// runs the sweeps, this turns their results.json into numbers, ValidationReport prints them.
//
// A share study is not normalised: per workload it shows one series' statistic as a part of
// another (ValidationShare.hpp), e.g. occlusion time in the L1D access latency (OAWS Figure 3).
//
// Left out: anything a paper's figure needs that our statistics do not have (per-kernel IPC of
// multi-kernel workloads is not normalised; a study may show raw per-kernel statistics as
// extra columns instead).
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusim::validation {

enum class Mean { Geometric, Harmonic, Arithmetic };

struct SweepRef {
    std::string spec;   // path of a sweep spec, relative to the studies file
    std::string label;  // series name for every row of this sweep (empty: the row's scheduler)
    // An oracle over the sweep's rows (the papers' Best-SWL: "the optimal number of wavefronts"):
    // where several rows give the series the same workload, the one with the highest metric
    // stands. Needs a label (the rows' schedulers differ by the parameter searched over).
    bool best = false;
};

struct WorkloadGroup {
    std::string name;
    std::vector<std::string> workloads;
};

// A raw statistic shown as a column, taken from one series' row of each workload.
struct ExtraColumn {
    std::string heading, series, stat;
    std::map<std::string, std::string> valueNames;  // e.g. "0" -> "GTO"; empty: the number
};

struct StallChart {
    std::string series;                 // unused when empty: every series
    std::vector<std::string> stats;     // stacked layers (columns of the results tables)
    std::string group;                  // workloads of this group only
    // What the stacks are (default: LD/ST stall cycles, the OAWS paper's Figure 9); e.g. the
    // CCWS paper's Figure 11 breakdown of L1D reads into misses and intra-/inter-warp hits.
    std::string what = "LD/ST stall cycles";
};

// A share: per workload, `series`'s statistic `part` over its statistic `whole` (a fraction,
// shown as a percentage), with no baseline. Both are columns of the series' results rows.
struct Share {
    std::string name;  // column heading, and the key of the paper's figure
    std::string series, part, whole;
};

struct Study {
    std::string id, title, source, notesFile;
    std::string platformNote;  // e.g. "fermi30 (the OAWS paper's Table 1)"
    std::vector<SweepRef> sweeps;
    std::string metric = "ipc";
    std::string baseline;               // series every other is normalised to
    Mean mean = Mean::Geometric;
    std::vector<WorkloadGroup> groups;
    std::vector<std::string> seriesOrder;  // columns first in this order, then any others
    // paper[group][series] = normalised figure the paper reports for that mean
    std::map<std::string, std::map<std::string, double>> paper;
    std::string paperNote;
    std::vector<ExtraColumn> extras;
    std::map<std::string, std::string> workloadNotes;  // e.g. the paper's class of a workload
    std::optional<std::string> missChart;  // a statistic drawn per workload and series (l1d_read_miss_rate)
    std::optional<StallChart> stallChart;
    // Derived series: name -> series; per workload the row of whichever has the highest metric
    // (iPAWS's "the better of RR and GTO"). Shown and averaged like any other series.
    std::vector<std::pair<std::string, std::vector<std::string>>> bestOf;
    // Non-empty: a share study (metric and baseline unused; the mean is arithmetic, a share may
    // be 0; paper[group][share name] is a fraction).
    std::vector<Share> shares;
};

struct Studies {
    std::filesystem::path file;  // for messages and relative spec paths
    std::vector<Study> studies;
    std::filesystem::path specPath(const SweepRef& s) const;
};

// Parses the studies file; throws InputError("FILE: studies[i].KEY: reason").
Studies parseStudies(const nlohmann::json& doc, const std::filesystem::path& file);
Studies loadStudies(const std::filesystem::path& file);

// One study's results: values[series][workload][column] from the rows of its sweeps' tables.
struct StudyData {
    std::vector<std::string> series;     // in display order
    std::vector<std::string> workloads;  // in group order, then any others in row order
    std::map<std::string, std::map<std::string, nlohmann::json>> rows;  // series -> workload -> row
    std::vector<std::string> notOk;      // "series / workload: status error"
    double hostSeconds = 0;              // simulation CPU time summed over the ok rows (when known)
};

// The series name of a results row: the sweep's label or the row's scheduler, then " [key=value]"
// for each set axis column of that sweep.
std::string seriesName(const SweepRef& ref, const nlohmann::json& row, const std::vector<std::string>& setKeys);

// Merges the results.json documents of a study's sweeps (in Study::sweeps order). A workload
// present twice for one series is an InputError (two sweeps give the same series), unless both
// rows come from `best` sweeps: then the ok row with the higher metric stands.
StudyData mergeResults(const Study& study, const std::vector<nlohmann::json>& results);

// A numeric column of a row, or nullopt when the row is missing, not ok or the value null.
std::optional<double> valueOf(const StudyData& d, const std::string& series, const std::string& workload,
                              const std::string& column);

// metric(series, workload) / metric(baseline, workload); nullopt when either is missing or the
// baseline is not positive.
std::optional<double> normalised(const StudyData& d, const Study& s, const std::string& series,
                                 const std::string& workload);

struct MeanValue {
    std::optional<double> value;  // nullopt when no workload has both values
    size_t count = 0;             // workloads that entered the mean
    size_t of = 0;                // workloads in the group
};
double meanOf(const std::vector<double>& v, Mean m);  // throws std::invalid_argument on empty/non-positive (not arithmetic)
MeanValue groupMean(const StudyData& d, const Study& s, const std::string& series, const WorkloadGroup& g);

std::string meanName(Mean m);  // "gmean", "hmean", "amean"

} // namespace gpusim::validation
