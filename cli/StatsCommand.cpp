#include "cli/StatsCommand.hpp"

#include <algorithm>
#include <cctype>
#include <iostream>
#include <map>

#include <boost/program_options.hpp>

#include "cli/CommandLine.hpp"
#include "cli/RunDocument.hpp"
#include "common/SimError.hpp"
#include "common/StatNames.hpp"

namespace po = boost::program_options;
using nlohmann::json;

namespace gpusim {

namespace {

// "sm2" before "sm10": runs of digits compare as numbers.
bool naturalLess(const std::string& a, const std::string& b) {
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
        if (std::isdigit(static_cast<unsigned char>(a[i])) && std::isdigit(static_cast<unsigned char>(b[j]))) {
            size_t ie = i, je = j;
            while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie]))) ++ie;
            while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je]))) ++je;
            const std::string na = a.substr(i, ie - i), nb = b.substr(j, je - j);
            if (na.size() != nb.size()) return na.size() < nb.size();
            if (na != nb) return na < nb;
            i = ie;
            j = je;
            continue;
        }
        if (a[i] != b[j]) return a[i] < b[j];
        ++i;
        ++j;
    }
    return a.size() - i < b.size() - j;
}

// The groups in this order, any other kind after them by name.
int kindRank(const std::string& kind) {
    static const char* const kOrder[] = {"gpu", "kernel", "stream", "launch", "sm", "l2", "mem", "noc"};
    for (int i = 0; i < 8; ++i)
        if (kind == kOrder[i]) return i;
    return 8;
}

struct Line {
    std::string name, value, comment;
};

// A pattern's GPU-wide figure: counters add up; averages and histograms pool their samples.
struct Total {
    StatValue v;
    size_t instances = 0;
    std::string description;
    bool sameDescription = true;
    void add(const StatValue& s, const std::string& desc) {
        if (instances == 0) {
            v = s;
            description = desc;
        } else if (s.sampled) {
            if (s.count > 0) {
                v.min = v.count > 0 ? std::min(v.min, s.min) : s.min;
                v.max = v.count > 0 ? std::max(v.max, s.max) : s.max;
            }
            v.count += s.count;
            v.sum += s.sum;
            v.value = v.count > 0 ? v.sum / v.count : 0.0;
        } else {
            v.value += s.value;
        }
        if (desc != description) sameDescription = false;
        ++instances;
    }
};

std::string comment(const StatValue& v, const std::string& desc, const std::string& unit) {
    std::string c = desc.empty() ? "" : desc + " ";
    c += "(" + unit;
    if (v.sampled)
        c += v.count > 0 ? "; mean of " + formatStat(v.count) + (v.count == 1 ? " sample" : " samples") + ", min " + formatStat(v.min) + ", max " +
                               formatStat(v.max)
                         : "; no samples";
    return c + ")";
}

void writeLines(std::string& out, const std::vector<Line>& lines, size_t width) {
    for (const Line& l : lines) {
        std::string s = l.name;
        s.append(width > s.size() ? width - s.size() : 1, ' ');
        s.append(l.value.size() < 14 ? 14 - l.value.size() : 0, ' ');
        out += s + l.value + (l.comment.empty() ? "" : "  # " + l.comment) + "\n";
    }
}

std::string text(const json& j, const std::string& key) {
    return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : "";
}

// The headline lines: the run and its summary figures.
std::string header(const json& doc, const std::string& source) {
    std::string out = "# gpusim statistics of " + source;
    const std::string platform = text(doc, "platform");
    if (!platform.empty()) {
        out += ": " + platform;
        if (doc.contains("scheduler") && doc["scheduler"].is_object()) out += " / " + text(doc["scheduler"], "name");
        if (doc.contains("workload") && doc["workload"].is_object()) {
            out += " / " + text(doc["workload"], "name");
            if (doc["workload"].contains("params") && !doc["workload"]["params"].empty())
                out += " " + doc["workload"]["params"].dump();
        }
    }
    out += "\n# name, value, then # description (unit). \"*\" stands for every instance: the sum over them,\n"
           "# or for an average or a histogram the mean over all their samples.\n";
    if (doc.contains("summary") && doc["summary"].is_object()) {
        out += "\n---------- summary (derived figures: docs/user-guide.md, The statistics file) ----------\n";
        std::vector<Line> lines;
        for (const auto& [k, v] : doc["summary"].items()) {
            if (v.is_number() || v.is_boolean())
                lines.push_back({"summary." + k, v.is_boolean() ? v.dump() : formatStat(v.get<double>()), ""});
            else if (v.is_object())
                for (const auto& [k2, v2] : v.items())
                    if (v2.is_number()) lines.push_back({"summary." + k + "." + k2, formatStat(v2.get<double>()), ""});
        }
        size_t width = 0;
        for (const Line& l : lines) width = std::max(width, l.name.size() + 2);
        writeLines(out, lines, width);
    }
    return out;
}

