#include "experiments/SweepStatCheck.hpp"

#include <algorithm>
#include <fstream>
#include <set>
#include <string_view>

#include "common/SimError.hpp"
#include "common/Spelling.hpp"
#include "experiments/Subprocess.hpp"
#include "experiments/SweepTable.hpp"

using nlohmann::json;

namespace gpusim::sweep {

namespace {

// Per-kernel and per-stream statistics are registered while a run goes on (kernel0.cycles when
// the kernel ends, gpu.ipaws.kernel0.rr when iPAWS classifies it): a one-cycle probe cannot have
// them. Such a name has a dotted part starting with "kernel" or "stream" (or, in a pattern, '*').
bool registeredLate(const std::string& name) {
    const std::string n = name.rfind("sum:", 0) == 0 ? name.substr(4) : name;
    for (size_t from = 0;;) {
        const std::string_view part = std::string_view(n).substr(from, n.find('.', from) - from);
        if (part.starts_with("kernel") || part.starts_with("stream") || part.starts_with("*")) return true;
        from = n.find('.', from);
        if (from == std::string::npos) return false;
        ++from;
    }
}

// Every name selectStat accepts in the document, for suggestions: the summary's keys (one
// nested level as a.b), the registry's statistics and the fields of its averages and histograms.
std::vector<std::string> knownNames(const json& doc) {
    std::vector<std::string> names;
    if (doc.contains("summary"))
        for (const auto& [k, v] : doc["summary"].items()) {
            if (!v.is_object()) names.push_back(k);
            else
                for (const auto& [f, x] : v.items()) names.push_back(k + "." + f);
        }
    if (doc.contains("stats"))
        for (const auto& [k, v] : doc["stats"].items()) {
            if (!v.is_object()) names.push_back(k);
            else
                for (const auto& [f, x] : v.items())
                    if (f != "buckets") names.push_back(k + "." + f);
        }
    return names;
}

// The probe's command line: the job's own, stopped after one core cycle.
std::vector<std::string> probeArgv(const SweepSpec& spec, const SweepJob& job, const std::string& gpusim,
                                   const std::string& statsPath) {
    std::vector<std::string> a = sweepJobArgv(spec, job, gpusim, statsPath);
    for (size_t i = 0; i + 1 < a.size(); ++i)
        if (a[i] == "--max-cycles") a[i + 1] = "1";
    return a;
}

} // namespace

std::vector<std::string> unmatchedStats(const json& statsDoc, const std::vector<std::string>& stats) {
    std::vector<std::string> out;
    std::vector<std::string> names;
    for (const auto& s : stats) {
        if (!selectStat(statsDoc, s).is_null()) continue;
        if (names.empty()) names = knownNames(statsDoc);
        // A sum: pattern gets no suggestion: its '*' stands for many names at once.
        const std::string near = s.rfind("sum:", 0) == 0 ? "" : didYouMean(s, names);
        out.push_back("'" + s + "'" + (near.empty() ? "" : " (" + near.substr(2) + ")"));
    }
    return out;
}

void checkSweepStats(const SweepSpec& spec, const std::vector<SweepJob>& jobs, const std::string& gpusim,
                     unsigned parallel) {
    std::vector<std::string> pending;
    for (const auto& s : spec.stats)
        if (!registeredLate(s)) pending.push_back(s);
    if (pending.empty() || jobs.empty()) return;
    // One job per configuration (everything but the workload), in job order.
    std::vector<size_t> shapes;
    std::set<std::string> seen;
    for (size_t i = 0; i < jobs.size(); ++i) {
        std::string key = jobs[i].platform + "\n" + jobs[i].scheduler;
        for (const auto& [k, v] : jobs[i].set) key += "\n" + k + "=" + setValueText(v);
        if (seen.insert(key).second) shapes.push_back(i);
    }
    JobDirectory dir("gpusim-sweep-probe");
    std::vector<std::string> firstProblems;  // as found in the first probe that ran
    std::string firstJob;
    size_t probed = 0, next = 0;
    // The first job alone, then the other configurations `parallel` at a time while names lack.
    for (size_t batch = 1; next < shapes.size() && !pending.empty(); batch = std::max(1u, parallel)) {
        std::vector<ProcessJob> pj;
        std::vector<size_t> which;
        std::vector<std::string> statsFiles;
        for (; next < shapes.size() && pj.size() < batch; ++next) {
            const std::string base = (dir / std::to_string(next)).string();
            statsFiles.push_back(base + ".json");
            pj.push_back({probeArgv(spec, jobs[shapes[next]], gpusim, statsFiles.back()), base + ".out", base + ".err"});
            which.push_back(shapes[next]);
        }
        std::vector<json> docs(pj.size());
        runJobs(pj, std::max(1u, parallel), [&](size_t k, const ProcessOutcome& o) {
            if (o.status != 0) return;
            std::ifstream in(statsFiles[k]);
            docs[k] = json::parse(in, nullptr, /*allow_exceptions=*/false);
        });
        for (size_t k = 0; k < docs.size(); ++k) {
            if (!docs[k].is_object()) continue;
            ++probed;
            const std::vector<std::string> problems = unmatchedStats(docs[k], pending);
            if (firstJob.empty()) {
                firstJob = jobs[which[k]].id;
                firstProblems = problems;
            }
            std::vector<std::string> still;
            for (const auto& s : pending)
                if (selectStat(docs[k], s).is_null()) still.push_back(s);
            pending = std::move(still);
        }
    }
    if (pending.empty() || probed == 0) return;  // no probe ran: every job fails on its own
    // The names no configuration has, with the suggestions of the first probe that ran.
    std::string msg;
    for (const auto& s : pending)
        for (const auto& p : firstProblems)
            if (p == "'" + s + "'" || p.rfind("'" + s + "' (", 0) == 0) msg += (msg.empty() ? "" : ", ") + p;
    const std::string others = probed == 2 ? " nor of 1 other configuration"
                               : probed > 2 ? " nor of " + std::to_string(probed - 1) + " other configurations"
                                            : "";
    throw InputError(spec.file + ": stats: no statistic " + msg + " in a one-cycle run of " + firstJob + others +
                     " (names: docs/sweeps.md, Statistics)");
}

} // namespace gpusim::sweep
