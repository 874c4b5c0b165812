#pragma once
// The correlation against a reference simulator (`gpusim correlate`, docs/correlation.md): a
// reference file of per-workload figures (validation/accelsim/accelsim-gtx480.json, one row per
// built-in workload exported with `gpusim trace export`), the same figures taken from one of our
// `--stats` documents and counted as the reference counts them, the error measures, and the
// generated page. Nothing here runs a simulation: `cli/CorrelateCommand` exports the traces and
// runs them as a sweep.
//
// How ours are counted (validation/accelsim/README.md says how the reference's are):
// - cycles at the reference's 700 MHz: our core cycles x 700 / sm.clock_mhz, so a platform with
//   another core clock is compared in time, not per its own cycle.
// - L1D reads: hits + misses + MSHR merges of every SM; a merge counts as a miss (the reference's
//   HIT_RESERVED); a refused access (a stall we replay) is not an access, as RESERVATION_FAIL.
// - L2 reads: read hits + read misses (merges included) of every slice, plus its atomic hits and
//   atomic misses: the reference sends every global atomic to the L2 as a read access (a hit when
//   its sector is there), so its read counts include them. With a sectored L2 (gtx480:
//   l2.sector_bytes = 32) these count 32-B sector accesses, as the reference's do; on an
//   unsectored platform one access is one line (the counts differ by up to the sectors of a
//   line, the rates much less). The page shows rates.
// - DRAM reads and writes: RD and WR column commands of every controller (one per burst).
//
// Left out: the reference's `avg_mem_latency_cycles` has no statistic of ours counted the same
// way (creation of the request to its reply reaching the SM cluster), so it is not compared.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusim::correlation {

// The figures both sides have, per workload.
struct Figures {
    uint64_t warpInstructions = 0;
    double cycles = 0;  // at the reference clock (kReferenceClockMhz)
    double ipc = 0;     // warp instructions per reference-clock cycle, whole GPU
    double l1dReadAccesses = 0, l1dReadMisses = 0;
    double l2ReadAccesses = 0, l2ReadMisses = 0;
    double dramReads = 0, dramWrites = 0;
    double l1dMissRate() const { return l1dReadAccesses > 0 ? l1dReadMisses / l1dReadAccesses : 0; }
    double l2MissRate() const { return l2ReadAccesses > 0 ? l2ReadMisses / l2ReadAccesses : 0; }
};

inline constexpr double kReferenceClockMhz = 700;

struct ReferenceRow {
    std::string workload;  // NAME:k=v,... as `gpusim run --workload` takes it
    std::string exportCommand;
    Figures figures;
};

// Reads a reference file: a JSON array of objects with workload, export, warp_instructions,
// cycles_700mhz, l1d_read_accesses, l1d_read_misses, l2_read_accesses, l2_read_misses,
// dram_reads, dram_writes (other keys are ignored). Throws InputError "FILE: row N (workload):
// KEY: reason" for a missing or mistyped field, an export command that is not `gpusim trace
// export --workload <the row's workload> --out DIR`, or a workload given twice.
std::vector<ReferenceRow> loadReference(const std::string& file);
std::vector<ReferenceRow> parseReference(const nlohmann::json& doc, const std::string& file);

// Our figures from a `gpusim run --stats` document (see above for how they are counted). Throws
// InputError naming `what` when the document lacks gpu.cycles, gpu.warp_instructions or the
// platform's sm.clock_mhz.
Figures figuresFromStats(const nlohmann::json& statsDoc, const std::string& what);

// Pearson's correlation coefficient; nullopt for fewer than two points or a constant series.
std::optional<double> pearson(const std::vector<double>& xs, const std::vector<double>& ys);

// (ours - reference) / reference.
double relativeError(double ours, double reference);

struct Compared {
    const ReferenceRow* reference = nullptr;
    std::optional<Figures> ours;  // nullopt: the run failed or is missing
    std::string error;            // why ours is missing
};

// The done-when targets of issue 22, and how the compared rows measure against them.
struct Targets {
    double ipcMape = 0.15, ipcWorst = 0.35, pearsonIpc = 0.95, l1dMissDiff = 0.05, l2MissDiff = 0.05;
};
struct Summary {
    size_t rows = 0, compared = 0;
    std::optional<double> pearsonIpc;
    double ipcMape = 0, cyclesMape = 0, ipcWorst = 0;
    std::string ipcWorstWorkload;
    double l1dMissDiff = 0, l2MissDiff = 0;  // mean |ours - reference| of the rates
    bool meets(const Targets& t) const;
};
Summary summarise(const std::vector<Compared>& rows);

struct PageInfo {
    std::string date, version, command, platform, referenceFile;
    double hostSeconds = 0;
};
struct Page {
    std::string markdown;
    std::string chartName, chartSvg;  // the IPC scatter plot, written next to the page
};
// The page: how to reproduce it, the measures against the targets, the IPC scatter plot, one
// row per workload (largest IPC error first), and the notes (Markdown, may be empty) verbatim.
Page renderPage(const PageInfo& info, const std::vector<Compared>& rows, const std::string& chartLink,
                const std::string& notes, const Targets& targets = {});

// A plain-text table of the same rows and measures, for the terminal.
std::string renderText(const std::vector<Compared>& rows, const Targets& targets = {});

} // namespace gpusim::correlation
