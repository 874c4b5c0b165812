#include "experiments/ValidationStudy.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <set>
#include <stdexcept>

#include "common/JsonFile.hpp"
#include "common/SimError.hpp"
#include "experiments/SvgChart.hpp"

using nlohmann::json;

namespace gpusim::validation {

namespace {

class Reader {
public:
    Reader(const std::filesystem::path& file, std::string where) : file_(file.string()), where_(std::move(where)) {}

    [[noreturn]] void fail(const std::string& key, const std::string& why) const {
        throw InputError(file_ + ": " + where_ + (key.empty() ? "" : "." + key) + ": " + why);
    }
    std::string str(const json& o, const std::string& key, bool required) const {
        if (!o.contains(key)) {
            if (required) fail(key, "missing");
            return {};
        }
        if (!o[key].is_string()) fail(key, "expected a string");
        return o[key].get<std::string>();
    }
    std::vector<std::string> strings(const json& o, const std::string& key) const {
        std::vector<std::string> out;
        if (!o.contains(key)) return out;
        if (!o[key].is_array()) fail(key, "expected a list of strings");
        for (const auto& v : o[key]) {
            if (!v.is_string()) fail(key, "expected a list of strings");
            out.push_back(v.get<std::string>());
        }
        return out;
    }
    void onlyKeys(const json& o, const std::set<std::string>& allowed) const {
        for (const auto& [k, v] : o.items())
            if (!allowed.count(k)) fail(k, "unknown key");
    }

private:
    std::string file_, where_;
};

Mean parseMean(const Reader& r, const std::string& s) {
    if (s == "geometric") return Mean::Geometric;
    if (s == "harmonic") return Mean::Harmonic;
    if (s == "arithmetic") return Mean::Arithmetic;
    r.fail("mean", "'" + s + "': expected geometric, harmonic or arithmetic");
}

Study parseStudy(const json& o, const std::filesystem::path& file, size_t index) {
    const Reader r(file, "studies[" + std::to_string(index) + "]");
    if (!o.is_object()) r.fail("", "expected an object");
    r.onlyKeys(o, {"id", "title", "source", "notes", "platform_note", "sweeps", "metric", "baseline", "mean", "groups",
                   "series", "paper", "paper_note", "extras", "workload_notes", "miss_chart", "stall_chart", "best_of",
                   "shares", "comment"});
    Study s;
    s.id = r.str(o, "id", true);
    s.title = r.str(o, "title", true);
    s.source = r.str(o, "source", true);
    s.notesFile = r.str(o, "notes", false);
    s.platformNote = r.str(o, "platform_note", false);
    const bool shares = o.contains("shares");
    s.baseline = r.str(o, "baseline", !shares);
    if (o.contains("metric")) s.metric = r.str(o, "metric", true);
    if (o.contains("mean")) s.mean = parseMean(r, r.str(o, "mean", true));
    if (shares) {
        if (!o["shares"].is_array() || o["shares"].empty()) r.fail("shares", "expected a non-empty list");
        for (size_t j = 0; j < o["shares"].size(); ++j) {
            const json& x = o["shares"][j];
            const Reader sr(file, "studies[" + std::to_string(index) + "].shares[" + std::to_string(j) + "]");
            if (!x.is_object()) sr.fail("", "expected an object {\"name\", \"series\", \"part\", \"whole\"}");
            sr.onlyKeys(x, {"name", "series", "part", "whole"});
            Share sh{sr.str(x, "name", true), sr.str(x, "series", true), sr.str(x, "part", true), sr.str(x, "whole", true)};
            for (const auto& had : s.shares)
                if (had.name == sh.name) r.fail("shares." + sh.name, "named twice");
            s.shares.push_back(std::move(sh));
        }
        // A share may be 0, which a geometric or harmonic mean cannot take.
        if (!o.contains("mean")) s.mean = Mean::Arithmetic;
        if (s.mean != Mean::Arithmetic) r.fail("mean", "a share study's mean is arithmetic (a share may be 0)");
    }
    s.seriesOrder = r.strings(o, "series");
    s.paperNote = r.str(o, "paper_note", false);
    if (!o.contains("sweeps") || !o["sweeps"].is_array() || o["sweeps"].empty()) r.fail("sweeps", "expected a non-empty list");
    for (const auto& w : o["sweeps"]) {
        if (!w.is_object()) r.fail("sweeps", "expected objects {\"spec\": FILE, \"label\": NAME}");
        r.onlyKeys(w, {"spec", "label", "best"});
        SweepRef ref{r.str(w, "spec", true), r.str(w, "label", false)};
        if (w.contains("best")) {
            if (!w["best"].is_boolean()) r.fail("sweeps.best", "expected true or false");
            ref.best = w["best"].get<bool>();
            if (ref.best && ref.label.empty()) r.fail("sweeps.best", "needs a label (the series the best row stands for)");
        }
        s.sweeps.push_back(std::move(ref));
    }
    if (!o.contains("groups") || !o["groups"].is_array() || o["groups"].empty()) r.fail("groups", "expected a non-empty list");
    for (const auto& g : o["groups"]) {
        if (!g.is_object()) r.fail("groups", "expected objects {\"name\", \"workloads\"}");
        WorkloadGroup wg{r.str(g, "name", true), r.strings(g, "workloads")};
        if (wg.workloads.empty()) r.fail("groups." + wg.name, "no workloads");
        s.groups.push_back(std::move(wg));
    }
    if (o.contains("paper")) {
        if (!o["paper"].is_object()) r.fail("paper", "expected {group: {series: number}}");
        for (const auto& [g, m] : o["paper"].items()) {
            if (std::none_of(s.groups.begin(), s.groups.end(), [&](const auto& x) { return x.name == g; }))
                r.fail("paper." + g, "not a group of this study");
            if (!m.is_object()) r.fail("paper." + g, "expected {series: number}");
            for (const auto& [series, v] : m.items()) {
                if (!v.is_number() || v.get<double>() <= 0) r.fail("paper." + g + "." + series, "expected a positive number");
                if (shares && (v.get<double>() > 1 ||
                               std::none_of(s.shares.begin(), s.shares.end(), [&](const Share& x) { return x.name == series; })))
                    r.fail("paper." + g + "." + series, "expected a share's name and a fraction of at most 1");
                s.paper[g][series] = v.get<double>();
            }
        }
    }
    if (o.contains("extras")) {
        if (!o["extras"].is_array()) r.fail("extras", "expected a list");
        for (const auto& e : o["extras"]) {
            if (!e.is_object()) r.fail("extras", "expected objects");
            r.onlyKeys(e, {"heading", "series", "stat", "values"});
            ExtraColumn c{r.str(e, "heading", true), r.str(e, "series", true), r.str(e, "stat", true), {}};
            if (e.contains("values")) {
                if (!e["values"].is_object()) r.fail("extras.values", "expected {value: name}");
                for (const auto& [k, v] : e["values"].items()) {
                    if (!v.is_string()) r.fail("extras.values." + k, "expected a string");
                    c.valueNames[k] = v.get<std::string>();
                }
            }
            s.extras.push_back(std::move(c));
        }
    }
    if (o.contains("workload_notes")) {
        if (!o["workload_notes"].is_object()) r.fail("workload_notes", "expected {workload: text}");
        for (const auto& [k, v] : o["workload_notes"].items()) {
            if (!v.is_string()) r.fail("workload_notes." + k, "expected a string");
            s.workloadNotes[k] = v.get<std::string>();
        }
    }
    if (o.contains("best_of")) {
        if (!o["best_of"].is_object()) r.fail("best_of", "expected {name: [series, ...]}");
        for (const auto& [name, list] : o["best_of"].items()) {
            if (!list.is_array() || list.size() < 2) r.fail("best_of." + name, "expected a list of two or more series");
            std::vector<std::string> series;
            for (const auto& x : list) {
                if (!x.is_string()) r.fail("best_of." + name, "expected series names");
                series.push_back(x.get<std::string>());
            }
            s.bestOf.emplace_back(name, std::move(series));
        }
    }
    if (o.contains("miss_chart")) s.missChart = r.str(o, "miss_chart", true);
    if (o.contains("stall_chart")) {
        const json& c = o["stall_chart"];
        if (!c.is_object()) r.fail("stall_chart", "expected an object");
        r.onlyKeys(c, {"stats", "group", "what"});
        StallChart sc;
        sc.stats = r.strings(c, "stats");
        sc.group = r.str(c, "group", true);
        if (c.contains("what")) sc.what = r.str(c, "what", true);
        if (sc.stats.empty()) r.fail("stall_chart.stats", "expected a non-empty list");
        if (std::none_of(s.groups.begin(), s.groups.end(), [&](const auto& x) { return x.name == sc.group; }))
            r.fail("stall_chart.group", "'" + sc.group + "' is not a group of this study");
        s.stallChart = std::move(sc);
    }
    return s;
}

} // namespace

std::filesystem::path Studies::specPath(const SweepRef& s) const {
    const std::filesystem::path p(s.spec);
    return p.is_absolute() ? p : file.parent_path() / p;
}

Studies parseStudies(const json& doc, const std::filesystem::path& file) {
    const Reader r(file, "");
    if (!doc.is_object() || !doc.contains("studies") || !doc["studies"].is_array())
        throw InputError(file.string() + ": expected {\"studies\": [...]}");
    for (const auto& [k, v] : doc.items())
        if (k != "studies" && k != "comment") throw InputError(file.string() + ": " + k + ": unknown key");
    Studies out;
    out.file = file;
    std::set<std::string> ids;
    for (size_t i = 0; i < doc["studies"].size(); ++i) {
        out.studies.push_back(parseStudy(doc["studies"][i], file, i));
        if (!ids.insert(out.studies.back().id).second)
            throw InputError(file.string() + ": studies[" + std::to_string(i) + "].id: '" + out.studies.back().id +
                             "' used twice");
    }
    if (out.studies.empty()) throw InputError(file.string() + ": studies: empty");
    return out;
}

Studies loadStudies(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) throw InputError(file.string() + ": cannot open");
    const json doc = parseJsonStream(in, file.string(), /*comments=*/true);
    return parseStudies(doc, file);
}

