#include "workloads/trace/TraceKernel.hpp"

#include <algorithm>
#include <utility>

#include "common/SimError.hpp"
#include "workloads/trace/TraceWarpStream.hpp"

namespace gpusim {

TraceKernel::TraceKernel(std::string path, const KernelTraceHeader& header, std::shared_ptr<TraceRunState> state)
    : path_(std::move(path)), header_(header), state_(std::move(state)) {
    info_.name = header.kernelName;
    info_.grid = header.grid;
    info_.block = header.block;
    info_.regsPerThread = static_cast<unsigned>(header.nregs);
    info_.smemPerCta = static_cast<unsigned>(header.shmem);
    info_.stream = header.cudaStreamId;
}

void TraceKernel::open() const {
    auto lines = LineReader::openFile(path_);
    std::shared_ptr<TraceBytes> bytes;
    if (lines->compressed()) {
        bytes = TraceBytes::decodedCopy(path_);
        lines->copyDecodedTo([bytes](std::string_view b) { bytes->append(b); });
    } else {
        bytes = TraceBytes::openPlain(path_);
    }
    reader_ = std::make_unique<TraceFileReader>(std::move(lines));
    source_ = std::make_shared<TraceWarpSource>(
        TraceWarpSource{std::move(bytes), reader_->lineFormat(), reader_->decoding(), state_});
    nextSection_ = 0;
    released_ = 0;
}

// Hands back the text of the section just read that no stream reads again: all but the warps'
// rests (each stream hands back its own when it has read it), or all of it when the section was
// only read on the way to a later one (`streamed` false).
void TraceKernel::releaseHeld(bool streamed) const {
    std::vector<const WarpRest*> rests;
    for (const WarpRest& r : held_.rest)
        if (streamed && r.remaining > 0) rests.push_back(&r);
    std::sort(rests.begin(), rests.end(), [](const WarpRest* a, const WarpRest* b) { return a->offset < b->offset; });
    for (const WarpRest* r : rests) {
        source_->bytes->release(released_, r->offset);
        released_ = r->end;
    }
    source_->bytes->release(released_, held_.end);
    released_ = held_.end;
}

void TraceKernel::load(uint64_t ctaId) const {
    if (!reader_ || ctaId < nextSection_) open();
    heldCta_ = UINT64_MAX;
    while (nextSection_ <= ctaId) {
        reader_->readThreadBlock(nextSection_++, held_, state_->tally, TraceWarpStream::kHeld);
        releaseHeld(nextSection_ == ctaId + 1);
    }
    heldCta_ = ctaId;
    taken_.assign(held_.warps.size(), false);
    if (nextSection_ == info_.ctas()) {
        reader_->expectEnd();
        reader_.reset();
    }
}

std::unique_ptr<WarpStream> TraceKernel::warp(uint64_t ctaId, unsigned warpInCta) const {
    if (ctaId >= info_.ctas() || warpInCta >= info_.warpsPerCta())
        throw ModelError("trace kernel " + info_.name + ": no warp " + std::to_string(warpInCta) + " in CTA " +
                         std::to_string(ctaId));
    try {
        if (heldCta_ != ctaId || taken_[warpInCta]) load(ctaId);
    } catch (const InputError& e) {
        state_->defer(e.what());
        reader_.reset();  // a later request starts over rather than resuming mid-section
        heldCta_ = UINT64_MAX;
        throw;
    }
    taken_[warpInCta] = true;
    return std::make_unique<TraceWarpStream>(source_, std::move(held_.warps[warpInCta]), held_.rest[warpInCta]);
}

} // namespace gpusim
