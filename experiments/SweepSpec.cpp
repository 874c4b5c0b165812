#include "experiments/SweepSpec.hpp"

#include <cctype>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "common/Config.hpp"
#include "common/JsonFile.hpp"
#include "common/SimError.hpp"
#include "platforms/PlatformFiles.hpp"
#include "platforms/Schema.hpp"
#include "experiments/Subprocess.hpp"
#include "scheduler/PolicyRegistry.hpp"
#include "workloads/Workload.hpp"

using nlohmann::json;

namespace gpusim {

namespace {

// Long enough for any reasonable axis tuple, short of the 255-byte file-name limit with room for
// the ".json.tmp" and ".failed" suffixes.
constexpr size_t kMaxIdLength = 180;

// FNV-1a, 32 bits: a stable (platform- and run-independent) short tag for the exact values.
std::string hashTag(const std::string& s) {
    uint32_t h = 2166136261u;
    for (unsigned char c : s) {
        h ^= c;
        h *= 16777619u;
    }
    char buf[9];
    std::snprintf(buf, sizeof buf, "%08x", h);
    return buf;
}

std::vector<std::string> axisOfStrings(const json& doc, const char* key, const std::string& file) {
    const std::string where = file + ": " + key;
    if (!doc.contains(key)) throw InputError(where + ": missing (expected a non-empty list of names)");
    const json& v = doc[key];
    if (!v.is_array()) throw InputError(where + ": expected a list of names");
    if (v.empty()) throw InputError(where + ": empty axis (give at least one value)");
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (const auto& x : v) {
        if (!x.is_string() || x.get<std::string>().empty()) throw InputError(where + ": expected non-empty strings, got " + x.dump());
        if (!seen.insert(x.get<std::string>()).second)
            throw InputError(where + ": '" + x.get<std::string>() + "' listed twice");
        out.push_back(x.get<std::string>());
    }
    return out;
}

uint64_t nonNegative(const json& doc, const char* key, const std::string& file, uint64_t def) {
    if (!doc.contains(key)) return def;
    const json& v = doc[key];
    if (!v.is_number_integer() || (v.is_number_integer() && !v.is_number_unsigned() && v.get<int64_t>() < 0))
        throw InputError(file + ": " + key + ": expected a non-negative integer, got " + v.dump());
    return v.get<uint64_t>();
}

} // namespace

const std::vector<std::string>& alwaysCollectedStats() {
    static const std::vector<std::string> v{"cycles", "warp_instructions", "ipc"};
    return v;
}

json SweepSpec::fixedOptions() const {
    json fixed = json::object();
    for (const auto& [k, v] : setFixed) fixed[k] = v;
    json j = {{"seed", seed}, {"max_cycles", maxCycles}, {"set", fixed}};
    if (!plugins.empty()) j["plugins"] = plugins;
    return j;
}

json SweepSpec::toJson() const {
    json axes = json::object();
    for (const auto& [k, vals] : setAxes) axes[k] = vals;
    return {{"spec", file},           {"name", name},         {"platforms", platforms},
            {"schedulers", schedulers}, {"workloads", workloads}, {"set_axes", axes},
            {"fixed", fixedOptions()}, {"stats", stats}};
}

SweepSpec parseSweepSpec(const json& doc, const std::string& file) {
    if (!doc.is_object()) throw InputError(file + ": expected a JSON object (see docs/sweeps.md)");
    static const std::set<std::string> known{"name",     "comment", "platforms", "schedulers", "workloads",
                                             "set",      "seed",    "max_cycles", "stats"};
    for (const auto& [k, v] : doc.items())
        if (!known.count(k))
            throw InputError(file + ": " + k +
                             ": unknown key (expected name, platforms, schedulers, workloads, set, seed, max_cycles, "
                             "stats, comment)");
    SweepSpec s;
    s.file = file;
    s.name = std::filesystem::path(file).stem().string();
    if (doc.contains("name")) {
        if (!doc["name"].is_string() || doc["name"].get<std::string>().empty())
            throw InputError(file + ": name: expected a non-empty string");
        s.name = doc["name"].get<std::string>();
    }
    s.platforms = axisOfStrings(doc, "platforms", file);
    s.schedulers = axisOfStrings(doc, "schedulers", file);
    s.workloads = axisOfStrings(doc, "workloads", file);
    s.seed = nonNegative(doc, "seed", file, 1);
    s.maxCycles = nonNegative(doc, "max_cycles", file, 0);
    if (doc.contains("set")) {
        const json& set = doc["set"];
        if (!set.is_object()) throw InputError(file + ": set: expected an object {key: value or [values]}");
        for (const auto& [k, v] : set.items()) {  // nlohmann::json objects iterate in key order
            const std::string where = file + ": set." + k;
            auto scalar = [&](const json& x) {
                if (!(x.is_number() || x.is_boolean() || x.is_string()))
                    throw InputError(where + ": expected a number, boolean or string, got " + x.dump());
            };
            if (v.is_array()) {
                if (v.empty()) throw InputError(where + ": empty axis (give at least one value)");
                std::vector<json> vals;
                std::set<std::string> seen;
                for (const auto& x : v) {
                    scalar(x);
                    if (!seen.insert(setValueText(x)).second)
                        throw InputError(where + ": value " + x.dump() + " listed twice");
                    vals.push_back(x);
                }
                s.setAxes.emplace_back(k, std::move(vals));
            } else {
                scalar(v);
                s.setFixed.emplace_back(k, v);
            }
        }
    }
    if (doc.contains("stats")) {
        const json& st = doc["stats"];
        if (!st.is_array()) throw InputError(file + ": stats: expected a list of statistic names");
        std::set<std::string> seen(alwaysCollectedStats().begin(), alwaysCollectedStats().end());
        for (const auto& x : st) {
            if (!x.is_string() || x.get<std::string>().empty())
                throw InputError(file + ": stats: expected non-empty strings, got " + x.dump());
            const std::string n = x.get<std::string>();
            if (n.rfind("sum:", 0) == 0 && n.size() == 4) throw InputError(file + ": stats: 'sum:' needs a pattern");
            if (seen.insert(n).second) s.stats.push_back(n);
        }
    }
    return s;
}

SweepSpec loadSweepSpec(const std::string& file) {
    std::ifstream in(file);
    if (!in) throw InputError(file + ": cannot open");
    const json doc = parseJsonStream(in, file, /*comments=*/true);
    return parseSweepSpec(doc, file);
}

void validateSweepSpec(const SweepSpec& spec) {
    const std::string& f = spec.file;
    for (const auto& s : spec.schedulers) {
        try {
            PolicyRegistry::builtin().parse(s);
        } catch (const InputError& e) {
            throw InputError(f + ": schedulers: " + e.what());
        }
    }
    for (const auto& w : spec.workloads) {
        try {
            WorkloadRegistry::builtin().check(w, spec.seed);
        } catch (const InputError& e) {
            // "--workload: atax: ..." is the run's option; in a spec the key says where.
            const std::string m = e.what(), option = "--workload: ";
            throw InputError(f + ": workloads: " + (m.rfind(option, 0) == 0 ? m.substr(option.size()) : m));
        }
    }
    for (const auto& p : spec.platforms) {
        Config cfg(gpuSchema());
        cfg.setBaseResolver(resolvePlatform);
        try {
            cfg.loadFile(resolvePlatform(p));
        } catch (const InputError& e) {
            throw InputError(f + ": platforms: " + e.what());
        }
        const std::string origin = f + ": set";
        for (const auto& [k, v] : spec.setFixed) cfg.set(k, v, origin);
        for (const auto& [k, vals] : spec.setAxes)
            for (const auto& v : vals) cfg.set(k, v, origin);
    }
}

std::vector<SweepJob> expandSweep(const SweepSpec& spec) {
    std::vector<SweepJob> jobs;
    // Odometer over the set axes, last axis fastest.
    std::vector<size_t> idx(spec.setAxes.size(), 0);
    for (const auto& p : spec.platforms)
        for (const auto& s : spec.schedulers)
            for (const auto& w : spec.workloads) {
                std::fill(idx.begin(), idx.end(), 0);
                for (;;) {
                    SweepJob j{"", p, s, w, {}};
                    std::string id = fileNameSafe(p) + "__" + fileNameSafe(s) + "__" + fileNameSafe(w);
                    for (size_t a = 0; a < idx.size(); ++a) {
                        const auto& [key, vals] = spec.setAxes[a];
                        j.set.emplace_back(key, vals[idx[a]]);
                        id += "__" + fileNameSafe(key + "=" + setValueText(vals[idx[a]]));
                    }
                    j.id = id;
                    jobs.push_back(std::move(j));
                    size_t a = idx.size();
                    while (a > 0 && ++idx[a - 1] == spec.setAxes[a - 1].second.size()) idx[--a] = 0;
                    if (a == 0) break;
                }
            }
    // Make ids unique and bounded; the tag is of the exact (unsanitised) values so it is stable.
    std::map<std::string, size_t> count;
    for (const auto& j : jobs) ++count[j.id];
    for (auto& j : jobs) {
        if (count[j.id] == 1 && j.id.size() <= kMaxIdLength) continue;
        std::string exact = j.platform + "\n" + j.scheduler + "\n" + j.workload;
        for (const auto& [k, v] : j.set) exact += "\n" + k + "=" + setValueText(v);
        if (j.id.size() > kMaxIdLength) j.id.resize(kMaxIdLength);
        j.id += "-" + hashTag(exact);
    }
    return jobs;
}

std::string setValueText(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

std::vector<std::string> sweepJobArgv(const SweepSpec& spec, const SweepJob& job, const std::string& gpusim,
                                      const std::string& statsPath) {
    std::vector<std::string> a{gpusim,      "run",        "--quiet",    "--platform", job.platform, "--scheduler",
                               job.scheduler, "--workload", job.workload, "--seed",     std::to_string(spec.seed),
                               "--max-cycles", std::to_string(spec.maxCycles), "--stats", statsPath};
    for (const auto& [k, v] : spec.setFixed) a.insert(a.end(), {"--set", k + "=" + setValueText(v)});
    for (const auto& [k, v] : job.set) a.insert(a.end(), {"--set", k + "=" + setValueText(v)});
    for (const auto& p : spec.plugins) a.insert(a.end(), {"--plugin", p});
    return a;
}

} // namespace gpusim
