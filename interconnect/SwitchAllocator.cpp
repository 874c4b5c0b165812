#include "interconnect/SwitchAllocator.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace gpusim {

namespace {

// The first member of the one-word set `w` at or after `from`, wrapping around `n` (n <= 64).
inline int firstFrom64(uint64_t w, unsigned from, unsigned n) {
    if (!w) return -1;
    from %= n;
    const uint64_t head = w & (~uint64_t(0) << from);
    return std::countr_zero(head ? head : w);
}

} // namespace

bool SwitchAllocator::Mask::any() const {
    for (uint64_t w : w_)
        if (w) return true;
    return false;
}

int SwitchAllocator::Mask::firstFrom(unsigned from, unsigned n) const {
    if (n == 0) return -1;
    from %= n;
    const size_t k0 = from >> 6;
    const uint64_t head = w_[k0] & (~uint64_t(0) << (from & 63));
    if (head) return static_cast<int>(k0 * 64 + static_cast<size_t>(std::countr_zero(head)));
    for (size_t k = k0 + 1; k < w_.size(); ++k)
        if (w_[k]) return static_cast<int>(k * 64 + static_cast<size_t>(std::countr_zero(w_[k])));
    for (size_t k = 0; k <= k0; ++k) {
        uint64_t w = w_[k];
        if (k == k0) w &= (from & 63) ? (~uint64_t(0) >> (64 - (from & 63))) : 0;
        if (w) return static_cast<int>(k * 64 + static_cast<size_t>(std::countr_zero(w)));
    }
    return -1;
}

SwitchAllocator::SwitchAllocator(AllocatorKind kind, unsigned inputs, unsigned outputs, unsigned iterations)
    : kind_(kind), in_(inputs), out_(outputs), iterations_(iterations), rows_(inputs, Mask(outputs)),
      cols_(outputs, Mask(inputs)), inLast_(inputs, outputs - 1), outLast_(outputs, inputs - 1),
      scratch_(std::max(inputs, outputs), Mask(std::max(inputs, outputs))), reqIn_(inputs),
      reqOut_(outputs), granted_(inputs), unmatchedIn_(inputs), candidates_(inputs), matched_(inputs) {
    if (inputs == 0 || outputs == 0 || iterations == 0)
        throw std::logic_error("SwitchAllocator: empty router or zero iterations");
    narrow_ = inputs <= 64 && outputs <= 64;
    if (narrow_) {
        rows64_.assign(inputs, 0);
        cols64_.assign(outputs, 0);
        scratch64_.assign(std::max(inputs, outputs), 0);
    }
}

void SwitchAllocator::clearWide() {
    reqIn_.forEach([this](unsigned i) { rows_[i].reset(); });
    reqOut_.forEach([this](unsigned o) { cols_[o].reset(); });
    reqIn_.reset();
    reqOut_.reset();
    any_ = false;
}

void SwitchAllocator::requestWide(unsigned in, unsigned out) {
    rows_[in].set(out);
    cols_[out].set(in);
    reqIn_.set(in);
    reqOut_.set(out);
    any_ = true;
}

unsigned SwitchAllocator::allocate(const std::vector<uint8_t>& requests, std::vector<int>& match) {
    clearRequests();
    for (unsigned i = 0; i < in_; ++i)
        for (unsigned o = 0; o < out_; ++o)
            if (requests[i * out_ + o]) request(i, o);
    return allocate(match);
}

unsigned SwitchAllocator::allocate(std::vector<int>& match) {
    match.assign(in_, -1);
    return allocateMatched(match);
}

unsigned SwitchAllocator::allocateMatched(std::vector<int>& match) {
    if (match.size() != in_) match.assign(in_, -1);
    if (narrow_) {
        matched_.w_[0] = 0;
        if (!any_) return 0;
        if (!conflict_) return uncontested64(match);
        return kind_ == AllocatorKind::Islip ? islip64(match) : separable64(match);
    }
    // The wide iSLIP reads the entries of unmatched inputs: every entry is reset here.
    matched_.reset();
    std::fill(match.begin(), match.end(), -1);
    if (!any_) return 0;
    return kind_ == AllocatorKind::Islip ? islip(match) : separable(match);
}

// Each requesting input asked for one output that nobody else asked for: separable allocation
// picks it and is granted it; iSLIP's first iteration grants and accepts it. Both move the
// input's pointer to the output and the output's to the input.
unsigned SwitchAllocator::uncontested64(std::vector<int>& match) {
    unsigned n = 0;
    forEach64(reqIn64_, [&](unsigned i) {
        const unsigned o = static_cast<unsigned>(std::countr_zero(rows64_[i]));
        match[i] = static_cast<int>(o);
        inLast_[i] = o;
        outLast_[o] = i;
        ++n;
    });
    matched_.w_[0] = reqIn64_;
    return n;
}

