#pragma once
// L1D miss status holding registers: one entry per line with a read in flight, holding the
// tokens (load accesses) to wake when the fill arrives. A later miss to the same line merges into
// the entry while it has room (`maxMerge` accesses in all); otherwise the access must replay.
// Kept as a flat array of `entries` slots (a free list of them) with a FlatHashMap index from
// line to slot, sized so it never grows (load at most 1/4): no allocation per miss, as a
// node-based map needs, and one probe or two per lookup (issue 19). Dumps sort by line, so the
// layout never shows.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/FlatHashMap.hpp"

namespace gpusim {

class MshrTable {
public:
    MshrTable(unsigned entries, unsigned maxMerge)
        : maxMerge_(maxMerge), lines_(entries, kNoLine), tokens_(entries), index_(indexSlots(entries)) {
        for (auto& t : tokens_) t.reserve(maxMerge);
        // Slot 0 is taken first; which slot an entry holds never shows (dumps sort by line).
        for (unsigned i = entries; i > 0; --i) freeSlots_.push_back(i - 1);
    }

    bool has(uint64_t line) const { return slot(line) >= 0; }
    bool canMerge(uint64_t line) const {
        const int s = slot(line);
        return s >= 0 && tokens_[size_t(s)].size() < maxMerge_;
    }
    bool full() const { return used_ >= lines_.size(); }
    unsigned used() const { return used_; }
    unsigned free() const { return capacity() - used_; }
    unsigned capacity() const { return static_cast<unsigned>(lines_.size()); }

    // The line must not be in the table, and the table not full.
    void allocate(uint64_t line, uint32_t token) {
        const uint32_t s = freeSlots_.back();
        freeSlots_.pop_back();
        lines_[s] = line;
        tokens_[s].push_back(token);
        index_.insert(line, s);
        ++used_;
    }
    void merge(uint64_t line, uint32_t token) { tokens_[size_t(slot(line))].push_back(token); }
    // Removes the entry and returns its tokens in arrival order (empty if the line has none). The
    // reference stays valid until the next release().
    const std::vector<uint32_t>& release(uint64_t line) {
        released_.clear();
        uint32_t s = 0;
        if (!index_.take(line, s)) return released_;
        released_.swap(tokens_[s]);  // the slot keeps the old buffer's capacity
        lines_[s] = kNoLine;
        freeSlots_.push_back(s);
        --used_;
        return released_;
    }
    // (line, tokens held) of every entry, by line address: for deterministic dumps.
    std::vector<std::pair<uint64_t, size_t>> entries() const {
        std::vector<std::pair<uint64_t, size_t>> e;
        for (size_t i = 0; i < lines_.size(); ++i)
            if (lines_[i] != kNoLine) e.emplace_back(lines_[i], tokens_[i].size());
        std::sort(e.begin(), e.end());
        return e;
    }

private:
    // Line addresses are line-aligned, so all-ones is never one.
    static constexpr uint64_t kNoLine = ~uint64_t(0);
    static constexpr size_t kIndexSparseness = 8;
    struct LineHash {
        uint64_t operator()(uint64_t line) const { return (line * 0x9E3779B97F4A7C15ull) >> 40; }
    };
    static size_t indexSlots(unsigned entries) {
        size_t size = 4;
        // Load at most 1/8 (the index's Sparseness): it never grows, and a lookup per access
        // finds short probe chains (issue 19).
        while (size < kIndexSparseness * size_t(entries)) size *= 2;
        return size;
    }
    int slot(uint64_t line) const {
        const uint32_t* s = index_.find(line);
        return s ? int(*s) : -1;
    }
    unsigned maxMerge_;
    // Entries held: capacity less freeSlots_.size(), but counted, since used() and full() are read
    // every SM step (deriving them cost 0.25 % of a divergent run).
    unsigned used_ = 0;
    // A slot keeps its entry from allocation to release (kNoLine while free): release() frees it
    // with one probe of the index, where moving the last entry into the hole took two more.
    std::vector<uint64_t> lines_;
    std::vector<uint32_t> freeSlots_;
    std::vector<std::vector<uint32_t>> tokens_;
    std::vector<uint32_t> released_;
    FlatHashMap<uint64_t, uint32_t, LineHash, kNoLine, kIndexSparseness> index_;  // line -> slot
};

} // namespace gpusim
