#pragma once
// Switch allocation of one router for one (speed-up) slot: given which inputs hold a flit that
// may go to which outputs, a matching with at most one flit per input and per output.
//  - round-robin: separable input-first; each input picks one requested output (round-robin
//    after the output it last won), then each output grants one of the inputs that picked it
//    (round-robin after its last winner). An input's pointer moves only when it is granted.
//  - iSLIP (McKeown 1999): output-first request/grant/accept, repeated `iterations` times over
//    the still-unmatched ports; grant and accept pointers move one past the partner, and only
//    for matches made in the first iteration (what desynchronises the pointers and gives
//    iSLIP its ~100% throughput under uniform traffic with virtual output queues).
// With one request per input (a FIFO input queue) both reduce to per-output round-robin.
// Deterministic: no randomness, ties by pointer position only. Requests are kept as bit masks
// (a row per input, a column per output), so a cycle costs O(ports x ports / 64). A router of at
// most 64 inputs and 64 outputs (every router of the shipped platforms) keeps each mask in one
// machine word: the same algorithm without the loops over words (about half the cost per cycle).
#include <bit>
#include <cstdint>
#include <vector>

#include "interconnect/NocParams.hpp"

namespace gpusim {

class SwitchAllocator {
public:
    SwitchAllocator(AllocatorKind kind, unsigned inputs, unsigned outputs, unsigned iterations);

    // Inline on one-word masks: called for every requesting input VC every cycle (issue 19).
    void clearRequests() {
        if (!any_) return;
        if (!narrow_) return clearWide();
        forEach64(reqIn64_, [this](unsigned i) { rows64_[i] = 0; });
        forEach64(reqOut64_, [this](unsigned o) { cols64_[o] = 0; });
        reqIn64_ = reqOut64_ = 0;
        any_ = conflict_ = false;
    }
    void request(unsigned in, unsigned out) {
        if (!narrow_) return requestWide(in, out);
        conflict_ |= (rows64_[in] | cols64_[out]) != 0;
        rows64_[in] |= uint64_t(1) << out;
        cols64_[out] |= uint64_t(1) << in;
        reqIn64_ |= uint64_t(1) << in;
        reqOut64_ |= uint64_t(1) << out;
        any_ = true;
    }
    bool anyRequest() const { return any_; }
    // match[i] is set to the output matched to input i, or -1. Returns the number of matches.
    unsigned allocate(std::vector<int>& match);
    // The same matching, but on at most 64 ports only the matched inputs' entries are written
    // (the others keep what they held): for a caller that reads match[i] only for the inputs in
    // matched() (the router; resetting every entry each cycle cost more than the matching).
    unsigned allocateMatched(std::vector<int>& match);
    // Convenience for tests: requests[i * outputs + o] != 0 means input i may send to output o.
    unsigned allocate(const std::vector<uint8_t>& requests, std::vector<int>& match);

    unsigned inputs() const { return in_; }
    unsigned outputs() const { return out_; }

    // A set of port indices.
    class Mask {
    public:
        explicit Mask(unsigned n = 0) : w_((n + 63) / 64, 0) {}
        void set(unsigned i) { w_[i >> 6] |= uint64_t(1) << (i & 63); }
        void clear(unsigned i) { w_[i >> 6] &= ~(uint64_t(1) << (i & 63)); }
        void reset() { std::fill(w_.begin(), w_.end(), 0); }
        bool test(unsigned i) const { return w_[i >> 6] >> (i & 63) & 1; }
        bool any() const;
        // The first member at or after `from`, wrapping around `n`; -1 if empty.
        int firstFrom(unsigned from, unsigned n) const;
        // f(i) for each member, ascending. f may remove members (each word is read once, before
        // its members are visited), not add them.
        template <class F>
        void forEach(F&& f) const {
            for (size_t k = 0; k < w_.size(); ++k)
                for (uint64_t b = w_[k]; b; b &= b - 1) f(static_cast<unsigned>(k * 64 + unsigned(__builtin_ctzll(b))));
        }
        // f(i) for each member not in `except` (a mask of the same size), ascending, each word
        // read once as in forEach.
        template <class F>
        void forEachExcept(const Mask& except, F&& f) const {
            for (size_t k = 0; k < w_.size(); ++k)
                for (uint64_t b = w_[k] & ~except.w_[k]; b; b &= b - 1)
                    f(static_cast<unsigned>(k * 64 + unsigned(__builtin_ctzll(b))));
        }
        // Removes the members of `other` (a mask of the same size) from this set and empties `other`.
        void moveOut(Mask& other) {
            for (size_t k = 0; k < w_.size(); ++k) {
                w_[k] &= ~other.w_[k];
                other.w_[k] = 0;
            }
        }
        std::vector<uint64_t> w_;
    };
    // The inputs matched by the last allocate() or allocateMatched().
    const Mask& matched() const { return matched_; }

private:
    // f(i) for each member of the one-word set `w`, ascending.
    template <class F>
    static void forEach64(uint64_t w, F&& f) {
        for (; w; w &= w - 1) f(static_cast<unsigned>(std::countr_zero(w)));
    }
    void clearWide();
    void requestWide(unsigned in, unsigned out);
    unsigned separable(std::vector<int>& match);
    unsigned islip(std::vector<int>& match);
    // The same two algorithms on one-word masks (narrow_).
    unsigned separable64(std::vector<int>& match);
    unsigned islip64(std::vector<int>& match);

    AllocatorKind kind_;
    unsigned in_, out_, iterations_;
    bool any_ = false;
    std::vector<Mask> rows_;     // per input: requested outputs
    std::vector<Mask> cols_;     // per output: requesting inputs
    std::vector<unsigned> inLast_, outLast_;  // last partner: priority starts one past it
    std::vector<Mask> scratch_;  // per input (grants) or per output (picks)
    // Inputs and outputs with a request, inputs granted in the last iSLIP iteration: the loops
    // visit only those (in ascending order, as a full scan would) and clear only what was set.
    Mask reqIn_, reqOut_, granted_;
    Mask unmatchedIn_, candidates_;
    Mask matched_;
    std::vector<bool> outMatched_;
    // One-word masks, used instead of the ones above when both sides have at most 64 ports.
    bool narrow_ = false;
    std::vector<uint64_t> rows64_, cols64_, scratch64_;
    uint64_t reqIn64_ = 0, reqOut64_ = 0;
    // Some input requested two outputs or some output was requested by two inputs. Without, every
    // request is matched, by either algorithm, in its first iteration: allocate() sets the
    // matching and the pointers directly (most cycles of a lightly loaded subnet).
    bool conflict_ = false;
    unsigned uncontested64(std::vector<int>& match);
};

} // namespace gpusim
