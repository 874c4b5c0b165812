// Name lookup and parameter validation for --workload. Every error is one InputError line that
// names the option, the workload and the parameter, because it is printed as-is by the CLI.
#include <charconv>
#include <cstdint>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <system_error>

#include "common/Spec.hpp"
#include "common/Spelling.hpp"
#include "workloads/Workload.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"
#include "workloads/ConcurrentWorkload.hpp"
#include "workloads/trace/TraceWorkload.hpp"

namespace gpusim {

namespace {

const char* const kOption = "--workload";

std::string knownParams(const WorkloadInfo& info) {
    if (info.params.empty()) return "none";
    std::string s;
    for (const auto& p : info.params) s += (s.empty() ? "" : ", ") + p.name;
    return s;
}

// Decimal, or hexadecimal with a 0x prefix (addresses and powers of two read better in hex).
int64_t parseValue(const std::string& prefix, const WorkloadParam& p, const std::string& text) {
    const bool negative = !text.empty() && text[0] == '-';
    const size_t digits = negative ? 1 : 0;
    const bool hex = text.size() > digits + 2 && text[digits] == '0' &&
                     (text[digits + 1] == 'x' || text[digits + 1] == 'X');
    const char* first = text.data() + digits + (hex ? 2 : 0);
    const char* last = text.data() + text.size();
    uint64_t magnitude = 0;
    auto [ptr, ec] = std::from_chars(first, last, magnitude, hex ? 16 : 10);
    if (first == last || ptr != last || (ec != std::errc() && ec != std::errc::result_out_of_range))
        throw InputError(prefix + p.name + ": '" + text + "' is not an integer");
    const std::string range = " is out of range " + std::to_string(p.min) + " .. " + std::to_string(p.max);
    constexpr uint64_t kMaxMagnitude = uint64_t(std::numeric_limits<int64_t>::max());
    if (ec == std::errc::result_out_of_range || magnitude > kMaxMagnitude + (negative ? 1 : 0))
        throw InputError(prefix + p.name + ": " + text + range);
    const int64_t value = negative ? int64_t(0 - magnitude) : int64_t(magnitude);
    if (value < p.min || value > p.max) throw InputError(prefix + p.name + ": " + std::to_string(value) + range);
    return value;
}

} // namespace

const char* toString(WorkloadClass c) {
    switch (c) {
    case WorkloadClass::MemoryDivergent: return "memory-divergent";
    case WorkloadClass::Coherent: return "coherent";
    case WorkloadClass::Compute: return "compute";
    case WorkloadClass::BarrierHeavy: return "barrier-heavy";
    case WorkloadClass::Unspecified: break;
    }
    return "unspecified";
}

const WorkloadRegistry& WorkloadRegistry::builtin() {
    static const WorkloadRegistry registry = [] {
        WorkloadRegistry r;
        r.addArgumentWorkload(traceWorkload());
        r.addArgumentWorkload(concurrentWorkload());
        r.add(vectorAddWorkload());
        r.add(ataxWorkload());
        r.add(bicgWorkload());
        r.add(mvtWorkload());
        r.add(gesummvWorkload());
        r.add(syrkWorkload());
        r.add(syr2kWorkload());
        r.add(twoMmWorkload());
        r.add(conv3dWorkload());
        r.add(fdtd2dWorkload());
        r.add(bfsWorkload());
        r.add(kmeansWorkload());
        r.add(streamclusterWorkload());
        r.add(sradWorkload());
        r.add(backpropWorkload());
        r.add(pathfinderWorkload());
        r.add(hotspotWorkload());
        r.add(spmvWorkload());
        r.add(lpsWorkload());
        r.add(matmulWorkload());
        r.add(blackScholesWorkload());
        r.add(invertedIndexWorkload());
        r.add(histogramWorkload());
        return r;
    }();
    return registry;
}

void WorkloadRegistry::add(WorkloadInfo info) {
    // Programming errors in a registration entry, not user input: fail loudly at start-up.
    if (find(info.name)) throw std::logic_error("workload '" + info.name + "' registered twice");
    for (const auto& p : info.params)
        if (p.min > p.max || p.defaultValue < p.min || p.defaultValue > p.max)
            throw std::logic_error("workload '" + info.name + "': parameter '" + p.name +
                                   "' has its default outside its range");
    if (!info.make) throw std::logic_error("workload '" + info.name + "' has no factory");
    for (const auto& a : argInfos_)
        if (a.name == info.name) throw std::logic_error("workload '" + info.name + "' registered twice");
    infos_.push_back(std::move(info));
}

void WorkloadRegistry::addArgumentWorkload(ArgumentWorkloadInfo info) {
    bool taken = find(info.name) != nullptr;
    for (const auto& a : argInfos_) taken = taken || a.name == info.name;
    if (taken) throw std::logic_error("workload '" + info.name + "' registered twice");
    if (!info.make) throw std::logic_error("workload '" + info.name + "' has no factory");
    argInfos_.push_back(std::move(info));
}

const WorkloadInfo* WorkloadRegistry::find(const std::string& name) const {
    for (const auto& info : infos_)
        if (info.name == name) return &info;
    return nullptr;
}

std::pair<const WorkloadInfo*, std::map<std::string, int64_t>> WorkloadRegistry::resolve(
    const std::string& text) const {
    const Spec spec = parseSpec(text, kOption);
    const WorkloadInfo* info = find(spec.name);
    if (!info) {
        std::vector<std::string> names;
        for (const auto& i : infos_) names.push_back(i.name);
        for (const auto& a : argInfos_) names.push_back(a.name);
        throw InputError(std::string(kOption) + ": unknown workload '" + spec.name + "'" +
                         didYouMean(spec.name, names) + " (see gpusim list workloads)");
    }
    const std::string prefix = std::string(kOption) + ": " + info->name + ": ";
    for (const auto& [key, value] : spec.params) {
        bool known = false;
        std::vector<std::string> names;
        for (const auto& p : info->params) {
            known = known || p.name == key;
            names.push_back(p.name);
        }
        if (!known)
            throw InputError(prefix + "unknown parameter '" + key + "'" + didYouMean(key, names) + " (known: " +
                             knownParams(*info) + ")");
    }
    std::map<std::string, int64_t> resolved;
    for (const auto& p : info->params) {
        auto it = spec.params.find(p.name);
        resolved[p.name] = it == spec.params.end() ? p.defaultValue : parseValue(prefix, p, it->second);
    }
    return {info, std::move(resolved)};
}

// An argument workload takes everything after the first ':' verbatim (trace:DIR).
std::unique_ptr<Workload> WorkloadRegistry::create(const std::string& text, uint64_t seed) const {
    const std::string head = text.substr(0, text.find(':'));
    for (const auto& a : argInfos_)
        if (a.name == head) return a.make(head.size() < text.size() ? text.substr(head.size() + 1) : "", seed);
    const auto [info, resolved] = resolve(text);
    return info->make(resolved, seed);
}

void WorkloadRegistry::check(const std::string& text, uint64_t seed) const {
    const std::string head = text.substr(0, text.find(':'));
    for (const auto& a : argInfos_)
        if (a.name == head) {
            a.make(head.size() < text.size() ? text.substr(head.size() + 1) : "", seed);
            return;
        }
    resolve(text);
}

std::string WorkloadRegistry::listing() const {
    std::ostringstream os;
    for (const auto& info : infos_) {
        os << info.name << "  " << info.description << '\n';
        if (info.workloadClass != WorkloadClass::Unspecified || !info.source.empty()) {
            os << "    class: " << toString(info.workloadClass);
            if (!info.source.empty()) os << "  source: " << info.source;
            os << '\n';
        }
        for (const auto& p : info.params)
            os << "    " << p.name << "=" << p.defaultValue << "  [" << p.min << " .. " << p.max << "]  "
               << p.description << '\n';
    }
    for (const auto& a : argInfos_) os << a.usage << "  " << a.description << '\n';
    return os.str();
}

} // namespace gpusim