// The per-kernel and per-stream windows (platforms/KernelStatWindows.hpp), one group each.
template <class Describe>
std::string windowsText(const json& doc, const char* key, size_t width, const std::string& source, Describe describe) {
    std::string out;
    for (const char* k : {key, "stream_stats"}) {
        if (!doc.contains(k) || !doc[k].is_array()) continue;
        for (const json& w : doc[k]) {
            if (!w.contains("stats") || !w["stats"].is_object()) continue;
            if (std::string(k) == "stream_stats")
                out += "\n---------- stream " + w.value("stream", json()).dump() + " (" +
                       w.value("kernels", json()).dump() + " kernels; the sum of their windows) ----------\n";
            else
                out += "\n---------- kernel " + w.value("index", json()).dump() + " " + text(w, "name") + " (stream " +
                       w.value("stream", json()).dump() + ", core cycles " + w.value("start_cycle", json()).dump() +
                       " to " + w.value("end_cycle", json()).dump() + "; changes over the kernel) ----------\n";
            std::vector<Line> lines;
            for (const auto& [n, v] : w["stats"].items()) {
                const StatValue sv = statValue(v, n, source + ": " + k);
                std::string c = describe(n);
                c = (c.empty() ? "" : c + " ") + "(" + statUnit(n) +
                    (sv.sampled ? "; mean of the " + formatStat(sv.count) + " samples in the window" : "") + ")";
                lines.push_back({n, formatStat(sv.value), c});
            }
            writeLines(out, lines, width);
        }
    }
    return out;
}

} // namespace

std::string statsText(const json& doc, const std::string& source) {
    const json& stats = doc["stats"];
    const json noInfo = json::object();
    const json& descs = doc.contains("descriptions") && doc["descriptions"].is_object() ? doc["descriptions"] : noInfo;
    auto description = [&](const std::string& n) { return descs.contains(n) ? descs[n].get<std::string>() : ""; };
    // kind -> names, and pattern -> its total, per kind.
    std::map<std::string, std::vector<std::string>> names;
    std::map<std::string, std::map<std::string, Total>> totals;
    std::map<std::string, StatValue> values;
    for (const auto& [n, v] : stats.items()) {
        const StatValue s = statValue(v, n, source);
        values[n] = s;
        const std::string kind = statKind(n);
        names[kind].push_back(n);
        const std::string p = statPattern(n);
        if (p != n) totals[kind][p].add(s, description(n));
    }
    std::vector<std::string> kinds;
    for (const auto& [k, unused] : names) kinds.push_back(k);
    std::stable_sort(kinds.begin(), kinds.end(),
                     [](const std::string& a, const std::string& b) { return kindRank(a) < kindRank(b); });
    size_t width = 0;
    for (const auto& [n, unused] : values) width = std::max(width, n.size() + 2);

    std::string out = header(doc, source);
    for (const std::string& kind : kinds) {
        std::vector<std::string>& ns = names[kind];
        std::sort(ns.begin(), ns.end(), naturalLess);
        out += "\n---------- " + kind + " ----------\n";
        std::vector<Line> lines;
        for (const auto& [p, t] : totals[kind]) {
            std::string d = t.sameDescription ? t.description : "e.g. " + t.description;
            if (!d.empty()) d = (t.v.sampled ? "mean over " : "sum over ") + std::to_string(t.instances) + ": " + d;
            lines.push_back({p, formatStat(t.v.value), comment(t.v, d, statUnit(p))});
        }
        for (const std::string& n : ns)
            lines.push_back({n, formatStat(values[n].value), comment(values[n], description(n), statUnit(n))});
        writeLines(out, lines, width);
    }
    out += windowsText(doc, "kernel_stats", width, source, [&](const std::string& p) {
        for (const auto& [kind, ts] : totals)
            if (auto it = ts.find(p); it != ts.end()) return it->second.sameDescription ? it->second.description : "";
        return description(p);
    });
    return out;
}

int cmdStats(const std::vector<std::string>& args) {
    std::string file;
    po::options_description d("gpusim stats options");
    d.add_options()("file", po::value(&file)->value_name("FILE"), "a statistics file written by gpusim run --stats")(
        "help,h", "show these options");
    po::positional_options_description pos;
    pos.add("file", 1);
    const auto vm = parseCommandLine(d, args, &pos);
    if (vm.count("help")) {
        std::cout << helpText("usage: gpusim stats FILE.json",
                              "Every statistic of a run with its description and unit, GPU-wide totals first in "
                              "each group.",
                              d);
        return 0;
    }
    if (file.empty()) throw InputError("stats: expected a statistics file (gpusim run --stats FILE.json)");
    std::cout << statsText(readRunDocument(file), file);
    return 0;
}

} // namespace gpusim
