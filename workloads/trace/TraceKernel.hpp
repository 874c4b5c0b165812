#pragma once
// One kernel of an Accel-Sim trace, read lazily: the header when the workload loads, then one
// thread-block section each time the CTA dispatcher places a CTA, and each warp's instructions
// a window at a time as the SM fetches them (TraceWarpStream.hpp), so host memory holds a
// window per resident warp however long the warps and the trace.
//
// The cursor: the CTA dispatcher places CTAs in ctaId order and asks for warp 0, 1, ... of each
// as it places it (SmCore::launchCta). warp(c, 0) reads the file's next section, which must be
// block c (sections are in linear block order, TraceFileReader.hpp), parsing and checking all of
// it but keeping only each warp's first TraceWarpStream::kHeld instructions and where the rest
// is; each warp's stream takes its part and reads the rest from the file later. The section
// reader stays open from the first CTA to the last (then the file is checked for trailing
// sections and that reader closed); the streams read through a descriptor of their own
// (TraceBytes: for an .xz file, the decoded copy the section reader writes as it decodes). A
// request out of that order (a test, a second pass) is served by reopening the file and reading
// forward to block c: correct, but a full re-read.
//
// Input errors found while reading a section are thrown from warp(), i.e. inside the simulation;
// the first one is also kept in the shared TraceRunState so the workload can rethrow it after
// sc_start (Workload::rethrowDeferredInputError). So is one a stream meets later (next()).
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "workloads/Kernel.hpp"
#include "workloads/trace/TraceFileReader.hpp"

namespace gpusim {

struct TraceWarpSource;

struct TraceRunState {
    TraceTally tally;
    std::string deferredError;  // first InputError met inside the simulation
    // Keeps `message` unless an error is already kept. Thread-safe: streams of SMs stepping on
    // several threads may meet errors in the same cycle.
    void defer(const std::string& message) {
        const std::lock_guard<std::mutex> lock(mutex);
        if (deferredError.empty()) deferredError = message;
    }
    std::mutex mutex;
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
    void open() const;
    void releaseHeld(bool streamed) const;

    std::string path_;
    KernelTraceHeader header_;
    KernelInfo info_;
    std::shared_ptr<TraceRunState> state_;
    // The cursor (mutable: warp() is const in the Kernel interface).
    mutable std::unique_ptr<TraceFileReader> reader_;
    mutable std::shared_ptr<TraceWarpSource> source_;  // the streams' view of the file reader_ reads
    mutable uint64_t released_ = 0;                    // text before this offset handed back (TraceBytes)
    mutable uint64_t nextSection_ = 0;          // block the reader reads next
    mutable uint64_t heldCta_ = UINT64_MAX;     // block whose warps `held_` holds
    mutable ThreadBlockTrace held_;
    mutable std::vector<bool> taken_;
};

} // namespace gpusim
