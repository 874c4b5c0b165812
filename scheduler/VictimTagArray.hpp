#pragma once
// The CCWS paper's victim tag array (its Section 3.2): per warp, a small set-associative array of
// L1D line tags (no data). When the L1D evicts a line, its tag goes to the part of the array of
// the warp that brought the line in; when a warp misses in the L1D, its part is probed, and a hit
// means the miss "may have been a hit if that wavefront had more exclusive access to the L1D".
// Defaults follow the OAWS paper's Table 3: 16 entries per warp, 8-way (2 sets per warp).
// Choices where the papers are silent: the set is the line number modulo the sets per warp; LRU
// within a set; re-inserting a tag already present refreshes it; a probe that hits removes the
// tag (the line is being fetched again, so it is no longer a victim).
#include <cstdint>
#include <vector>

namespace gpusim {

class VictimTagArray {
public:
    VictimTagArray() = default;
    // entriesPerWarp must be a multiple of ways.
    VictimTagArray(unsigned warps, unsigned entriesPerWarp, unsigned ways, unsigned lineBytes);

    void insert(unsigned warp, uint64_t lineAddr);
    // True if the warp's part holds the tag; a hit removes it.
    bool probe(unsigned warp, uint64_t lineAddr);
    bool contains(unsigned warp, uint64_t lineAddr) const;
    unsigned occupancy(unsigned warp) const;
    void clearWarp(unsigned warp);
    void clear();

    unsigned warps() const { return warps_; }
    unsigned setsPerWarp() const { return sets_; }

private:
    struct Entry {
        uint64_t tag = 0;
        uint64_t stamp = 0;  // 0 = invalid
    };
    Entry* set(unsigned warp, uint64_t lineAddr);
    const Entry* set(unsigned warp, uint64_t lineAddr) const;

    unsigned warps_ = 0, ways_ = 1, sets_ = 1, lineBytes_ = 128;
    std::vector<Entry> entries_;  // warp-major, then set, then way
    uint64_t stamp_ = 0;
};

} // namespace gpusim
