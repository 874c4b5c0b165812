#include "modules/LpcReplacement.hpp"

namespace gpusim {

LpcReplacement::LpcReplacement(unsigned sets, unsigned ways, StatRegistry& stats, const std::string& p)
    : LruReplacement(sets, ways), lines_(size_t(sets) * ways),
      reuseHits_(stats.counter(p + "lpc.reuse_hits",
                               "LPC: read hits by the same PC as the line's last access")),
      predictedHits_(stats.counter(p + "lpc.predicted_hits",
                                   "LPC: read hits with same-PC reuse on this and the previous access "
                                   "(prediction 1, the line is protected)")),
      protectedVictims_(stats.counter(p + "lpc.protected_victims",
                                      "LPC: replacements where the LRU line was protected and the least "
                                      "recently used unprotected line went instead")),
      allProtected_(stats.counter(p + "lpc.all_protected_victims",
                                  "LPC: replacements where every candidate was protected (LRU decided)")) {}

bool LpcReplacement::onHit(unsigned set, unsigned way, uint64_t pc) {
    LruReplacement::onHit(set, way, pc);
    LineBits& l = lines_[idx(set, way)];
    l.reuse = l.pc == pc;
    l.pc = pc;
    l.predicted = l.lpl && l.reuse;
    l.lpl = l.reuse;
    if (l.reuse) reuseHits_.inc();
    if (l.predicted) predictedHits_.inc();
    return l.predicted;
}

void LpcReplacement::onAllocate(unsigned set, unsigned way, uint64_t pc) {
    LruReplacement::onAllocate(set, way, pc);
    lines_[idx(set, way)] = LineBits{pc, false, false, false};
}

unsigned LpcReplacement::victim(unsigned set, uint64_t candidates) {
    uint64_t unprotected = 0;
    for (unsigned w = 0; w < ways_; ++w)
        if ((candidates >> w & 1u) && !lines_[idx(set, w)].predicted) unprotected |= uint64_t(1) << w;
    const unsigned lru = lruWay(set, candidates);
    if (!unprotected) {
        allProtected_.inc();
        return lru;
    }
    const unsigned v = lruWay(set, unprotected);
    if (v != lru) protectedVictims_.inc();
    return v;
}

} // namespace gpusim
