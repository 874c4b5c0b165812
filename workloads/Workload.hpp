#pragma once
// A workload is a named sequence of kernels with parameters (`atax:n=256`). The registry maps
// names to built-in workloads and parses/validates their parameters.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "workloads/Kernel.hpp"

namespace gpusim {

class Workload {
public:
    virtual ~Workload() = default;
    virtual const std::string& name() const = 0;
    // Resolved parameters (every parameter, defaults included), recorded in the stats JSON.
    virtual nlohmann::json params() const = 0;
    // Kernels in launch order; each is run to completion before the next starts.
    virtual const std::vector<std::unique_ptr<Kernel>>& kernels() const = 0;
};

struct WorkloadParam {
    std::string name;
    int64_t defaultValue;
    int64_t min, max;
    std::string description;
};

struct WorkloadInfo {
    std::string name;
    std::string description;
    std::vector<WorkloadParam> params;
    // Called with every parameter resolved (defaults filled, ranges checked) and the run's seed.
    std::function<std::unique_ptr<Workload>(const std::map<std::string, int64_t>&, uint64_t seed)>
        make;
};

class WorkloadRegistry {
public:
    static const WorkloadRegistry& builtin();
    void add(WorkloadInfo info);
    const std::vector<WorkloadInfo>& all() const { return infos_; }
    // "name" or "name:k=v,k=v". Unknown name/parameter, bad number or out-of-range value throw
    // InputError naming the workload and the parameter.
    std::unique_ptr<Workload> create(const std::string& spec, uint64_t seed) const;
    // nullptr when no workload has that name.
    const WorkloadInfo* find(const std::string& name) const;
    // Human-readable list for `gpusim list workloads`: per workload one description line, then
    // one indented line per parameter: `name=default  [min .. max]  description`.
    std::string listing() const;

private:
    std::vector<WorkloadInfo> infos_;
};

} // namespace gpusim
