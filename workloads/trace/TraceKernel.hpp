#pragma once
// One kernel of an Accel-Sim trace, read lazily: the header when the workload loads, then one
// thread-block section each time the CTA dispatcher places a CTA, so host memory holds only the
// resident CTAs' instructions however long the trace.
//
// The cursor: the CTA dispatcher places CTAs in ctaId order and asks for warp 0, 1, ... of each
// as it places it (SmCore::launchCta). warp(c, 0) reads the file's next section, which must be
// block c (sections are in linear block order, TraceFileReader.hpp); each warp's stream then
// takes that warp's instructions out of the section, and frees them when the warp retires and
// its stream is destroyed. The file stays open from the first CTA to the last (then it is
// checked for trailing sections and closed). A request out of that order (a test, a second
// pass) is served by reopening the file and reading forward to block c: correct, but a full
// re-read.
//
// Input errors found while reading a section are thrown from warp(), i.e. inside the simulation;
// the first one is also kept in the shared TraceRunState so the workload can rethrow it after
// sc_start (Workload::rethrowDeferredInputError).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/Kernel.hpp"
#include "workloads/trace/TraceFileReader.hpp"

namespace gpusim {

struct TraceRunState {
    TraceTally tally;
    std::string deferredError;  // first InputError met inside the simulation
};

class TraceKernel final : public Kernel {
public:
    TraceKernel(std::string path, const KernelTraceHeader& header, std::shared_ptr<TraceRunState> state);

    const KernelInfo& info() const override { return info_; }
    const KernelTraceHeader& header() const { return header_; }
    const std::string& path() const { return path_; }
    std::unique_ptr<WarpStream> warp(uint64_t ctaId, unsigned warpInCta) const override;

private:
    void load(uint64_t ctaId) const;

    std::string path_;
    KernelTraceHeader header_;
    KernelInfo info_;
    std::shared_ptr<TraceRunState> state_;
    // The cursor (mutable: warp() is const in the Kernel interface).
    mutable std::unique_ptr<TraceFileReader> reader_;
    mutable uint64_t nextSection_ = 0;          // block the reader reads next
    mutable uint64_t heldCta_ = UINT64_MAX;     // block whose warps `held_` holds
    mutable ThreadBlockTrace held_;
    mutable std::vector<bool> taken_;
};

} // namespace gpusim
