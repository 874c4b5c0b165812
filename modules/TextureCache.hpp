#pragma once
// The SM's texture cache (tex.*; GPGPU-Sim's tex_cache, -gpgpu_tex_cache:l1, whose Fermi/GTX480
// configuration N:4:128:24,L:R:m:N:L,T:128:4,128:2 is the default), after the design GPGPU-Sim
// follows (Igehy et al., "Prefetching in a texture cache architecture", 1998): the tags run ahead
// of the data. A lookup that misses writes the line's tag at once (allocation on miss, LRU) and
// sends a line read; every access, hit or miss, then enters the fragment FIFO, which it leaves in
// order, one per cycle: a hit tex.hit_latency_cycles after its lookup at the earliest, a miss when
// its line has arrived. So a later access to a line being read is a hit that waits behind the
// miss, and a hit waits behind any older miss.
//
// A warp's texture load (MemSpace::Texture: TEX, TLD, TLD4, TXD ... with addresses) makes one
// access per distinct tex.line_bytes line of its active lanes (GPGPU-Sim's
// generate_mem_accesses for tex_space), one per cycle through the LD/ST unit; it completes when
// its last access leaves the FIFO. A lookup is refused (retried the next cycle) when the fragment
// FIFO, the request FIFO (line reads waiting for the NoC) or the reorder buffer (line reads in
// flight, freed when their access leaves) is full, as GPGPU-Sim's tex_cache::access refuses.
//
// Left out: the texture pipeline in front of the cache (address calculation from texture
// coordinates, filtering: the trace gives the addresses), the result FIFO between the fragment
// FIFO and the writeback (folded into the hit latency), and the data itself (a line whose tag is
// evicted before its data arrive still completes its access).
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "common/Stats.hpp"
#include "modules/ReadOnlyTags.hpp"
#include "modules/SmConfig.hpp"
#include "workloads/WarpInstruction.hpp"

namespace gpusim {

class TextureCache {
public:
    enum class Result { Hit, Miss, Fail };

    TextureCache(const SmConfig& cfg, StatRegistry& stats, const std::string& prefix);

    // The accesses of a texture load: the distinct lines of its active lanes, ascending.
    void accessesOf(const WarpInstruction& inst, std::vector<uint64_t>& out) const;
    uint64_t lineOf(uint64_t addr) const { return tags_.lineOf(addr); }
    unsigned lineBytes() const { return tags_.lineBytes(); }
    // One lookup at `cycle` for the load `token`; unless refused, the access enters the FIFO and
    // its token comes back from pop().
    Result access(uint64_t line, uint32_t token, uint64_t cycle);
    // A line read answered at `cycle`: the oldest access waiting for that line may leave.
    void fill(uint64_t line, uint64_t cycle);
    // The FIFO's head leaves if it may at `cycle` (call once per cycle): true and its token.
    bool pop(uint64_t cycle, uint32_t& token);
    // The cycle the head may leave (UINT64_MAX: empty, or the head waits for its line).
    // Inline: asked by every SM at every sleep test (issue 19).
    uint64_t nextReady() const {
        if (fifo_.empty() || !fifo_.front().dataReady) return UINT64_MAX;
        return fifo_.front().ready;
    }
    bool fragmentsWaiting() const { return !fifo_.empty(); }
    void countLoad() { loads_.inc(); }
    void countSerialisedCycle() { serialised_.inc(); }

    bool hasOutgoing() const { return !requests_.empty(); }
    uint64_t frontOutgoing() const { return requests_.front(); }
    void popOutgoing() { requests_.pop_front(); }
    bool quiescent() const { return requests_.empty() && fifo_.empty(); }
    bool probe(uint64_t line) const { return tags_.probe(line); }
    std::string dumpState() const;

private:
    struct Fragment {
        uint32_t token;
        uint64_t line;
        bool miss;
        bool dataReady;  // a hit, or a miss whose line has arrived
        uint64_t ready;  // the earliest cycle it may leave, once dataReady
    };
    ReadOnlyTags tags_;
    unsigned hitLatency_, fifoCap_, requestCap_, robCap_;
    unsigned robUsed_ = 0;  // misses in the FIFO (their reorder-buffer entries)
    std::deque<Fragment> fifo_;
    std::deque<uint64_t> requests_;
    Counter &loads_, &accesses_, &hits_, &misses_, &fails_, &fills_, &serialised_;
};

} // namespace gpusim
