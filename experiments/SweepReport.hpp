#pragma once
// A sweep's results table (OUT/results.json, docs/sweeps.md "Outputs") made into charts and one
// self-contained HTML page (inline SVG and CSS, no scripts, nothing fetched): what `gpusim report`
// writes. Pure: takes the parsed table, returns text; the command does the files.
//
// Charts, for each panel (a platform and, when the sweep has `set` axes, one combination of their
// values; each panel is a chart of its own so that bars side by side differ only in scheduler):
//  - IPC normalised to the baseline scheduler's IPC on the same workload, platform and set values
//    (grouped bars, workloads x schedulers, reference line at 1, a "gmean" group: the geometric
//    mean over the workloads where both the scheduler and the baseline have an IPC);
//  - the LD/ST stall breakdown (stacked bars per workload x scheduler) from whichever of the
//    ldst_stalls.{LDST_COAL, LDST_MSHR, LDST_ICNT, LDST_RSRV, MASCAR_REPLAY, SCHED_LDST} columns
//    the table has;
//  - the L1D read miss rate (grouped bars), column l1d_read_miss_rate;
//  - one grouped-bar chart per extra statistic asked for.
// A chart whose columns the table lacks is skipped with a note on the page. A job that failed or
// is missing, or a statistic that matched nothing, is a gap (no bar), never a zero; such jobs are
// listed on the page. Every chart has an HTML table of its numbers under it.
//
// Left out: normalising across set values or platforms (e.g. to the smallest MSHR size), error
// bars (a sweep has one seed per job), interactive features.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusim::report {

struct SweepReportOptions {
    std::string source = "results.json";  // the table's file, named in messages and on the page
    std::string baseline;                 // scheduler; empty: gto if the table has it, else the first
    std::vector<std::string> stats;       // extra statistics to chart (columns of the table)
    std::string title;                    // empty: "Sweep NAME"
};

struct ChartFile {
    std::string name;  // file stem: ipc_normalised, ldst_stalls, l1d_read_miss_rate, stat_NAME (+ __PANEL)
    std::string title;
    std::string svg;
};

struct SweepReport {
    std::string html;
    std::vector<ChartFile> charts;   // in page order
    std::vector<std::string> notes;  // charts skipped, values missing (also on the page)
};

// Throws InputError naming options.source when the document is not a results table, and naming
// the option for an unknown --stat (listing the statistic columns) or --baseline (listing the
// schedulers).
SweepReport buildSweepReport(const nlohmann::json& results, const SweepReportOptions& options);

} // namespace gpusim::report
