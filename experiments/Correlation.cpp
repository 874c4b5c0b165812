#include "experiments/Correlation.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

#include "common/JsonFile.hpp"
#include "common/SimError.hpp"
#include "experiments/SvgChart.hpp"
#include "experiments/SweepTable.hpp"

using nlohmann::json;

namespace gpusim::correlation {

namespace {

std::string fmt(const char* f, double v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}
std::string pct(double v) { return fmt("%+.1f%%", 100 * v); }
std::string rate(double v) { return fmt("%.3f", v); }
std::string count(double v) { return fmt("%.0f", v); }

std::string rowName(const std::string& file, size_t i, const json& row) {
    std::string name = file + ": row " + std::to_string(i + 1);
    if (row.is_object() && row.contains("workload") && row["workload"].is_string())
        name += " (" + row["workload"].get<std::string>() + ")";
    return name;
}

double number(const json& row, const char* key, const std::string& where) {
    if (!row.contains(key)) throw InputError(where + ": " + key + ": missing");
    const json& v = row[key];
    if (!v.is_number() || v.get<double>() < 0 || !std::isfinite(v.get<double>()))
        throw InputError(where + ": " + key + ": must be a non-negative number, is " + v.dump());
    return v.get<double>();
}

std::string text(const json& row, const char* key, const std::string& where) {
    if (!row.contains(key)) throw InputError(where + ": " + key + ": missing");
    if (!row[key].is_string() || row[key].get<std::string>().empty())
        throw InputError(where + ": " + key + ": must be a non-empty string, is " + row[key].dump());
    return row[key].get<std::string>();
}

// The workload of `gpusim trace export --workload W --out DIR`, or "" when the command has
// another shape.
std::string exportedWorkload(const std::string& command) {
    std::istringstream in(command);
    std::vector<std::string> w;
    for (std::string s; in >> s;) w.push_back(s);
    if (w.size() != 7 || w[0] != "gpusim" || w[1] != "trace" || w[2] != "export" || w[3] != "--workload" ||
        w[5] != "--out")
        return "";
    return w[4];
}

double stat(const json& doc, const std::string& name, const std::string& what) {
    const json v = sweep::selectStat(doc, name);
    if (!v.is_number()) throw InputError(what + ": no statistic " + name);
    return v.get<double>();
}

// A statistic summed over units; 0 when the platform has none of them.
double sum(const json& doc, const std::string& pattern) {
    const json v = sweep::selectStat(doc, "sum:" + pattern);
    return v.is_number() ? v.get<double>() : 0.0;
}

bool pass(double v, double limit) { return v <= limit; }

std::string mark(bool ok) { return ok ? "met" : "**missed**"; }

} // namespace

std::vector<ReferenceRow> parseReference(const json& doc, const std::string& file) {
    if (!doc.is_array() || doc.empty()) throw InputError(file + ": must be a non-empty JSON array of rows");
    std::vector<ReferenceRow> rows;
    std::set<std::string> seen;
    for (size_t i = 0; i < doc.size(); ++i) {
        const json& r = doc[i];
        const std::string where = rowName(file, i, r);
        if (!r.is_object()) throw InputError(where + ": must be an object");
        ReferenceRow row;
        row.workload = text(r, "workload", where);
        row.exportCommand = text(r, "export", where);
        if (exportedWorkload(row.exportCommand) != row.workload)
            throw InputError(where + ": export: expected `gpusim trace export --workload " + row.workload +
                             " --out DIR`, is `" + row.exportCommand + "`");
        if (!seen.insert(row.workload).second) throw InputError(where + ": workload: given twice");
        Figures& f = row.figures;
        f.warpInstructions = static_cast<uint64_t>(number(r, "warp_instructions", where));
        f.cycles = number(r, "cycles_700mhz", where);
        if (f.cycles <= 0) throw InputError(where + ": cycles_700mhz: must be positive");
        f.ipc = double(f.warpInstructions) / f.cycles;
        f.l1dReadAccesses = number(r, "l1d_read_accesses", where);
        f.l1dReadMisses = number(r, "l1d_read_misses", where);
        f.l2ReadAccesses = number(r, "l2_read_accesses", where);
        f.l2ReadMisses = number(r, "l2_read_misses", where);
        f.dramReads = number(r, "dram_reads", where);
        f.dramWrites = number(r, "dram_writes", where);
        if (f.l1dReadMisses > f.l1dReadAccesses)
            throw InputError(where + ": l1d_read_misses: more than l1d_read_accesses");
        if (f.l2ReadMisses > f.l2ReadAccesses)
            throw InputError(where + ": l2_read_misses: more than l2_read_accesses");
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<ReferenceRow> loadReference(const std::string& file) {
    std::ifstream in(file);
    if (!in) throw InputError(file + ": cannot read the reference file");
    const json doc = parseJsonStream(in, file);
    return parseReference(doc, file);
}

Figures figuresFromStats(const json& doc, const std::string& what) {
    if (!doc.is_object() || !doc.contains("config") || !doc["config"].contains("sm.clock_mhz") ||
        !doc["config"]["sm.clock_mhz"].is_number())
        throw InputError(what + ": no config.sm.clock_mhz in the statistics");
    const double clock = doc["config"]["sm.clock_mhz"].get<double>();
    Figures f;
    f.warpInstructions = static_cast<uint64_t>(stat(doc, "gpu.warp_instructions", what));
    f.cycles = stat(doc, "gpu.cycles", what) * kReferenceClockMhz / clock;
    f.ipc = f.cycles > 0 ? double(f.warpInstructions) / f.cycles : 0;
    const double l1Hits = sum(doc, "sm*.l1d.read_hits");
    f.l1dReadMisses = sum(doc, "sm*.l1d.read_misses") + sum(doc, "sm*.l1d.mshr_merges");
    f.l1dReadAccesses = l1Hits + f.l1dReadMisses;
    // read_misses and atomic_misses of a slice count its MSHR merges already (L2Slice). Atomics
    // are read accesses here, as the reference counts them (Correlation.hpp).
    f.l2ReadMisses = sum(doc, "l2.slice*.read_misses") + sum(doc, "l2.slice*.atomic_misses");
    f.l2ReadAccesses = sum(doc, "l2.slice*.read_hits") + sum(doc, "l2.slice*.atomic_hits") + f.l2ReadMisses;
    f.dramReads = sum(doc, "mem*.cmd_rd");
    f.dramWrites = sum(doc, "mem*.cmd_wr");
    return f;
}

std::optional<double> pearson(const std::vector<double>& xs, const std::vector<double>& ys) {
    const size_t n = std::min(xs.size(), ys.size());
    if (n < 2) return std::nullopt;
    double mx = 0, my = 0;
    for (size_t i = 0; i < n; ++i) mx += xs[i], my += ys[i];
    mx /= double(n), my /= double(n);
    double sxy = 0, sxx = 0, syy = 0;
    for (size_t i = 0; i < n; ++i) {
        sxy += (xs[i] - mx) * (ys[i] - my);
        sxx += (xs[i] - mx) * (xs[i] - mx);
        syy += (ys[i] - my) * (ys[i] - my);
    }
    if (sxx == 0 || syy == 0) return std::nullopt;
    return sxy / std::sqrt(sxx * syy);
}

double relativeError(double ours, double reference) { return (ours - reference) / reference; }

bool Summary::meets(const Targets& t) const {
    return compared == rows && compared > 0 && pass(ipcMape, t.ipcMape) && pass(ipcWorst, t.ipcWorst) &&
           pearsonIpc && *pearsonIpc >= t.pearsonIpc && pass(l1dMissDiff, t.l1dMissDiff) &&
           pass(l2MissDiff, t.l2MissDiff);
}

Summary summarise(const std::vector<Compared>& rows) {
    Summary s;
    s.rows = rows.size();
    std::vector<double> ref, ours;
    for (const auto& r : rows) {
        if (!r.ours) continue;
        const Figures& a = *r.ours;
        const Figures& b = r.reference->figures;
        ++s.compared;
        ref.push_back(b.ipc);
        ours.push_back(a.ipc);
        const double e = std::abs(relativeError(a.ipc, b.ipc));
        s.ipcMape += e;
        if (e >= s.ipcWorst) s.ipcWorst = e, s.ipcWorstWorkload = r.reference->workload;
        s.cyclesMape += std::abs(relativeError(a.cycles, b.cycles));
        s.l1dMissDiff += std::abs(a.l1dMissRate() - b.l1dMissRate());
        s.l2MissDiff += std::abs(a.l2MissRate() - b.l2MissRate());
    }
    if (s.compared) {
        const double n = double(s.compared);
        s.ipcMape /= n, s.cyclesMape /= n, s.l1dMissDiff /= n, s.l2MissDiff /= n;
    }
    s.pearsonIpc = pearson(ours, ref);
    return s;
}

namespace {

// Rows with a result first, largest |IPC error| first; failed ones after, in file order.
std::vector<const Compared*> ordered(const std::vector<Compared>& rows) {
    std::vector<const Compared*> out;
    for (const auto& r : rows) out.push_back(&r);
    std::stable_sort(out.begin(), out.end(), [](const Compared* a, const Compared* b) {
        if (bool(a->ours) != bool(b->ours)) return bool(a->ours);
        if (!a->ours) return false;
        return std::abs(relativeError(a->ours->ipc, a->reference->figures.ipc)) >
               std::abs(relativeError(b->ours->ipc, b->reference->figures.ipc));
    });
    return out;
}

std::string measuresTable(const Summary& s, const Targets& t) {
    std::ostringstream md;
    md << "| measure | ours | target | |\n|---|---:|---:|---|\n";
    md << "| rows compared | " << s.compared << " of " << s.rows << " | all | " << mark(s.compared == s.rows) << " |\n";
    md << "| mean absolute error of IPC | " << fmt("%.1f%%", 100 * s.ipcMape) << " | <= " << fmt("%.0f%%", 100 * t.ipcMape)
       << " | " << mark(pass(s.ipcMape, t.ipcMape)) << " |\n";
    md << "| largest IPC error (" << s.ipcWorstWorkload << ") | " << fmt("%.1f%%", 100 * s.ipcWorst) << " | <= "
       << fmt("%.0f%%", 100 * t.ipcWorst) << " | " << mark(pass(s.ipcWorst, t.ipcWorst)) << " |\n";
    md << "| Pearson r of IPC | " << (s.pearsonIpc ? fmt("%.3f", *s.pearsonIpc) : std::string("-")) << " | >= "
       << fmt("%.2f", t.pearsonIpc) << " | " << mark(s.pearsonIpc && *s.pearsonIpc >= t.pearsonIpc) << " |\n";
    md << "| mean absolute error of cycles | " << fmt("%.1f%%", 100 * s.cyclesMape) << " | | |\n";
    md << "| L1D read-miss rate, mean abs. difference | " << rate(s.l1dMissDiff) << " | <= " << fmt("%.2f", t.l1dMissDiff)
       << " | " << mark(pass(s.l1dMissDiff, t.l1dMissDiff)) << " |\n";
    md << "| L2 read-miss rate, mean abs. difference | " << rate(s.l2MissDiff) << " | <= " << fmt("%.2f", t.l2MissDiff)
       << " | " << mark(pass(s.l2MissDiff, t.l2MissDiff)) << " |\n";
    return md.str();
}

} // namespace

Page renderPage(const PageInfo& info, const std::vector<Compared>& rows, const std::string& chartLink,
                const std::string& notes, const Targets& targets) {
    const Summary s = summarise(rows);
    Page page;
    page.chartName = "correlation-ipc-" + info.platform + ".svg";

    chart::ScatterChart sc;
    sc.title = "IPC: gpusim " + info.platform + " against the reference (700-MHz cycles)";
    sc.xLabel = "reference IPC";
    sc.yLabel = "gpusim IPC";
    sc.logScale = true;
    sc.identityLine = true;
    sc.bandFactors = {1 - targets.ipcWorst, 1 + targets.ipcWorst};
    for (const auto& r : rows)
        if (r.ours && r.ours->ipc > 0)  // the name only: the parameters would bury the plot in text
            sc.points.push_back({r.reference->workload.substr(0, r.reference->workload.find(':')), r.reference->figures.ipc,
                                 r.ours->ipc});
    page.chartSvg = chart::renderSvg(sc);

    std::ostringstream md;
    md << "# Correlation with Accel-Sim on its GTX480\n\n";
    md << "<!-- Generated by `gpusim correlate`: edit validation/notes/correlation.md and rerun, not this file. -->\n\n";
    md << "Generated on " << info.date << " by `" << info.command << "` from gpusim " << info.version << ": "
       << s.compared << " of " << s.rows << " workloads of `" << info.referenceFile << "` on platform `"
       << info.platform << "`, " << fmt("%.0f", info.hostSeconds) << " CPU-seconds of simulation.\n\n";
    md << "How to reproduce, from a clean checkout, in the repository root:\n\n```sh\n./setup.sh && ./build/gpusim correlate -j 2\n```\n\n";
    md << "Each row of the reference is a built-in workload exported with `gpusim trace export` and run through "
          "Accel-Sim (GPGPU-Sim 4.2's timing model, trace mode, its tested SM2_GTX480 configuration, GTO); "
          "[validation/accelsim/README.md](../validation/accelsim/README.md) says how each figure was counted. "
          "`gpusim correlate` exports the same traces, runs them on the platform with GTO, and counts ours the "
          "same way (experiments/Correlation.hpp): cycles at 700 MHz (our core cycles x 700 / `sm.clock_mhz`), "
          "IPC = warp instructions / those cycles, an L1D access per 128-B line request with merges into a "
          "pending miss counted as misses, L2 read accesses per 32-B sector on a sectored L2 (`l2.sector_bytes`; "
          "per line on an unsectored platform) with every global atomic's lookup counted as a read access "
          "(a hit when its sector is present), DRAM reads and writes as column commands (64-B bursts).\n\n";
    md << "## Measures\n\n" << measuresTable(s, targets) << "\n";
    md << "![IPC scatter](" << chartLink << "/" << page.chartName << ")\n\n";
    md << "## Per workload (largest IPC error first)\n\n";
    md << "| workload | ref. cycles | our cycles | IPC ref. | IPC ours | IPC error | L1D miss ref. | L1D miss ours | "
          "L2 miss ref. | L2 miss ours | DRAM RD ref. | DRAM RD ours | DRAM WR ref. | DRAM WR ours |\n";
    md << "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    for (const Compared* r : ordered(rows)) {
        const Figures& b = r->reference->figures;
        md << "| " << r->reference->workload << " | " << count(b.cycles) << " | ";
        if (!r->ours) {
            md << "failed: " << r->error << " | | | | | | | | | | | |\n";
            continue;
        }
        const Figures& a = *r->ours;
        md << count(a.cycles) << " | " << fmt("%.3f", b.ipc) << " | " << fmt("%.3f", a.ipc) << " | "
           << pct(relativeError(a.ipc, b.ipc)) << " | " << rate(b.l1dMissRate()) << " | " << rate(a.l1dMissRate())
           << " | " << rate(b.l2MissRate()) << " | " << rate(a.l2MissRate()) << " | " << count(b.dramReads) << " | "
           << count(a.dramReads) << " | " << count(b.dramWrites) << " | " << count(a.dramWrites) << " |\n";
    }
    md << "\n";
    if (!notes.empty()) md << notes << (notes.back() == '\n' ? "" : "\n");
    page.markdown = md.str();
    return page;
}

std::string renderText(const std::vector<Compared>& rows, const Targets& targets) {
    std::ostringstream out;
    char line[256];
    std::snprintf(line, sizeof line, "%-52s %10s %10s %8s %13s %13s\n", "workload", "ref cycles", "our cycles", "IPC err",
                  "L1D miss r/o", "L2 miss r/o");
    out << line;
    for (const Compared* r : ordered(rows)) {
        const Figures& b = r->reference->figures;
        if (!r->ours) {
            out << r->reference->workload << ": failed: " << r->error << "\n";
            continue;
        }
        const Figures& a = *r->ours;
        std::snprintf(line, sizeof line, "%-52s %10.0f %10.0f %+7.1f%% %6.3f/%6.3f %6.3f/%6.3f\n",
                      r->reference->workload.c_str(), b.cycles, a.cycles, 100 * relativeError(a.ipc, b.ipc),
                      b.l1dMissRate(), a.l1dMissRate(), b.l2MissRate(), a.l2MissRate());
        out << line;
    }
    const Summary s = summarise(rows);
    std::snprintf(line, sizeof line,
                  "IPC: mean abs. error %.1f%% (target %.0f%%), largest %.1f%% (%s, target %.0f%%), Pearson r %s (target %.2f)\n",
                  100 * s.ipcMape, 100 * targets.ipcMape, 100 * s.ipcWorst, s.ipcWorstWorkload.c_str(), 100 * targets.ipcWorst,
                  s.pearsonIpc ? fmt("%.3f", *s.pearsonIpc).c_str() : "-", targets.pearsonIpc);
    out << line;
    std::snprintf(line, sizeof line,
                  "cycles: mean abs. error %.1f%%; miss rates, mean abs. difference: L1D %.3f, L2 %.3f (target %.2f each)\n",
                  100 * s.cyclesMape, s.l1dMissDiff, s.l2MissDiff, targets.l1dMissDiff);
    out << line << (s.meets(targets) ? "targets met\n" : "targets not met\n");
    return out.str();
}

} // namespace gpusim::correlation
