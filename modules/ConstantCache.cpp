#include "modules/ConstantCache.hpp"

#include <algorithm>

namespace gpusim {

ConstantCache::ConstantCache(const SmConfig& cfg, StatRegistry& stats, const std::string& p)
    : path_({cfg.constBytes, cfg.constLine, cfg.constWays, cfg.constMshrEntries, cfg.constMshrMaxMerge,
             cfg.constMissQueue},
            stats, p, "Lookups", "Constant cache lookups: one per distinct address (or line) of a load"),
      serialise_(cfg.constSerialise),
      loads_(stats.counter(p + "loads", "Constant load instructions (LDC, ULDC with addresses)")),
      serialised_(stats.counter(p + "serialised_cycles",
                                "Cycles the LD/ST unit stayed busy with further accesses of one constant load")) {}

void ConstantCache::accessesOf(const WarpInstruction& inst, std::vector<uint64_t>& out) const {
    out.clear();
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        if (!(inst.activeMask >> lane & 1u)) continue;
        out.push_back(serialise_ == ConstSerialise::Line ? lineOf(inst.addr[lane]) : inst.addr[lane]);
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
}

} // namespace gpusim
