#pragma once
// LPC: CWLP's PC-based locality-protected replacement (Zhang et al., FITEE 2018, section 5.1 and
// Algorithm 1). Each line keeps the PC of its last access (W_PC) and a reuse bit; the locality
// prediction logic (LPL) keeps one bit per line, the reuse bit of the line's previous access.
// On a read hit by `pc`:
//   r_use = (pc == W_PC); W_PC = pc
//   prediction = LPL AND r_use   (both the previous and this access showed same-PC reuse)
//   LPL = r_use
// The prioritised cache allocation unit (PCAU) ORs the prediction with the time-stamp bit
// (0 only for the LRU line): a line is evicted only if it is the least recently used among the
// lines not predicted to be reused. If every candidate is predicted, plain LRU decides.
// Choices where the paper is silent or contradicts itself (docs/schedulers.md, "lpc and cwlp"):
// - LPL update: the text ("the reuse bit in the block will replace the reuse bit of this entry
//   and the AND result will be used by PCAU") is followed; Algorithm 1 line 19 stores the AND
//   result in the LPL instead, which makes 0 absorbing (nothing could ever be protected).
// - A new line (reservation or allocate-on-fill install) starts with W_PC = the missing load's
//   PC, r_use = 0, LPL = 0, prediction = 0 (Algorithm 1 line 3 initialises r_use to 0).
// - Only read hits update the bits ("if STATUS=HIT"): merges into an in-flight miss do not;
//   stores write-evict and never reach a valid line's bits.
// - "The LRU line" among several unpredicted lines is the one with the oldest stamp among them.
// Time stamps are LRU's (touched on hits, reservations, fills), hence the inheritance.
#include <vector>

#include "common/Stats.hpp"
#include "modules/LruReplacement.hpp"

namespace gpusim {

class LpcReplacement : public LruReplacement {
public:
    LpcReplacement(unsigned sets, unsigned ways, StatRegistry& stats, const std::string& prefix);
    std::string name() const override { return "lpc"; }
    bool onHit(unsigned set, unsigned way, uint64_t pc) override;
    void onAllocate(unsigned set, unsigned way, uint64_t pc) override;
    unsigned victim(unsigned set, uint64_t candidates) override;

    // For tests and dumps.
    bool predicted(unsigned set, unsigned way) const { return lines_[idx(set, way)].predicted; }
    bool reuse(unsigned set, unsigned way) const { return lines_[idx(set, way)].reuse; }
    bool lpl(unsigned set, unsigned way) const { return lines_[idx(set, way)].lpl; }

private:
    struct LineBits {
        uint64_t pc = 0;         // W_PC
        bool reuse = false;      // r_use of the last access
        bool lpl = false;        // LPL entry: r_use of the access before
        bool predicted = false;  // PCAU input: LPL AND r_use at the last access
    };
    std::vector<LineBits> lines_;
    Counter &reuseHits_, &predictedHits_, &protectedVictims_, &allProtected_;
};

} // namespace gpusim
