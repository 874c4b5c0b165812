#include "scheduler/DivergentLoadClassifier.hpp"

namespace gpusim {

DivergentLoadClassifier::DivergentLoadClassifier(unsigned entries, unsigned coherentLines, double assocFactor)
    : table_(entries), coherentLines_(coherentLines), assocFactor_(assocFactor) {}

const DivergentLoadClassifier::Entry* DivergentLoadClassifier::find(uint64_t pc) const {
    for (const auto& e : table_)
        if (e.lru && e.pc == pc) return &e;
    return nullptr;
}

bool DivergentLoadClassifier::record(uint64_t pc, unsigned accesses, unsigned setsTouched) {
    if (!divergent(accesses) || table_.empty()) return false;
    Entry* hit = nullptr;
    Entry* victim = &table_[0];
    for (auto& e : table_) {
        if (e.lru && e.pc == pc) {
            hit = &e;
            break;
        }
        if (e.lru < victim->lru) victim = &e;  // invalid (0) first, then least recently updated
    }
    if (!hit) {
        hit = victim;
        *hit = Entry{pc, 0, 0, 0, 0};
    }
    ++hit->inst;
    hit->acc += accesses;
    hit->sets += setsTouched;
    hit->lru = ++stamp_;
    return true;
}

bool DivergentLoadClassifier::associativitySensitive(uint64_t pc) const {
    const Entry* e = find(pc);
    return e && double(e->acc) > assocFactor_ * double(e->sets);
}

unsigned DivergentLoadClassifier::size() const {
    unsigned n = 0;
    for (const auto& e : table_) n += e.lru != 0;
    return n;
}

void DivergentLoadClassifier::clear() {
    for (auto& e : table_) e = Entry{};
}

} // namespace gpusim
