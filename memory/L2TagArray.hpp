#pragma once
// The tag state of one L2 slice: sets x ways of {line address, valid and dirty sectors}, true
// LRU. Models: which lines are resident, which of their sectors hold data and which are dirty,
// and which line a miss evicts. Unsectored (one sector per line, the default) a resident line is
// wholly valid. Leaves out: data (the model never carries values), byte masks within a sector,
// and the set-index function (the caller picks the set, so the slice can index with the
// partition-local address while the tags keep the full global line address).
#include <cstdint>
#include <optional>
#include <vector>

namespace gpusim {

class L2TagArray {
public:
    // A line leaving the array (or the slot a fill would take, see victim()).
    struct Victim {
        bool valid = false;   // false: the slot was empty, nothing leaves
        bool dirty = false;   // true: the line must be written back
        uint64_t line = 0;    // line address (only meaningful when valid)
        uint64_t dirtySectors = 0;  // which sectors (bit i: sector i of the line)
    };

    L2TagArray(unsigned sets, unsigned ways, unsigned sectorsPerLine = 1);

    unsigned sets() const { return sets_; }
    unsigned ways() const { return ways_; }

    // The way holding `line` in `set`, if resident. Does not change LRU order.
    std::optional<unsigned> find(unsigned set, uint64_t line) const;
    // Makes `way` the most recently used of its set.
    void touch(unsigned set, unsigned way);
    bool dirty(unsigned set, unsigned way) const;
    // Sector masks of a resident line: which hold data; adding a dirty sector makes it valid.
    uint64_t validSectors(unsigned set, unsigned way) const;
    void addSectors(unsigned set, unsigned way, uint64_t valid, uint64_t dirty);
    uint64_t fullMask() const { return full_; }

    // What install() would evict from `set`: the lowest-numbered empty way, else the least
    // recently used way. Lets the caller check for write-back room before committing.
    Victim victim(unsigned set) const;
    // Puts `line` into the victim slot as the most recently used way; returns what it displaced.
    // `line` must not be resident already.
    Victim install(unsigned set, uint64_t line, bool dirty);  // every sector valid (and dirty)
    // The same with only some sectors valid and dirty (a sectored fill or write).
    Victim install(unsigned set, uint64_t line, uint64_t validSectors, uint64_t dirtySectors);

    // Resident lines of a set, least recently used first (tests and state dumps).
    std::vector<uint64_t> lruOrder(unsigned set) const;

private:
    struct Way {
        bool valid = false;
        uint64_t line = 0;
        uint64_t validSectors = 0, dirtySectors = 0;
        uint64_t lastUse = 0;  // a per-array use counter; larger is more recent
    };
    unsigned victimWay(unsigned set) const;
    static Victim leaving(const Way& x);
    Way& at(unsigned set, unsigned way) { return slots_[size_t(set) * ways_ + way]; }
    const Way& at(unsigned set, unsigned way) const { return slots_[size_t(set) * ways_ + way]; }

    unsigned sets_;
    unsigned ways_;
    uint64_t full_;  // every sector of a line
    std::vector<Way> slots_;
    // A counter rather than a timestamp: two uses in one cycle still get a strict order, so
    // replacement never depends on anything but the order of calls.
    uint64_t useClock_ = 0;
};

// Inline: every L2 lookup and fill asks it (issue 19).
inline std::optional<unsigned> L2TagArray::find(unsigned set, uint64_t line) const {
    // The line first: it rules out almost every way, the valid bit is for the rare match of an
    // invalidated way's stale line (issue 19: half the comparisons of a lookup).
    const Way* const ways = &slots_[size_t(set) * ways_];
    auto scan = [&](unsigned n) -> std::optional<unsigned> {
#pragma GCC unroll 16
        for (unsigned w = 0; w < n; ++w)
            if (ways[w].line == line && ways[w].valid) return w;
        return std::nullopt;
    };
    // The shipped platforms' associativities with a constant bound, which g++ unrolls (as the
    // L1D's lookup, issue 19).
    switch (ways_) {
    case 8: return scan(8);
    case 16: return scan(16);
    default: return scan(ways_);
    }
}

} // namespace gpusim