std::string seriesName(const SweepRef& ref, const json& row, const std::vector<std::string>& setKeys) {
    std::string name = ref.label.empty() ? row.value("scheduler", std::string("?")) : ref.label;
    for (const auto& k : setKeys) {
        const json& v = row.contains(k) ? row[k] : json();
        name += " [" + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump()) + "]";
    }
    return name;
}

namespace {

// A numeric column of one results row; nullopt when the row is not ok or the value not a number.
std::optional<double> rowValue(const json& row, const std::string& column) {
    if (row.value("status", std::string()) != "ok" || !row.contains(column) || !row[column].is_number())
        return std::nullopt;
    return row[column].get<double>();
}

// For `best` sweeps: an ok row with a numeric metric beats one without; else the higher metric.
bool betterRow(const json& row, const json& than, const std::string& metric) {
    const auto a = rowValue(row, metric), b = rowValue(than, metric);
    return a && (!b || *a > *b);
}

} // namespace

StudyData mergeResults(const Study& study, const std::vector<json>& results) {
    StudyData d;
    std::map<std::string, std::set<std::string>> bestRows;  // series -> workloads taken from best sweeps
    std::vector<std::string> seen;  // series in order of appearance
    std::vector<std::string> rowWorkloads;
    for (size_t i = 0; i < results.size() && i < study.sweeps.size(); ++i) {
        const json& doc = results[i];
        // The set axes are the table's columns between "workload" and "status" (docs/sweeps.md).
        std::vector<std::string> setKeys;
        bool inAxes = false;
        for (const auto& c : doc.value("columns", json::array())) {
            const std::string name = c.is_string() ? c.get<std::string>() : "";
            if (name == "status") break;
            if (inAxes) setKeys.push_back(name);
            if (name == "workload") inAxes = true;
        }
        for (const auto& row : doc.value("rows", json::array())) {
            const std::string series = seriesName(study.sweeps[i], row, setKeys);
            const std::string workload = row.value("workload", std::string("?"));
            const bool best = study.sweeps[i].best;
            if (const auto had = d.rows[series].find(workload); had != d.rows[series].end()) {
                if (!best || !bestRows[series].count(workload))
                    throw InputError("study " + study.id + ": series '" + series + "' has workload '" + workload +
                                     "' in two sweeps");
                if (!betterRow(row, had->second, study.metric)) continue;
            }
            if (best) bestRows[series].insert(workload);
            d.rows[series][workload] = row;
            if (std::find(seen.begin(), seen.end(), series) == seen.end()) seen.push_back(series);
            if (std::find(rowWorkloads.begin(), rowWorkloads.end(), workload) == rowWorkloads.end())
                rowWorkloads.push_back(workload);
            const std::string status = row.value("status", std::string("?"));
            if (status != "ok") {
                const json& e = row.contains("error") ? row["error"] : json();
                d.notOk.push_back(series + " / " + workload + ": " + status +
                                  (e.is_string() && !e.get<std::string>().empty() ? " (" + e.get<std::string>() + ")" : ""));
            }
        }
    }
    for (const auto& s : study.seriesOrder)
        if (d.rows.count(s)) d.series.push_back(s);
    for (const auto& s : seen)
        if (std::find(d.series.begin(), d.series.end(), s) == d.series.end()) d.series.push_back(s);
    for (const auto& g : study.groups)
        for (const auto& w : g.workloads)
            if (std::find(d.workloads.begin(), d.workloads.end(), w) == d.workloads.end()) d.workloads.push_back(w);
    for (const auto& w : rowWorkloads)
        if (std::find(d.workloads.begin(), d.workloads.end(), w) == d.workloads.end()) d.workloads.push_back(w);
    for (const auto& [name, from] : study.bestOf) {
        if (d.rows.count(name)) throw InputError("study " + study.id + ": best_of '" + name + "' is also a series of its sweeps");
        for (const auto& w : d.workloads) {
            const json* best = nullptr;
            for (const auto& s : from) {
                const auto sr = d.rows.find(s);
                if (sr == d.rows.end()) continue;
                const auto row = sr->second.find(w);
                if (row != sr->second.end() && (!best || betterRow(row->second, *best, study.metric))) best = &row->second;
            }
            if (best) d.rows[name][w] = *best;
        }
        if (d.rows.count(name)) d.series.push_back(name);
    }
    return d;
}

