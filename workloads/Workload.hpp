#pragma once
// A workload is a named sequence of kernels with parameters (`atax:n=256`). The registry maps
// names to built-in workloads and parses/validates their parameters.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
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
    // Kernels in launch order; a kernel starts after the previous one of its stream (KernelInfo::
    // stream) ended, and after every earlier kernel unless gpu.kernel_concurrency allows overlap.
    virtual const std::vector<std::unique_ptr<Kernel>>& kernels() const = 0;
    // Facts about the input learnt while the run read it (an Accel-Sim trace: unknown opcodes,
    // MemcpyHtoD records), or null. The CLI writes it into the stats JSON as workload.report and
    // prints each string of its "warnings" array on stderr.
    virtual nlohmann::json report() const { return nullptr; }
    // Input read lazily inside the simulation (a trace section) can be malformed; the InputError
    // is thrown inside a SystemC process, which sc_start turns into an sc_report. The workload
    // keeps the first one and rethrows it here (Gpu::run and Gpu::rethrow call it), so the CLI
    // still exits 2 with its message.
    virtual void rethrowDeferredInputError() const {}
};

struct WorkloadParam {
    std::string name;
    int64_t defaultValue;
    int64_t min, max;
    std::string description;
};

// What limits a workload on a Fermi-class SM, as the scheduling papers group their benchmarks:
// many lines per warp access (memory-divergent), one or two lines per access (coherent), ALU/SFU
// bound (compute), or dominated by __syncthreads and shared memory (barrier-heavy).
enum class WorkloadClass : uint8_t { Unspecified, MemoryDivergent, Coherent, Compute, BarrierHeavy };
const char* toString(WorkloadClass c);

struct WorkloadInfo {
    std::string name;
    std::string description;
    std::vector<WorkloadParam> params;
    // Called with every parameter resolved (defaults filled, ranges checked) and the run's seed.
    std::function<std::unique_ptr<Workload>(const std::map<std::string, int64_t>&, uint64_t seed)>
        make;
    // The benchmark (suite, program, file) whose kernels this reproduces, for the listing.
    std::string source = {};
    WorkloadClass workloadClass = WorkloadClass::Unspecified;
};

// A workload configured by one free-form argument instead of k=v parameters: everything after
// the first ':' is passed verbatim (`trace:DIR`, so a path may hold ',', '=' or ':').
struct ArgumentWorkloadInfo {
    std::string name;
    std::string usage;  // "trace:DIR"
    std::string description;
    std::function<std::unique_ptr<Workload>(const std::string& argument, uint64_t seed)> make;
};

class WorkloadRegistry {
public:
    static const WorkloadRegistry& builtin();
    void add(WorkloadInfo info);
    void addArgumentWorkload(ArgumentWorkloadInfo info);
    // The built-in kernel library (parameterised workloads); argument workloads are separate.
    const std::vector<WorkloadInfo>& all() const { return infos_; }
    const std::vector<ArgumentWorkloadInfo>& argumentWorkloads() const { return argInfos_; }
    // "name" or "name:k=v,k=v". Unknown name/parameter, bad number or out-of-range value throw
    // InputError naming the workload and the parameter.
    std::unique_ptr<Workload> create(const std::string& spec, uint64_t seed) const;
    // Throws what create would, without building a parameterised workload's kernels (a sweep
    // checks every job's workload before the first runs). An argument workload is built: its
    // argument (a trace folder, the parts of a concurrent one) is only checked by reading it.
    void check(const std::string& spec, uint64_t seed) const;
    // nullptr when no workload has that name.
    const WorkloadInfo* find(const std::string& name) const;
    // Human-readable list for `gpusim list workloads`: per workload one description line, an
    // indented `class: ...  source: ...` line when known, then one indented line per parameter:
    // `name=default  [min .. max]  description`.
    std::string listing() const;

private:
    // The workload of a "name:k=v" spec and every parameter resolved (defaults filled, ranges
    // checked); throws InputError naming the option, the workload and the parameter.
    std::pair<const WorkloadInfo*, std::map<std::string, int64_t>> resolve(const std::string& text) const;
    std::vector<WorkloadInfo> infos_;
    std::vector<ArgumentWorkloadInfo> argInfos_;
};

} // namespace gpusim
