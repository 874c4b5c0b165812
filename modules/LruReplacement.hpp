#pragma once
// Least-recently-used replacement: every touch (read hit, reservation or install, fill of a
// reserved line) gives the line a new stamp from one counter per cache; the victim is the
// candidate with the smallest stamp. Stamps are unique among valid lines, so there are no ties.
// This is the L1D's original hard-coded LRU moved behind the plug-in interface: the same touches
// in the same order, hence the same victims and statistics.
#include <vector>

#include "modules/L1Replacement.hpp"

namespace gpusim {

class LruReplacement : public L1Replacement {
public:
    LruReplacement(unsigned sets, unsigned ways) : ways_(ways), stamp_(size_t(sets) * ways, 0) {}
    std::string name() const override { return "lru"; }
    bool onHit(unsigned set, unsigned way, uint64_t pc) override;
    void onAllocate(unsigned set, unsigned way, uint64_t pc) override { touch(set, way); }
    void onFill(unsigned set, unsigned way) override { touch(set, way); }
    unsigned victim(unsigned set, uint64_t candidates) override;

    // The LRU choice among `candidates` (LPC falls back to it and compares with it).
    unsigned lruWay(unsigned set, uint64_t candidates) const;
    uint64_t stampOf(unsigned set, unsigned way) const { return stamp_[idx(set, way)]; }

protected:
    size_t idx(unsigned set, unsigned way) const { return size_t(set) * ways_ + way; }
    void touch(unsigned set, unsigned way) { stamp_[idx(set, way)] = ++now_; }
    unsigned ways_;

private:
    std::vector<uint64_t> stamp_;
    uint64_t now_ = 0;
};

} // namespace gpusim
