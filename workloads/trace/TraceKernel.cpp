#include "workloads/trace/TraceKernel.hpp"

#include <utility>

#include "common/SimError.hpp"

namespace gpusim {

namespace {

class PackedWarpStream final : public WarpStream {
public:
    explicit PackedWarpStream(PackedWarp warp) : warp_(std::move(warp)) {}
    bool next(WarpInstruction& out) override { return warp_.read(pos_, out); }

private:
    PackedWarp warp_;
    size_t pos_ = 0;
};

} // namespace

TraceKernel::TraceKernel(std::string path, const KernelTraceHeader& header, std::shared_ptr<TraceRunState> state)
    : path_(std::move(path)), header_(header), state_(std::move(state)) {
    info_.name = header.kernelName;
    info_.grid = header.grid;
    info_.block = header.block;
    info_.regsPerThread = static_cast<unsigned>(header.nregs);
    info_.smemPerCta = static_cast<unsigned>(header.shmem);
    info_.stream = header.cudaStreamId;
}

void TraceKernel::load(uint64_t ctaId) const {
    if (!reader_ || ctaId < nextSection_) {
        reader_ = std::make_unique<TraceFileReader>(LineReader::openFile(path_));
        nextSection_ = 0;
    }
    heldCta_ = UINT64_MAX;
    while (nextSection_ <= ctaId) reader_->readThreadBlock(nextSection_++, held_, state_->tally);
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
        if (state_->deferredError.empty()) state_->deferredError = e.what();
        reader_.reset();  // a later request starts over rather than resuming mid-section
        heldCta_ = UINT64_MAX;
        throw;
    }
    taken_[warpInCta] = true;
    return std::make_unique<PackedWarpStream>(std::move(held_.warps[warpInCta]));
}

} // namespace gpusim