unsigned SwitchAllocator::separable64(std::vector<int>& match) {
    // scratch64_[o]: the inputs that picked output o. Only requesting inputs pick.
    forEach64(reqOut64_, [this](unsigned o) { scratch64_[o] = 0; });
    uint64_t picked = 0;
    forEach64(reqIn64_, [&](unsigned i) {
        const int o = firstFrom64(rows64_[i], inLast_[i] + 1, out_);
        scratch64_[static_cast<unsigned>(o)] |= uint64_t(1) << i;
        picked |= uint64_t(1) << o;
    });
    unsigned n = 0;
    uint64_t matched = 0;
    forEach64(picked, [&](unsigned o) {
        const int w = firstFrom64(scratch64_[o], outLast_[o] + 1, in_);
        outLast_[o] = static_cast<unsigned>(w);
        inLast_[static_cast<unsigned>(w)] = o;
        match[static_cast<unsigned>(w)] = static_cast<int>(o);
        matched |= uint64_t(1) << w;
        ++n;
    });
    matched_.w_[0] = matched;
    return n;
}

unsigned SwitchAllocator::islip64(std::vector<int>& match) {
    uint64_t unmatchedIn = ~uint64_t(0), outMatched = 0;
    unsigned n = 0;
    for (unsigned it = 0; it < iterations_; ++it) {
        // Grant: every unmatched requested output picks one unmatched requesting input.
        // scratch64_[i]: the outputs that granted input i.
        uint64_t granted = 0;
        forEach64(reqOut64_ & ~outMatched, [&](unsigned o) {
            const int i = firstFrom64(cols64_[o] & unmatchedIn, outLast_[o] + 1, in_);
            if (i < 0) return;
            const uint64_t bit = uint64_t(1) << i;
            if (!(granted & bit)) scratch64_[static_cast<unsigned>(i)] = 0;
            scratch64_[static_cast<unsigned>(i)] |= uint64_t(1) << o;
            granted |= bit;
        });
        if (!granted) break;
        // Accept: every granted input (all unmatched) picks one of its grants.
        forEach64(granted, [&](unsigned i) {
            const int o = firstFrom64(scratch64_[i], inLast_[i] + 1, out_);
            match[i] = o;
            outMatched |= uint64_t(1) << o;
            unmatchedIn &= ~(uint64_t(1) << i);
            ++n;
            if (it == 0) {
                inLast_[i] = static_cast<unsigned>(o);
                outLast_[static_cast<unsigned>(o)] = i;
            }
        });
    }
    matched_.w_[0] = reqIn64_ & ~unmatchedIn;
    return n;
}

unsigned SwitchAllocator::separable(std::vector<int>& match) {
    // scratch_[o]: the inputs that picked output o.
    for (unsigned o = 0; o < out_; ++o) scratch_[o].reset();
    for (unsigned i = 0; i < in_; ++i) {
        const int o = rows_[i].firstFrom(inLast_[i] + 1, out_);
        if (o >= 0) scratch_[static_cast<unsigned>(o)].set(i);
    }
    unsigned n = 0;
    for (unsigned o = 0; o < out_; ++o) {
        const int w = scratch_[o].firstFrom(outLast_[o] + 1, in_);
        if (w < 0) continue;
        outLast_[o] = static_cast<unsigned>(w);
        inLast_[static_cast<unsigned>(w)] = o;
        match[static_cast<unsigned>(w)] = static_cast<int>(o);
        matched_.set(static_cast<unsigned>(w));
        ++n;
    }
    return n;
}

unsigned SwitchAllocator::islip(std::vector<int>& match) {
    std::fill(unmatchedIn_.w_.begin(), unmatchedIn_.w_.end(), ~uint64_t(0));
    std::vector<bool>& outMatched = outMatched_;
    outMatched.assign(out_, false);
    unsigned n = 0;
    for (unsigned it = 0; it < iterations_; ++it) {
        // Grant: every unmatched output picks one unmatched requesting input. scratch_[i]:
        // the outputs that granted input i. (Outputs without a request grant nothing.)
        granted_.forEach([this](unsigned i) { scratch_[i].reset(); });
        granted_.reset();
        bool any = false;
        reqOut_.forEach([&](unsigned o) {
            if (outMatched[o]) return;
            for (size_t k = 0; k < candidates_.w_.size(); ++k) candidates_.w_[k] = cols_[o].w_[k] & unmatchedIn_.w_[k];
            const int i = candidates_.firstFrom(outLast_[o] + 1, in_);
            if (i < 0) return;
            scratch_[static_cast<unsigned>(i)].set(o);
            granted_.set(static_cast<unsigned>(i));
            any = true;
        });
        if (!any) break;
        // Accept: every input that was granted picks one of its grants.
        granted_.forEach([&](unsigned i) {
            if (match[i] >= 0) return;
            const int o = scratch_[i].firstFrom(inLast_[i] + 1, out_);
            if (o < 0) return;
            match[i] = o;
            matched_.set(i);
            outMatched[static_cast<unsigned>(o)] = true;
            unmatchedIn_.w_[i >> 6] &= ~(uint64_t(1) << (i & 63));
            ++n;
            if (it == 0) {
                inLast_[i] = static_cast<unsigned>(o);
                outLast_[static_cast<unsigned>(o)] = i;
            }
        });
    }
    return n;
}

} // namespace gpusim
