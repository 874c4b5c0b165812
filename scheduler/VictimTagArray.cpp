#include "scheduler/VictimTagArray.hpp"

#include <stdexcept>
#include <string>

namespace gpusim {

VictimTagArray::VictimTagArray(unsigned warps, unsigned entriesPerWarp, unsigned ways, unsigned lineBytes)
    : warps_(warps), ways_(ways), sets_(ways ? entriesPerWarp / ways : 0), lineBytes_(lineBytes) {
    if (ways == 0 || entriesPerWarp == 0 || entriesPerWarp % ways != 0 || lineBytes == 0)
        throw std::invalid_argument("victim tag array: " + std::to_string(entriesPerWarp) +
                                    " entries per warp is not a positive multiple of " +
                                    std::to_string(ways) + " ways");
    entries_.resize(size_t(warps) * entriesPerWarp);
}

VictimTagArray::Entry* VictimTagArray::set(unsigned warp, uint64_t line) {
    const uint64_t s = (line / lineBytes_) % sets_;
    return &entries_[(size_t(warp) * sets_ + s) * ways_];
}

const VictimTagArray::Entry* VictimTagArray::set(unsigned warp, uint64_t line) const {
    return const_cast<VictimTagArray*>(this)->set(warp, line);
}

void VictimTagArray::insert(unsigned warp, uint64_t line) {
    if (warp >= warps_) return;
    Entry* s = set(warp, line);
    Entry* victim = &s[0];
    for (unsigned w = 0; w < ways_; ++w) {
        if (s[w].stamp && s[w].tag == line) return;  // FIFO: already held, keeps its place
        if (s[w].stamp < victim->stamp) victim = &s[w];  // invalid (0) first, then first in
    }
    victim->tag = line;
    victim->stamp = ++stamp_;
}

bool VictimTagArray::probe(unsigned warp, uint64_t line, bool removeOnHit) {
    if (warp >= warps_) return false;
    Entry* s = set(warp, line);
    for (unsigned w = 0; w < ways_; ++w)
        if (s[w].stamp && s[w].tag == line) {
            if (removeOnHit) s[w].stamp = 0;
            return true;
        }
    return false;
}

bool VictimTagArray::contains(unsigned warp, uint64_t line) const {
    if (warp >= warps_) return false;
    const Entry* s = set(warp, line);
    for (unsigned w = 0; w < ways_; ++w)
        if (s[w].stamp && s[w].tag == line) return true;
    return false;
}

void VictimTagArray::invalidate(uint64_t line) {
    for (unsigned warp = 0; warp < warps_; ++warp) {
        Entry* s = set(warp, line);
        for (unsigned w = 0; w < ways_; ++w)
            if (s[w].stamp && s[w].tag == line) s[w].stamp = 0;
    }
}

unsigned VictimTagArray::occupancy(unsigned warp) const {
    unsigned n = 0;
    if (warp >= warps_) return 0;
    const Entry* e = &entries_[size_t(warp) * sets_ * ways_];
    for (unsigned i = 0; i < sets_ * ways_; ++i) n += e[i].stamp != 0;
    return n;
}

void VictimTagArray::clearWarp(unsigned warp) {
    if (warp >= warps_) return;
    Entry* e = &entries_[size_t(warp) * sets_ * ways_];
    for (unsigned i = 0; i < sets_ * ways_; ++i) e[i] = Entry{};
}

void VictimTagArray::clear() {
    for (auto& e : entries_) e = Entry{};
}

} // namespace gpusim
