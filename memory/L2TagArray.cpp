#include "memory/L2TagArray.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpusim {

L2TagArray::L2TagArray(unsigned sets, unsigned ways, unsigned sectorsPerLine)
    : sets_(sets),
      ways_(ways),
      full_(sectorsPerLine >= 64 ? ~uint64_t(0) : (uint64_t(1) << sectorsPerLine) - 1),
      slots_(size_t(sets) * ways) {
    if (sets == 0 || ways == 0) throw std::logic_error("L2TagArray needs at least one set and way");
    if (sectorsPerLine == 0 || sectorsPerLine > 64) throw std::logic_error("L2TagArray needs 1 to 64 sectors per line");
}

void L2TagArray::touch(unsigned set, unsigned way) { at(set, way).lastUse = ++useClock_; }

bool L2TagArray::dirty(unsigned set, unsigned way) const { return at(set, way).dirtySectors != 0; }

uint64_t L2TagArray::validSectors(unsigned set, unsigned way) const { return at(set, way).validSectors; }

void L2TagArray::addSectors(unsigned set, unsigned way, uint64_t valid, uint64_t dirty) {
    Way& x = at(set, way);
    x.validSectors |= (valid | dirty) & full_;
    x.dirtySectors |= dirty & full_;
}

unsigned L2TagArray::victimWay(unsigned set) const {
    // The best use so far in a register and the set's ways through one pointer, unrolled for the
    // shipped associativities (as find()): each fill and write-validate asks this (issue 19).
    const Way* const ways = &slots_[size_t(set) * ways_];
    auto scan = [&](unsigned n) -> unsigned {
        unsigned best = 0;
        uint64_t bestUse = UINT64_MAX;
#pragma GCC unroll 16
        for (unsigned w = 0; w < n; ++w) {
            if (!ways[w].valid) return w;
            if (ways[w].lastUse < bestUse) {
                bestUse = ways[w].lastUse;
                best = w;
            }
        }
        return best;
    };
    switch (ways_) {
    case 8: return scan(8);
    case 16: return scan(16);
    default: return scan(ways_);
    }
}

L2TagArray::Victim L2TagArray::leaving(const Way& x) {
    return {x.valid, x.valid && x.dirtySectors != 0, x.line, x.valid ? x.dirtySectors : 0};
}

L2TagArray::Victim L2TagArray::victim(unsigned set) const { return leaving(at(set, victimWay(set))); }

L2TagArray::Victim L2TagArray::install(unsigned set, uint64_t line, bool dirty) {
    return install(set, line, full_, dirty ? full_ : 0);
}

L2TagArray::Victim L2TagArray::install(unsigned set, uint64_t line, uint64_t valid, uint64_t dirty) {
    if (find(set, line)) throw std::logic_error("L2TagArray: line installed twice");
    const unsigned w = victimWay(set);
    Way& x = at(set, w);
    const Victim out = leaving(x);
    x.valid = true;
    x.line = line;
    x.validSectors = (valid | dirty) & full_;
    x.dirtySectors = dirty & full_;
    x.lastUse = ++useClock_;
    return out;
}

std::vector<uint64_t> L2TagArray::lruOrder(unsigned set) const {
    std::vector<const Way*> resident;
    for (unsigned w = 0; w < ways_; ++w)
        if (at(set, w).valid) resident.push_back(&at(set, w));
    std::sort(resident.begin(), resident.end(),
              [](const Way* a, const Way* b) { return a->lastUse < b->lastUse; });
    std::vector<uint64_t> out;
    for (const Way* x : resident) out.push_back(x->line);
    return out;
}

} // namespace gpusim
