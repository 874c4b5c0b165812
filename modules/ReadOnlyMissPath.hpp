#pragma once
// The lookup and miss path the SM's allocate-on-fill read-only caches share (the instruction
// cache and the constant cache): a tag array (ReadOnlyTags, LRU), MSHR entries that gather the
// tokens waiting for a line (MshrTable), and a miss queue of line reads that SmCore sends to the
// L2. A lookup hits, joins a line read in flight (Merged), starts one (Miss) or is refused (Fail:
// no MSHR entry, no merge room or no miss-queue slot; the caller retries). Nothing is reserved
// while a miss is in flight: the line is installed when it arrives (fill). Its owner decides what
// a token is (a warp slot, a load token) and what one instruction's lookups are.
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "common/Stats.hpp"
#include "modules/MshrTable.hpp"
#include "modules/ReadOnlyTags.hpp"

namespace gpusim {

class ReadOnlyMissPath {
public:
    enum class Result { Hit, Miss, Merged, Fail };
    struct Geometry {
        unsigned bytes, lineBytes, ways;  // bytes 0: no cache, every lookup hits
        unsigned mshrEntries, mshrMaxMerge, missQueue;
    };
    // `lookups` names the lookups in the statistics' descriptions ("Fetches", "Lookups");
    // `accessesHelp` describes the accesses counter.
    ReadOnlyMissPath(const Geometry& g, StatRegistry& stats, const std::string& prefix, const std::string& lookups,
                     const std::string& accessesHelp);

    uint64_t lineOf(uint64_t addr) const { return tags_.lineOf(addr); }
    unsigned lineBytes() const { return tags_.lineBytes(); }
    // One lookup of `line` for `token`. Miss and Merged: the token comes back from fill().
    Result access(uint64_t line, uint32_t token);
    // The line arrived: installed over its set's LRU way; the tokens that waited, in order.
    std::vector<uint32_t> fill(uint64_t line);
    bool probe(uint64_t line) const { return tags_.probe(line); }

    bool hasOutgoing() const { return !missQueue_.empty(); }
    uint64_t frontOutgoing() const { return missQueue_.front(); }
    void popOutgoing() { missQueue_.pop_front(); }
    bool quiescent() const { return missQueue_.empty() && mshr_.used() == 0; }
    // "<name> mshr used/capacity miss_queue n/cap", for the watchdog's report.
    std::string dumpState(const std::string& name) const;

private:
    ReadOnlyTags tags_;
    unsigned missQueueCap_;
    MshrTable mshr_;
    std::deque<uint64_t> missQueue_;
    Counter &accesses_, &hits_, &misses_, &merges_, &fails_, &fills_;
};

} // namespace gpusim