std::optional<double> valueOf(const StudyData& d, const std::string& series, const std::string& workload,
                              const std::string& column) {
    const auto s = d.rows.find(series);
    if (s == d.rows.end()) return std::nullopt;
    const auto w = s->second.find(workload);
    if (w == s->second.end()) return std::nullopt;
    return rowValue(w->second, column);
}

std::optional<double> normalised(const StudyData& d, const Study& s, const std::string& series,
                                 const std::string& workload) {
    const auto v = valueOf(d, series, workload, s.metric);
    const auto b = valueOf(d, s.baseline, workload, s.metric);
    if (!v || !b || *b <= 0) return std::nullopt;
    return *v / *b;
}

double meanOf(const std::vector<double>& v, Mean m) {
    if (m == Mean::Geometric) return chart::geometricMean(v);
    if (v.empty()) throw std::invalid_argument("mean of no values");
    double acc = 0;
    for (double x : v) {
        if (m == Mean::Harmonic && !(x > 0)) throw std::invalid_argument("harmonic mean of a non-positive value");
        acc += m == Mean::Harmonic ? 1.0 / x : x;
    }
    const double n = double(v.size());
    return m == Mean::Harmonic ? n / acc : acc / n;
}

MeanValue groupMean(const StudyData& d, const Study& s, const std::string& series, const WorkloadGroup& g) {
    MeanValue out;
    out.of = g.workloads.size();
    std::vector<double> v;
    for (const auto& w : g.workloads)
        if (const auto x = normalised(d, s, series, w); x && *x > 0) v.push_back(*x);
    out.count = v.size();
    if (!v.empty()) out.value = meanOf(v, s.mean);
    return out;
}

std::string meanName(Mean m) {
    return m == Mean::Geometric ? "gmean" : m == Mean::Harmonic ? "hmean" : "amean";
}

} // namespace gpusim::validation
