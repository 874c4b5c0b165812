#pragma once
// Names -> warp-scheduling policies, with their parameters, for `--scheduler NAME[:k=v,...]` and
// `gpusim list schedulers`. One policy object per SM is made by make(). The process's registry
// holds the built-in policies and those that plugins add at run time (scheduler/PolicyPlugin.hpp,
// docs/extending.md).
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scheduler/SchedulerPolicy.hpp"

namespace gpusim {

struct PolicyParam {
    std::string name;
    double defaultValue;
    double min, max;
    std::string description;
    bool integer = false;  // reject fractional values
};

// A parameter that takes whole numbers only (most do: counts, sizes, switches).
inline PolicyParam intParam(std::string name, double def, double min, double max, std::string desc) {
    return {std::move(name), def, min, max, std::move(desc), true};
}

struct PolicyInfo {
    std::string name;
    std::string description;
    std::vector<PolicyParam> params;
    std::function<std::unique_ptr<SchedulerPolicy>(const std::map<std::string, double>&)> make;
    // Checks between parameters (every parameter present, each within its range); returns an
    // error text naming the parameter, or "" when the combination is valid.
    std::function<std::string(const std::map<std::string, double>&)> check = nullptr;
    // Optional, for policies whose SMs share state (iPAWS): the GPU-wide context (one per GPU;
    // may return null, e.g. for a per-SM variant) and the maker that hands it to each SM's policy.
    std::function<std::shared_ptr<PolicyGpuContext>(const std::map<std::string, double>&)> gpuContext = nullptr;
    std::function<std::unique_ptr<SchedulerPolicy>(const std::map<std::string, double>&,
                                                   std::shared_ptr<PolicyGpuContext>)>
        makeShared = nullptr;
    // Where the policy comes from: "" for a built-in one, the plugin's path for a plugin's (set by
    // the plugin loader; shown by listing() and in name-clash errors).
    std::string origin = "";
};

// A parsed and validated --scheduler value.
struct PolicyChoice {
    const PolicyInfo* info = nullptr;
    std::map<std::string, double> params;  // every parameter, defaults filled
    std::unique_ptr<SchedulerPolicy> make() const { return info->make(params); }
    // One per GPU, before its SMs' policies: null when the policy shares nothing across SMs.
    std::shared_ptr<PolicyGpuContext> makeGpuContext() const {
        return info->gpuContext ? info->gpuContext(params) : nullptr;
    }
    // An SM's policy bound to its GPU's context (make() when the context is null).
    std::unique_ptr<SchedulerPolicy> make(std::shared_ptr<PolicyGpuContext> gpu) const {
        return gpu && info->makeShared ? info->makeShared(params, std::move(gpu)) : make();
    }
    nlohmann::json toJson() const;
};

class PolicyRegistry {
public:
    // The process's policies: the built-in ones, then those plugins have added (loadPolicyPlugin).
    static const PolicyRegistry& builtin();
    // The same registry, writable: the plugin loader adds to it. Not thread-safe; add before any
    // GPU is built (a PolicyChoice's info pointer stays valid: entries never move).
    static PolicyRegistry& process();
    // Throws InputError when the name is empty, holds ':', ',' or '=', or is taken; a clash names
    // both origins: "scheduler 'gto' of plugin /p/libx.so clashes with the built-in 'gto'".
    void add(PolicyInfo info);
    const std::deque<PolicyInfo>& all() const { return infos_; }
    const PolicyInfo* find(const std::string& name) const;
    // Throws InputError: "--scheduler: unknown scheduler 'x' (see gpusim list schedulers)", ...
    // "name:V" (no '=') is short for the policy's first parameter: "swl:2" = "swl:warps=2".
    PolicyChoice parse(const std::string& spec) const;
    std::string listing() const;

private:
    std::deque<PolicyInfo> infos_;  // a deque: adding never moves an entry
};

} // namespace gpusim
