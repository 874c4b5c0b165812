#pragma once
// Several workloads launched on CUDA streams of their own: `--workload concurrent:A+B[+C...]`, each
// part an ordinary workload spec (built-in with parameters, or trace:DIR). Part i's kernels keep
// their order and all run on stream i (a trace part's own stream ids are replaced), so with
// gpu.kernel_concurrency spatial or mixed the parts run at the same time; with serial (the
// default) they run one after another, part 0 first. This is how the iPAWS paper's concurrent-
// kernel experiments merge two applications (its Table 4, "KMN-BLK").
//
// The parts were written as if each had the GPU alone: the same device heap, the same PCs. So
// that they do not share cache lines (or instruction-cache lines, or per-PC tables of a policy)
// by accident, part i's global and local addresses are moved up by i x 2^36 and its PCs by
// i x 2^28; shared-memory addresses stay as they are (each CTA has its own). Everything else in
// an instruction is unchanged.
#include <memory>
#include <string>
#include <vector>

#include "workloads/Workload.hpp"

namespace gpusim {

inline constexpr uint64_t kConcurrentAddressStride = uint64_t(1) << 36;
inline constexpr uint64_t kConcurrentPcStride = uint64_t(1) << 28;

class ConcurrentWorkload final : public Workload {
public:
    // `specs` as written after "concurrent:", `parts` created from them (at least two).
    ConcurrentWorkload(std::vector<std::string> specs, std::vector<std::unique_ptr<Workload>> parts);

    const std::string& name() const override { return name_; }
    // {"parts": [{"spec", "name", "params"}, ...]}
    nlohmann::json params() const override;
    const std::vector<std::unique_ptr<Kernel>>& kernels() const override { return kernels_; }
    // The parts' reports (null if none has one): {"parts": [report or null, ...]}, with their
    // "warnings" gathered at the top level too.
    nlohmann::json report() const override;
    void rethrowDeferredInputError() const override;

private:
    std::string name_ = "concurrent";
    std::vector<std::string> specs_;
    std::vector<std::unique_ptr<Workload>> parts_;
    std::vector<std::unique_ptr<Kernel>> kernels_;
};

// The registry entry: `concurrent:SPEC+SPEC[+...]`, parts created by WorkloadRegistry::builtin().
ArgumentWorkloadInfo concurrentWorkload();

} // namespace gpusim
