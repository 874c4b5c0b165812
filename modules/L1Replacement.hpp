#pragma once
// The L1D's replacement decision as a plug-in (DESIGN.md section 4: "pluggable replacement (LRU;
// CWLP's LPC)"). L1DCache keeps the tags, states, MSHRs and the choice of a free (invalid) way;
// the plug-in keeps whatever per-line history it needs and, when every way of a set holds a line,
// says which of the replaceable ones goes. Lines are named by (set, way).
// A scheduler declares the replacement it needs (SchedulerPolicy::l1Replacement(): CWLP's Lpc);
// otherwise the configuration key l1d.replacement chooses (SmCore decides, see there).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "common/UnitVariants.hpp"

namespace gpusim {

class StatRegistry;

class L1Replacement {
public:
    virtual ~L1Replacement() = default;
    virtual std::string name() const = 0;

    // A read hit on a valid line by the load at `pc`. Returns the plug-in's locality prediction
    // for this access (LPC's PCAU output: the line showed same-PC reuse on this and its previous
    // access); plug-ins without one return false. The L1D passes it to the scheduler's hook.
    virtual bool onHit(unsigned set, unsigned way, uint64_t pc) = 0;
    // A new line takes the way: reserved at the miss (allocate-on-miss) or installed at the fill
    // (allocate-on-fill). `pc` is the load that missed.
    virtual void onAllocate(unsigned set, unsigned way, uint64_t pc) = 0;
    // A reserved line (allocate-on-miss) became valid: its data arrived.
    virtual void onFill(unsigned set, unsigned way) = 0;
    // The way to replace among `candidates` (bit w set: way w holds a valid line that may be
    // replaced; never empty). Called only when the set has no invalid way.
    virtual unsigned victim(unsigned set, uint64_t candidates) = 0;
};

// Builds the plug-in `kind` for a sets x ways cache; statistics of the plug-in go under `prefix`
// ("sm3.l1d.").
std::unique_ptr<L1Replacement> makeL1Replacement(L1ReplacementKind kind, unsigned sets, unsigned ways,
                                                 StatRegistry& stats, const std::string& prefix);
// The kind l1d.replacement names ("lru", "lpc"); throws ModelError for an unknown name.
L1ReplacementKind parseL1Replacement(const std::string& name);
// The names parseL1Replacement() knows, in the order the schema lists them.
const std::vector<std::string>& l1ReplacementNames();

} // namespace gpusim
