#include "memory/L2TagArray.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpusim {

L2TagArray::L2TagArray(unsigned sets, unsigned ways)
    : sets_(sets), ways_(ways), slots_(size_t(sets) * ways) {
    if (sets == 0 || ways == 0) throw std::logic_error("L2TagArray needs at least one set and way");
}

std::optional<unsigned> L2TagArray::find(unsigned set, uint64_t line) const {
    for (unsigned w = 0; w < ways_; ++w) {
        const Way& x = at(set, w);
        if (x.valid && x.line == line) return w;
    }
    return std::nullopt;
}

void L2TagArray::touch(unsigned set, unsigned way) { at(set, way).lastUse = ++useClock_; }

void L2TagArray::markDirty(unsigned set, unsigned way) { at(set, way).dirty = true; }

bool L2TagArray::dirty(unsigned set, unsigned way) const { return at(set, way).dirty; }

unsigned L2TagArray::victimWay(unsigned set) const {
    unsigned best = 0;
    for (unsigned w = 0; w < ways_; ++w) {
        const Way& x = at(set, w);
        if (!x.valid) return w;
        if (x.lastUse < at(set, best).lastUse) best = w;
    }
    return best;
}

L2TagArray::Victim L2TagArray::victim(unsigned set) const {
    const Way& x = at(set, victimWay(set));
    return {x.valid, x.valid && x.dirty, x.line};
}

L2TagArray::Victim L2TagArray::install(unsigned set, uint64_t line, bool dirty) {
    if (find(set, line)) throw std::logic_error("L2TagArray: line installed twice");
    const unsigned w = victimWay(set);
    Way& x = at(set, w);
    const Victim out{x.valid, x.valid && x.dirty, x.line};
    x.valid = true;
    x.dirty = dirty;
    x.line = line;
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
