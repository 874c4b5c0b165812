#include "experiments/SweepTable.hpp"

#include <unistd.h>

#include <fstream>
#include <map>
#include <sstream>

#include "common/JsonFile.hpp"
#include "common/SimError.hpp"
#include "experiments/Subprocess.hpp"

using nlohmann::json;

namespace gpusim::sweep {

namespace {

// name -> number for a registry statistic: a counter as is, an average or histogram as
// NAME.FIELD (buckets left out: they are not one number).
void flatten(const std::string& name, const json& v, std::vector<std::pair<std::string, json>>& out) {
    if (v.is_number()) {
        out.emplace_back(name, v);
    } else if (v.is_object()) {
        for (const auto& [k, x] : v.items())
            if (k != "buckets") flatten(name + "." + k, x, out);
    }
}

// Summary keys may nest one level (ldst_stalls.LDST_MSHR).
json lookupDotted(const json& obj, const std::string& name) {
    if (!obj.is_object()) return nullptr;
    if (obj.contains(name)) return obj[name].is_structured() ? json() : obj[name];
    const auto dot = name.find('.');
    if (dot == std::string::npos) return nullptr;
    const std::string head = name.substr(0, dot);
    return obj.contains(head) ? lookupDotted(obj[head], name.substr(dot + 1)) : json();
}

// '*' matches any run of characters (dots included); everything else literally.
bool globMatch(const std::string& pat, const std::string& s) {
    size_t p = 0, i = 0, star = std::string::npos, mark = 0;
    while (i < s.size()) {
        if (p < pat.size() && pat[p] == '*') {
            star = p++;
            mark = i;
        } else if (p < pat.size() && pat[p] == s[i]) {
            ++p;
            ++i;
        } else if (star != std::string::npos) {
            p = star + 1;
            i = ++mark;
        } else {
            return false;
        }
    }
    while (p < pat.size() && pat[p] == '*') ++p;
    return p == pat.size();
}

std::string csvField(const json& v) {
    if (v.is_null()) return "";
    const std::string s = v.is_string() ? v.get<std::string>() : v.dump();
    if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
}

json rowValue(const Row& r, const std::string& column, const SweepSpec& spec) {
    const SweepJob& j = *r.job;
    if (column == "id") return j.id;
    if (column == "platform") return j.platform;
    if (column == "scheduler") return j.scheduler;
    if (column == "workload") return j.workload;
    if (column == "status") return r.status;
    if (column == "error") return r.error.empty() ? json() : json(r.error);
    for (const auto& [k, v] : j.set)
        if (k == column) return v;
    (void)spec;
    return r.values.contains(column) ? r.values[column] : json();
}

} // namespace

fs::path jobsDir(const fs::path& out) { return out / "jobs"; }
fs::path resultFile(const fs::path& out, const std::string& id) { return jobsDir(out) / (id + ".json"); }
fs::path tempResultFile(const fs::path& out, const std::string& id) { return jobsDir(out) / (id + ".json.tmp"); }
fs::path failedFile(const fs::path& out, const std::string& id) { return jobsDir(out) / (id + ".failed"); }
fs::path stdoutFile(const fs::path& out, const std::string& id) { return jobsDir(out) / (id + ".out"); }
fs::path stderrFile(const fs::path& out, const std::string& id) { return jobsDir(out) / (id + ".err"); }

void writeAtomically(const fs::path& path, const std::string& text) {
    const fs::path tmp = path.string() + ".tmp" + std::to_string(getpid());
    {
        std::ofstream o(tmp, std::ios::trunc);
        o << text;
        o.flush();
        if (!o) throw InputError(tmp.string() + ": cannot write");
    }
    fs::rename(tmp, path);
}

std::string recordJobOutcome(const fs::path& out, const std::string& id, int status) {
    const fs::path tmp = tempResultFile(out, id);
    std::error_code ec;
    std::string error;
    if (status == 0 && fs::exists(tmp)) {
        fs::rename(tmp, resultFile(out, id), ec);
        if (ec) error = "cannot rename " + tmp.string() + ": " + ec.message();
        else if (readResult(out, id).is_null()) error = "statistics file is not valid";
    } else {
        error = status == 0 ? "exited 0 without writing statistics" : lastLineOf(stderrFile(out, id));
        if (error.empty()) error = status > 128 ? "killed by signal " + std::to_string(status - 128) : "no message";
    }
    if (!error.empty()) {
        fs::remove(tmp, ec);
        writeAtomically(failedFile(out, id), json{{"status", status}, {"error", error}}.dump() + "\n");
    }
    return error;
}

json readResult(const fs::path& out, const std::string& id) {
    std::ifstream in(resultFile(out, id));
    if (!in) return nullptr;
    json doc = json::parse(in, nullptr, false);
    if (doc.is_discarded() || !doc.is_object() || !doc.contains("summary")) return nullptr;
    return doc;
}

json selectStat(const json& statsDoc, const std::string& name) {
    const json& stats = statsDoc.contains("stats") ? statsDoc["stats"] : json::object();
    if (name.rfind("sum:", 0) == 0) {
        const std::string pat = name.substr(4);
        std::vector<std::pair<std::string, json>> flat;
        for (const auto& [k, v] : stats.items()) flatten(k, v, flat);
        bool any = false, integral = true;
        int64_t isum = 0;
        double dsum = 0;
        for (const auto& [k, v] : flat) {
            if (!globMatch(pat, k)) continue;
            any = true;
            if (v.is_number_integer()) isum += v.get<int64_t>();
            else integral = false;
            dsum += v.get<double>();
        }
        if (!any) return nullptr;
        return integral ? json(isum) : json(dsum);
    }
    if (statsDoc.contains("summary")) {
        json v = lookupDotted(statsDoc["summary"], name);
        if (!v.is_null()) return v;
    }
    if (stats.contains(name)) return stats[name].is_number() ? stats[name] : json();
    // NAME.FIELD of an average or histogram.
    const auto dot = name.rfind('.');
    if (dot != std::string::npos && stats.contains(name.substr(0, dot))) {
        const json& s = stats[name.substr(0, dot)];
        const std::string field = name.substr(dot + 1);
        if (s.is_object() && s.contains(field) && s[field].is_number()) return s[field];
    }
    return nullptr;
}

json manifest(const SweepSpec& spec, const std::vector<SweepJob>& jobs) {
    json m = spec.toJson();
    json js = json::array();
    for (const auto& j : jobs) {
        json set = json::object();
        for (const auto& [k, v] : j.set) set[k] = v;
        js.push_back({{"id", j.id}, {"platform", j.platform}, {"scheduler", j.scheduler}, {"workload", j.workload},
                      {"set", set}});
    }
    m["jobs"] = js;
    return m;
}

void readManifest(const fs::path& out, SweepSpec& spec, std::vector<SweepJob>& jobs) {
    const fs::path file = out / "sweep.json";
    std::ifstream in(file);
    if (!in) throw InputError(file.string() + ": cannot open (not a sweep output directory?)");
    const json m = parseJsonStream(in, file.string());
    if (!m.is_object()) throw InputError(file.string() + ": not a sweep manifest (expected a JSON object)");
    try {
        spec = SweepSpec{};
        spec.file = m.at("spec").get<std::string>();
        spec.name = m.at("name").get<std::string>();
        spec.platforms = m.at("platforms").get<std::vector<std::string>>();
        spec.schedulers = m.at("schedulers").get<std::vector<std::string>>();
        spec.workloads = m.at("workloads").get<std::vector<std::string>>();
        for (const auto& [k, v] : m.at("set_axes").items()) spec.setAxes.emplace_back(k, v.get<std::vector<json>>());
        const json& fixed = m.at("fixed");
        spec.seed = fixed.at("seed").get<uint64_t>();
        spec.maxCycles = fixed.at("max_cycles").get<uint64_t>();
        for (const auto& [k, v] : fixed.at("set").items()) spec.setFixed.emplace_back(k, v);
        if (fixed.contains("plugins")) spec.plugins = fixed.at("plugins").get<std::vector<std::string>>();
        spec.stats = m.at("stats").get<std::vector<std::string>>();
        jobs.clear();
        for (const auto& j : m.at("jobs")) {
            SweepJob job{j.at("id").get<std::string>(), j.at("platform").get<std::string>(),
                         j.at("scheduler").get<std::string>(), j.at("workload").get<std::string>(), {}};
            // In the spec's axis order, not the JSON object's.
            for (const auto& [k, vals] : spec.setAxes) job.set.emplace_back(k, j.at("set").at(k));
            jobs.push_back(std::move(job));
        }
    } catch (const json::exception& e) {
        throw InputError(file.string() + ": not a sweep manifest (" + e.what() + ")");
    }
}

NoResult whyNoResult(const fs::path& out, const std::string& id) {
    if (std::ifstream fin(failedFile(out, id)); fin) {
        const json f = json::parse(fin, nullptr, false);
        return {"failed", f.is_object() ? "exit " + std::to_string(f.value("status", -1)) + ": " + f.value("error", "")
                                        : "unreadable " + failedFile(out, id).filename().string()};
    }
    const std::string last = lastLineOf(stderrFile(out, id));
    return {"missing", last.empty() ? "no result (not run, interrupted or still running)" : "no result; stderr: " + last};
}

Table collectTable(const fs::path& out, const SweepSpec& spec, const std::vector<SweepJob>& jobs) {
    Table t;
    t.columns = {"id", "platform", "scheduler", "workload"};
    for (const auto& [k, v] : spec.setAxes) t.columns.push_back(k);
    t.columns.insert(t.columns.end(), {"status", "error"});
    std::vector<std::string> stats = alwaysCollectedStats();
    stats.insert(stats.end(), spec.stats.begin(), spec.stats.end());
    t.columns.insert(t.columns.end(), stats.begin(), stats.end());
    std::map<std::string, size_t> unmatched;
    for (const auto& j : jobs) {
        Row r;
        r.job = &j;
        const json doc = readResult(out, j.id);
        if (!doc.is_null()) {
            r.status = "ok";
            ++t.ok;
            for (const auto& s : stats) {
                r.values[s] = selectStat(doc, s);
                if (r.values[s].is_null()) ++unmatched[s];
            }
        } else {
            NoResult why = whyNoResult(out, j.id);
            ++(why.status == "failed" ? t.failed : t.missing);
            r.status = std::move(why.status);
            r.error = std::move(why.error);
        }
        t.rows.push_back(std::move(r));
    }
    for (const auto& s : stats)
        if (unmatched.count(s))
            t.warnings.push_back("statistic '" + s + "' matched nothing in " + std::to_string(unmatched[s]) + " of " +
                                 std::to_string(t.ok) + " finished jobs (empty in the table)");
    return t;
}

std::string tableCsv(const Table& t, const SweepSpec& spec) {
    std::ostringstream o;
    for (size_t c = 0; c < t.columns.size(); ++c) o << (c ? "," : "") << csvField(t.columns[c]);
    o << "\n";
    for (const auto& r : t.rows) {
        for (size_t c = 0; c < t.columns.size(); ++c) o << (c ? "," : "") << csvField(rowValue(r, t.columns[c], spec));
        o << "\n";
    }
    return o.str();
}

json tableJson(const Table& t, const SweepSpec& spec) {
    json rows = json::array(), failed = json::array();
    for (const auto& r : t.rows) {
        json row = json::object();
        for (const auto& c : t.columns) row[c] = rowValue(r, c, spec);
        rows.push_back(row);
        if (r.status != "ok") failed.push_back({{"id", r.job->id}, {"status", r.status}, {"error", r.error}});
    }
    return {{"sweep", spec.name}, {"spec", spec.file},   {"columns", t.columns}, {"ok", t.ok},
            {"failed", t.failed}, {"missing", t.missing}, {"rows", rows},       {"not_ok", failed}};
}

void writeTable(const fs::path& out, const Table& t, const SweepSpec& spec) {
    writeAtomically(out / "results.csv", tableCsv(t, spec));
    writeAtomically(out / "results.json", tableJson(t, spec).dump(1) + "\n");
}

} // namespace gpusim::sweep
