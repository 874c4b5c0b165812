#include "experiments/SweepReport.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "common/SimError.hpp"
#include "experiments/Subprocess.hpp"
#include "experiments/SvgChart.hpp"

using nlohmann::json;

namespace gpusim::report {

namespace {

using chart::escapeXml;
using Value = std::optional<double>;

// The LD/ST stall breakdown's layers, bottom to top (platforms/RunSummary.cpp names them).
const std::vector<std::string> kStallColumns = {
    "ldst_stalls.LDST_COAL", "ldst_stalls.LDST_MSHR",     "ldst_stalls.LDST_ICNT",
    "ldst_stalls.LDST_RSRV", "ldst_stalls.MASCAR_REPLAY", "ldst_stalls.SCHED_LDST"};
const std::set<std::string> kKeyColumns = {"id", "platform", "scheduler", "workload", "status", "error"};

std::string joined(const std::vector<std::string>& v, const std::string& sep = ", ") {
    std::string s;
    for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + v[i];
    return s;
}

void addOnce(std::vector<std::string>& v, const std::string& s) {
    if (std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
}

std::string text(const json& v) {
    if (v.is_string()) return v.get<std::string>();
    if (v.is_null()) return "";
    return v.dump();
}

// One platform and one combination of set-axis values: its bars are comparable side by side.
struct Panel {
    std::string label;   // "fermi15, l1d.mshr_entries=32"
    std::string suffix;  // for file names: "fermi15__l1d.mshr_entries=32"
    std::map<std::pair<std::string, std::string>, const json*> rows;  // (workload, scheduler) -> row
};

struct Table {
    std::string name;
    std::vector<std::string> columns, setAxes, statColumns;
    std::vector<std::string> schedulers, workloads;
    std::vector<Panel> panels;
    std::vector<const json*> notOk;
    size_t ok = 0;
};

Table parseTable(const json& doc, const std::string& source) {
    const auto bad = [&](const std::string& why) { return InputError(source + ": not a sweep results table (" + why + ")"); };
    if (!doc.is_object()) throw bad("not a JSON object");
    if (!doc.contains("columns") || !doc["columns"].is_array()) throw bad("no \"columns\" list");
    if (!doc.contains("rows") || !doc["rows"].is_array()) throw bad("no \"rows\" list");
    Table t;
    t.name = doc.value("sweep", "");
    for (const auto& c : doc["columns"]) {
        if (!c.is_string()) throw bad("a column name is not a string");
        t.columns.push_back(c.get<std::string>());
    }
    for (const char* needed : {"platform", "scheduler", "workload", "status"})
        if (std::find(t.columns.begin(), t.columns.end(), needed) == t.columns.end())
            throw bad(std::string("no column \"") + needed + "\"");
    // Set axes sit between workload and status; statistics are the rest.
    const auto wl = std::find(t.columns.begin(), t.columns.end(), "workload");
    const auto st = std::find(t.columns.begin(), t.columns.end(), "status");
    if (wl < st) t.setAxes.assign(wl + 1, st);
    for (const auto& c : t.columns)
        if (!kKeyColumns.count(c) && std::find(t.setAxes.begin(), t.setAxes.end(), c) == t.setAxes.end())
            t.statColumns.push_back(c);

    std::map<std::string, size_t> panelOf;
    for (const auto& r : doc["rows"]) {
        if (!r.is_object()) throw bad("a row is not an object");
        const std::string platform = text(r.value("platform", json())), scheduler = text(r.value("scheduler", json())),
                          workload = text(r.value("workload", json()));
        addOnce(t.schedulers, scheduler);
        addOnce(t.workloads, workload);
        std::string label = platform, suffix = platform;
        for (const auto& a : t.setAxes) {
            label += ", " + a + "=" + text(r.value(a, json()));
            suffix += "__" + a + "=" + text(r.value(a, json()));
        }
        auto [it, added] = panelOf.emplace(label, t.panels.size());
        if (added) t.panels.push_back({label, fileNameSafe(suffix), {}});
        t.panels[it->second].rows.emplace(std::make_pair(workload, scheduler), &r);  // first row wins
        if (r.value("status", "") == "ok") ++t.ok;
        else t.notOk.push_back(&r);
    }
    return t;
}

bool hasColumn(const Table& t, const std::string& c) {
    return std::find(t.statColumns.begin(), t.statColumns.end(), c) != t.statColumns.end();
}

// A number of an ok row; a failed or missing job, or a statistic that matched nothing, has none.
Value cell(const Panel& p, const std::string& workload, const std::string& scheduler, const std::string& column) {
    const auto it = p.rows.find({workload, scheduler});
    if (it == p.rows.end()) return std::nullopt;
    const json& r = *it->second;
    if (r.value("status", "") != "ok" || !r.contains(column) || !r[column].is_number()) return std::nullopt;
    return r[column].get<double>();
}

std::string fixed3(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

std::string td(const Value& v, const std::string& extra = "") {
    if (!v) return "<td class=\"missing\">&#8212;</td>";
    return "<td>" + chart::formatValue(*v) + extra + "</td>";
}

class Builder {
public:
    Builder(const Table& t, const SweepReportOptions& o, std::string baseline)
        : t_(t), o_(o), baseline_(std::move(baseline)) {}

    SweepReport build() {
        const bool many = t_.panels.size() > 1;
        const bool ipc = hasColumn(t_, "ipc"), miss = hasColumn(t_, "l1d_read_miss_rate");
        std::vector<std::string> stallCols;
        for (const auto& c : kStallColumns)
            if (hasColumn(t_, c)) stallCols.push_back(c);
        if (!ipc) report_.notes.push_back("Normalised IPC: skipped, the table has no column ipc.");
        if (stallCols.empty())
            report_.notes.push_back("LD/ST stall breakdown: skipped, the table has none of the columns " +
                                    joined(kStallColumns) + " (add them to the sweep's \"stats\").");
        if (!miss)
            report_.notes.push_back(
                "L1D read miss rate: skipped, the table has no column l1d_read_miss_rate (add it to the sweep's "
                "\"stats\").");
        for (const auto& p : t_.panels) {
            if (many) body_ << "<h2>" << escapeXml(p.label) << "</h2>\n";
            const std::string sfx = many ? "__" + p.suffix : "";
            const std::string in = many ? " \xE2\x80\x94 " + p.label : "";  // " — fermi15, ..."
            if (ipc) normalisedIpc(p, "ipc_normalised" + sfx, in);
            if (!stallCols.empty()) stalls(p, stallCols, "ldst_stalls" + sfx, in);
            if (miss) rawBars(p, "l1d_read_miss_rate", "L1D read miss rate", "l1d_read_miss_rate" + sfx, in);
            for (const auto& s : o_.stats) rawBars(p, s, s, "stat_" + fileNameSafe(s) + sfx, in);
        }
        report_.html = page();
        return std::move(report_);
    }

private:
    // The chart in the page (inline) and as a file, with its caption and data table.
    void figure(const std::string& name, const std::string& title, const std::string& svg, const std::string& caption,
                const std::string& table) {
        report_.charts.push_back({name, title, svg});
        toc_.emplace_back(name, title);
        body_ << "<figure id=\"" << escapeXml(name) << "\">\n" << svg << "<figcaption>" << caption << " <span class=\"file\">("
              << escapeXml(name) << ".svg)</span></figcaption>\n"
              << table << "</figure>\n";
    }

    std::string missingNote(size_t missing, size_t total) {
        if (!missing) return "";
        return " " + std::to_string(missing) + " of " + std::to_string(total) +
               " values are missing (failed or missing job, or the statistic matched nothing): no bar, marked "
               "&#215;.";
    }

    std::string header(const std::string& first) {
        std::string h = "<table class=\"data\"><thead><tr><th>" + first + "</th>";
        for (const auto& s : t_.schedulers) h += "<th>" + escapeXml(s) + "</th>";
        return h + "</tr></thead><tbody>\n";
    }

    void normalisedIpc(const Panel& p, const std::string& name, const std::string& in) {
        chart::BarChart c;
        c.title = "IPC normalised to " + baseline_ + in;
        c.yLabel = "IPC / IPC of " + baseline_;
        c.categories = t_.workloads;
        c.geomeanGroup = true;
        c.referenceLine = 1.0;
        std::string table = header("workload");
        size_t missing = 0;
        for (const auto& s : t_.schedulers) c.series.push_back({s, {}});
        for (const auto& w : t_.workloads) {
            table += "<tr><th>" + escapeXml(w) + "</th>";
            const Value base = cell(p, w, baseline_, "ipc");
            for (size_t i = 0; i < t_.schedulers.size(); ++i) {
                const Value v = cell(p, w, t_.schedulers[i], "ipc");
                Value norm;
                if (v && base && *base > 0) norm = *v / *base;
                c.series[i].values.push_back(norm);
                if (!norm) ++missing;
                table += norm ? "<td>" + fixed3(*norm) + " <span class=\"raw\">(" + chart::formatValue(*v) + ")</span></td>"
                              : "<td class=\"missing\">&#8212;" +
                                    (v ? " <span class=\"raw\">(" + chart::formatValue(*v) + ")</span>" : std::string()) +
                                    "</td>";
            }
            table += "</tr>\n";
        }
        // The same rule as the chart's gmean group (chart::geomeanOfPresent), stated with its count.
        std::string gnote;
        table += "<tr class=\"gmean\"><th>gmean</th>";
        for (const auto& s : c.series) {
            const Value g = chart::geomeanOfPresent(s.values);
            size_t n = 0;
            std::vector<std::string> lacking;
            for (size_t i = 0; i < s.values.size(); ++i)
                if (s.values[i]) ++n;
                else lacking.push_back(t_.workloads[i]);
            const std::string count = n < s.values.size()
                                          ? " <span class=\"count\">(" + std::to_string(n) + " of " +
                                                std::to_string(s.values.size()) + " workloads)</span>"
                                          : "";
            table += g ? "<td>" + fixed3(*g) + count + "</td>" : "<td class=\"missing\">&#8212;" + count + "</td>";
            if (!lacking.empty())
                gnote += " The gmean of " + escapeXml(s.name) + " is over " + std::to_string(n) + " of " +
                         std::to_string(s.values.size()) + " workloads (none for " + escapeXml(joined(lacking)) + ").";
        }
        table += "</tr>\n</tbody></table>\n";
        if (missing)
            report_.notes.push_back(c.title + ": " + std::to_string(missing) + " of " +
                                    std::to_string(t_.workloads.size() * t_.schedulers.size()) + " values missing.");
        figure(name, c.title, chart::renderSvg(c),
               "IPC of each scheduler divided by the IPC of " + escapeXml(baseline_) +
                   " on the same workload" + (in.empty() ? "" : " and " + escapeXml(p.label)) +
                   "; raw IPC in parentheses. gmean: geometric mean over the workloads where both the scheduler and " +
                   escapeXml(baseline_) + " have a value." +
                   missingNote(missing, t_.workloads.size() * t_.schedulers.size()) + gnote,
               table);
    }

    void stalls(const Panel& p, const std::vector<std::string>& cols, const std::string& name, const std::string& in) {
        chart::StackedBarChart c;
        c.title = "LD/ST stall breakdown" + in;
        c.yLabel = "stall cycles (sum over SMs)";
        for (const auto& col : cols) c.layers.push_back({col.substr(col.find('.') + 1), {}});
        std::string table = "<table class=\"data\"><thead><tr><th>workload</th><th>scheduler</th>";
        for (const auto& l : c.layers) table += "<th>" + escapeXml(l.name) + "</th>";
        table += "</tr></thead><tbody>\n";
        size_t missing = 0;
        for (const auto& w : t_.workloads)
            for (const auto& s : t_.schedulers) {
                c.groups.push_back(w);  // named once under its schedulers' bars
                c.bars.push_back(s);
                table += "<tr><th>" + escapeXml(w) + "</th><th>" + escapeXml(s) + "</th>";
                for (size_t i = 0; i < cols.size(); ++i) {
                    const Value v = cell(p, w, s, cols[i]);
                    c.layers[i].values.push_back(v);
                    if (!v) ++missing;
                    table += td(v);
                }
                table += "</tr>\n";
            }
        table += "</tbody></table>\n";
        const size_t total = c.bars.size() * cols.size();
        if (missing)
            report_.notes.push_back(c.title + ": " + std::to_string(missing) + " of " + std::to_string(total) +
                                    " values missing.");
        std::string caption =
            "Cycles the LD/ST units (summed over SMs) could not accept or finish a memory access, by cause: LDST_COAL "
            "further accesses of one instruction, LDST_MSHR no MSHR entry, LDST_ICNT miss queue to the interconnect "
            "full, LDST_RSRV no line to reserve, MASCAR_REPLAY re-execution queue.";
        if (std::find(cols.begin(), cols.end(), "ldst_stalls.SCHED_LDST") != cols.end())
            caption +=
                " SCHED_LDST counts scheduler cycles with no issue while a ready memory instruction waited for the "
                "LD/ST unit: it overlaps the others, so compare layers rather than the height of a stack.";
        figure(name, c.title, chart::renderSvg(c), caption + missingNote(missing, total), table);
    }

    void rawBars(const Panel& p, const std::string& column, const std::string& label, const std::string& name,
                 const std::string& in) {
        chart::BarChart c;
        c.title = label + in;
        c.yLabel = label;
        c.categories = t_.workloads;
        std::string table = header("workload");
        size_t missing = 0;
        for (const auto& s : t_.schedulers) c.series.push_back({s, {}});
        for (const auto& w : t_.workloads) {
            table += "<tr><th>" + escapeXml(w) + "</th>";
            for (size_t i = 0; i < t_.schedulers.size(); ++i) {
                const Value v = cell(p, w, t_.schedulers[i], column);
                c.series[i].values.push_back(v);
                if (!v) ++missing;
                table += td(v);
            }
            table += "</tr>\n";
        }
        table += "</tbody></table>\n";
        const size_t total = t_.workloads.size() * t_.schedulers.size();
        if (missing)
            report_.notes.push_back(c.title + ": " + std::to_string(missing) + " of " + std::to_string(total) +
                                    " values missing.");
        figure(name, c.title, chart::renderSvg(c),
               "Column <code>" + escapeXml(column) + "</code> per workload and scheduler." + missingNote(missing, total),
               table);
    }

    std::string page() {
        const std::string title = o_.title.empty() ? "Sweep " + (t_.name.empty() ? o_.source : t_.name) : o_.title;
        std::ostringstream h;
        h << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" << escapeXml(title)
          << "</title>\n<style>\n"
          << "body{font-family:'DejaVu Sans',Arial,Helvetica,sans-serif;margin:24px;color:#222;max-width:100%}\n"
             "h1{font-size:22px}h2{font-size:18px;margin-top:32px;border-bottom:1px solid #ccc}\n"
             "figure{margin:24px 0;overflow-x:auto}figcaption{font-size:13px;margin:6px 0;max-width:900px}\n"
             "table{border-collapse:collapse;font-size:12px;margin:6px 0}\n"
             "th,td{border:1px solid #ccc;padding:2px 8px;text-align:right}th{background:#f3f3f3}\n"
             "td.missing{color:#999;text-align:center}.raw,.count,.file{color:#777}\n"
             "table.jobs td,table.jobs th{text-align:left}ul.notes li{margin:2px 0}.meta{font-size:13px;color:#444}\n"
          << "</style>\n</head>\n<body>\n<h1>" << escapeXml(title) << "</h1>\n";
        h << "<p class=\"meta\">Table <code>" << escapeXml(o_.source) << "</code>: " << (t_.ok + t_.notOk.size())
          << " jobs, " << t_.ok << " ok, " << t_.notOk.size() << " without results. Baseline scheduler: <b>"
          << escapeXml(baseline_) << "</b>. Schedulers: " << escapeXml(joined(t_.schedulers))
          << ". Workloads: " << escapeXml(joined(t_.workloads)) << ".</p>\n";
        if (!report_.notes.empty()) {
            h << "<h2>Notes</h2>\n<ul class=\"notes\">\n";
            for (const auto& n : report_.notes) h << "<li>" << escapeXml(n) << "</li>\n";
            h << "</ul>\n";
        }
        if (!t_.notOk.empty()) {
            h << "<h2>Jobs without results</h2>\n<p>These leave gaps in the charts.</p>\n"
                 "<table class=\"jobs\"><thead><tr><th>id</th><th>status</th><th>error</th></tr></thead><tbody>\n";
            for (const json* r : t_.notOk)
                h << "<tr><td>" << escapeXml(text(r->value("id", json()))) << "</td><td>"
                  << escapeXml(text(r->value("status", json()))) << "</td><td>" << escapeXml(text(r->value("error", json())))
                  << "</td></tr>\n";
            h << "</tbody></table>\n";
        }
        if (t_.panels.empty()) h << "<p>The table has no rows.</p>\n";
        if (!toc_.empty()) {
            h << "<h2>Charts</h2>\n<ul class=\"toc\">\n";
            for (const auto& [name, t] : toc_)
                h << "<li><a href=\"#" << escapeXml(name) << "\">" << escapeXml(t) << "</a></li>\n";
            h << "</ul>\n";
        }
        h << body_.str() << "</body>\n</html>\n";
        return h.str();
    }

    const Table& t_;
    const SweepReportOptions& o_;
    std::string baseline_;
    SweepReport report_;
    std::ostringstream body_;
    std::vector<std::pair<std::string, std::string>> toc_;
};

} // namespace

SweepReport buildSweepReport(const json& results, const SweepReportOptions& options) {
    const Table t = parseTable(results, options.source);
    for (const auto& s : options.stats)
        if (!hasColumn(t, s))
            throw InputError("--stat " + s + ": not a statistic column of " + options.source +
                             " (statistic columns: " + joined(t.statColumns) + ")");
    std::string baseline = options.baseline;
    if (!baseline.empty()) {
        if (std::find(t.schedulers.begin(), t.schedulers.end(), baseline) == t.schedulers.end())
            throw InputError("--baseline " + baseline + ": no such scheduler in " + options.source + " (schedulers: " +
                             joined(t.schedulers) + ")");
    } else if (std::find(t.schedulers.begin(), t.schedulers.end(), "gto") != t.schedulers.end()) {
        baseline = "gto";
    } else if (!t.schedulers.empty()) {
        baseline = t.schedulers.front();
    }
    SweepReportOptions o = options;
    o.stats.clear();
    for (const auto& s : options.stats) addOnce(o.stats, s);
    return Builder(t, o, baseline).build();
}

} // namespace gpusim::report
