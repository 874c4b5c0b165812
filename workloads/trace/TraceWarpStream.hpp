#pragma once
// One warp of a trace kernel as the SM fetches it, with host memory bounded by a window rather
// than by the warp's length (real kernels run 10^5 to 10^6 instructions per warp).
//
// The kernel's reader (TraceKernel.hpp) reads a CTA's section when the CTA is placed: it parses
// and checks every line and counts the tally then, but keeps only each warp's first kHeld
// instructions and where the others are (WarpRest). The stream serves those, then reads the
// rest from the file a window at a time (at most kWindow instructions or about kWindowBytes of
// packed instructions, whichever comes first), parsing each line again: the price of the
// bounded memory is a second parse of the instructions past the first kHeld. Lines are read at
// their byte offset (TraceBytes: the file itself, or the decoded copy of an .xz file) into a
// buffer of the calling thread, so a resident warp costs its window and a few words.
//
// The rules of a whole read hold: an EXIT that is not the warp's last instruction runs as ALU,
// and a warp whose last instruction is not EXIT gets one appended at the next PC with the
// warp's existing lanes. A line that fails now (the file changed since its section was read,
// or a read error) throws InputError "FILE:LINE: reason" from next(), the line counted as in
// the file, and is kept in the run state for Workload::rethrowDeferredInputError. next() may run
// on any thread (SMs step in parallel): a stream touches only itself and what it shares
// read-only.
#include <cstddef>
#include <cstdint>
#include <memory>

#include "workloads/Kernel.hpp"
#include "workloads/trace/InstructionLine.hpp"
#include "workloads/trace/PackedWarp.hpp"
#include "workloads/trace/TraceBytes.hpp"
#include "workloads/trace/TraceFileReader.hpp"

namespace gpusim {

struct TraceRunState;

// What the streams of one kernel file share, read-only.
struct TraceWarpSource {
    std::shared_ptr<TraceBytes> bytes;
    TraceLineFormat format;
    TraceDecoding decoding;
    std::shared_ptr<TraceRunState> state;  // where an error met in next() is kept
};

class TraceWarpStream final : public WarpStream {
public:
    static constexpr uint64_t kHeld = 64;        // instructions per warp kept when the section is read
    static constexpr size_t kWindow = 256;       // instructions per later window, at most
    static constexpr size_t kWindowBytes = 8192;  // packed bytes per later window, about

    // `first` and `rest` as readThreadBlock left them for this warp.
    TraceWarpStream(std::shared_ptr<const TraceWarpSource> source, PackedWarp first, const WarpRest& rest);
    bool next(WarpInstruction& out) override;
    // Host bytes the stream holds now (its window's capacity).
    size_t bytes() const { return window_.bytes(); }

private:
    void refill();
    [[noreturn]] void fail(uint64_t line, const std::string& reason) const;

    std::shared_ptr<const TraceWarpSource> source_;
    PackedWarp window_;
    size_t pos_ = 0;
    WarpRest rest_;          // what is still in the file; offset and line advance as it is read
    uint64_t restBegin_ = 0;  // offset where the file part started (released when read to the end)
    size_t readHint_ = 16384;  // bytes the next window's first read asks for (TraceWarpStream.cpp)
    uint64_t lastPc_ = 0;
    bool lastIsExit_ = false;
};

} // namespace gpusim
