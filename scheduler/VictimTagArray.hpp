#pragma once
// The CCWS paper's victim tag array (its Section 3.2): per warp, a small set-associative array of
// L1D line tags (no data). When the L1D evicts a line, its tag goes to the part of the array of
// the warp that brought the line in; when a warp misses in the L1D, its part is probed, and a hit
// means the miss "may have been a hit if that wavefront had more exclusive access to the L1D".
// Geometry and replacement follow the authors' GPGPU-Sim release (tgrogers/ccws-2012,
// configs/QuadroFX5800-CCWS/gpgpusim.config: `-gpgpu_victim_cache:dl1 N,2:128:8:F:...` with
// `-VC_PER_WARP 1`): 2 sets x 8 ways = 16 entries per warp (the OAWS paper's Table 3 too), FIFO.
// What the release does and this class does too:
// - the set is the line number modulo the sets per warp (GPGPU-Sim's linear set index);
// - FIFO: a tag already present is not inserted again and keeps its place (the release's access
//   on a hit only updates the LRU time, which FIFO replacement does not read);
// - a probe is a lookup: a hit leaves the tag in place (the release calls tag_array::probe),
//   unless the caller asks for the removal (the reading this model used before);
// - a store to a line removes its tag from every warp's part (the release: "Evict writes from
//   the VC as well").
// Left out: the source PC kept per entry (the release uses it only for its statistics and its
// PC-protection experiments).
#include <cstdint>
#include <vector>

namespace gpusim {

class VictimTagArray {
public:
    VictimTagArray() = default;
    // entriesPerWarp must be a multiple of ways.
    VictimTagArray(unsigned warps, unsigned entriesPerWarp, unsigned ways, unsigned lineBytes);

    void insert(unsigned warp, uint64_t lineAddr);
    // True if the warp's part holds the tag; the tag is removed on a hit only if `removeOnHit`.
    bool probe(unsigned warp, uint64_t lineAddr, bool removeOnHit = false);
    bool contains(unsigned warp, uint64_t lineAddr) const;
    // Removes the tag from every warp's part (a store wrote the line).
    void invalidate(uint64_t lineAddr);
    unsigned occupancy(unsigned warp) const;
    void clearWarp(unsigned warp);
    void clear();

    unsigned warps() const { return warps_; }
    unsigned setsPerWarp() const { return sets_; }

private:
    struct Entry {
        uint64_t tag = 0;
        uint64_t stamp = 0;  // insertion order (FIFO); 0 = invalid
    };
    Entry* set(unsigned warp, uint64_t lineAddr);
    const Entry* set(unsigned warp, uint64_t lineAddr) const;

    unsigned warps_ = 0, ways_ = 1, sets_ = 1, lineBytes_ = 128;
    std::vector<Entry> entries_;  // warp-major, then set, then way
    uint64_t stamp_ = 0;
};

} // namespace gpusim
