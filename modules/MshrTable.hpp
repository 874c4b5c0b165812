#pragma once
// L1D miss status holding registers: one entry per line with a read in flight, holding the
// tokens (load accesses) to wake when the fill arrives. A later miss to the same line merges into
// the entry while it has room (`maxMerge` accesses in all); otherwise the access must replay.
// Kept as a flat array of `entries` slots with an open-addressing index (linear probing, removal by
// backward shift) from line to slot: no allocation per miss, as a node-based map needs, and one
// probe or two per lookup (issue 19). Dumps sort by line, so the layout never shows.
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace gpusim {

class MshrTable {
public:
    MshrTable(unsigned entries, unsigned maxMerge) : maxMerge_(maxMerge), lines_(entries), tokens_(entries) {
        for (auto& t : tokens_) t.reserve(maxMerge);
        unsigned size = 4;
        while (size < 4 * entries) size *= 2;  // load factor at most 1/4
        index_.assign(size, kEmpty);
        mask_ = size - 1;
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
        lines_[used_] = line;
        tokens_[used_].push_back(token);
        unsigned h = home(line);
        while (index_[h] != kEmpty) h = (h + 1) & mask_;
        index_[h] = int32_t(used_);
        ++used_;
    }
    void merge(uint64_t line, uint32_t token) { tokens_[size_t(slot(line))].push_back(token); }
    // Removes the entry and returns its tokens in arrival order (empty if the line has none). The
    // reference stays valid until the next release().
    const std::vector<uint32_t>& release(uint64_t line) {
        released_.clear();
        const unsigned h = position(line);
        if (index_[h] == kEmpty) return released_;
        const unsigned s = unsigned(index_[h]);
        unindex(h);
        const unsigned last = used_ - 1;
        released_.swap(tokens_[s]);  // the slot keeps the old buffer's capacity
        if (s != last) {  // the last entry moves into the freed slot
            lines_[s] = lines_[last];
            tokens_[s].swap(tokens_[last]);
            index_[position(lines_[s])] = int32_t(s);
        }
        tokens_[last].clear();
        --used_;
        return released_;
    }
    // (line, tokens held) of every entry, by line address: for deterministic dumps.
    std::vector<std::pair<uint64_t, size_t>> entries() const {
        std::vector<std::pair<uint64_t, size_t>> e;
        for (unsigned i = 0; i < used_; ++i) e.emplace_back(lines_[i], tokens_[i].size());
        std::sort(e.begin(), e.end());
        return e;
    }

private:
    static constexpr int32_t kEmpty = -1;
    unsigned home(uint64_t line) const {
        return unsigned((line * 0x9E3779B97F4A7C15ull) >> 40) & mask_;
    }
    // The index position holding `line`, or the empty one where its probe ends.
    unsigned position(uint64_t line) const {
        unsigned h = home(line);
        while (index_[h] != kEmpty && lines_[unsigned(index_[h])] != line) h = (h + 1) & mask_;
        return h;
    }
    int slot(uint64_t line) const { return index_[position(line)]; }
    // Removes index position h, shifting back the entries of its probe chain (no tombstones).
    void unindex(unsigned h) {
        index_[h] = kEmpty;
        for (unsigned j = (h + 1) & mask_; index_[j] != kEmpty; j = (j + 1) & mask_) {
            const unsigned k = home(lines_[unsigned(index_[j])]);
            // Move j into the hole h unless its home lies cyclically in (h, j].
            const bool stays = h <= j ? (h < k && k <= j) : (h < k || k <= j);
            if (stays) continue;
            index_[h] = index_[j];
            index_[j] = kEmpty;
            h = j;
        }
    }
    unsigned maxMerge_;
    unsigned used_ = 0;                         // slots 0 .. used_-1 hold entries
    std::vector<uint64_t> lines_;
    std::vector<std::vector<uint32_t>> tokens_;
    std::vector<uint32_t> released_;
    std::vector<int32_t> index_;  // line -> slot, open addressing
    unsigned mask_ = 0;
};

} // namespace gpusim
