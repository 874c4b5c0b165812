#pragma once
// L1D miss status holding registers: one entry per line with a read in flight, holding the
// tokens (load accesses) to wake when the fill arrives. A later miss to the same line merges into
// the entry while it has room (`maxMerge` accesses in all); otherwise the access must replay.
#include <cstdint>
#include <map>
#include <vector>

namespace gpusim {

class MshrTable {
public:
    MshrTable(unsigned entries, unsigned maxMerge) : entries_(entries), maxMerge_(maxMerge) {}

    bool has(uint64_t line) const { return table_.count(line) != 0; }
    bool canMerge(uint64_t line) const {
        auto it = table_.find(line);
        return it != table_.end() && it->second.size() < maxMerge_;
    }
    bool full() const { return table_.size() >= entries_; }
    unsigned used() const { return static_cast<unsigned>(table_.size()); }
    unsigned free() const { return entries_ - used(); }
    unsigned capacity() const { return entries_; }

    void allocate(uint64_t line, uint32_t token) { table_[line].push_back(token); }
    void merge(uint64_t line, uint32_t token) { table_.at(line).push_back(token); }
    // Removes the entry and returns its tokens in arrival order.
    std::vector<uint32_t> release(uint64_t line) {
        auto it = table_.find(line);
        if (it == table_.end()) return {};
        auto tokens = std::move(it->second);
        table_.erase(it);
        return tokens;
    }
    const std::map<uint64_t, std::vector<uint32_t>>& entries() const { return table_; }

private:
    unsigned entries_, maxMerge_;
    std::map<uint64_t, std::vector<uint32_t>> table_;  // ordered: deterministic dumps
};

} // namespace gpusim
