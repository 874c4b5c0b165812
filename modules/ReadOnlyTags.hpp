#pragma once
// The tag array of the SM's small read-only caches (instruction, constant and texture): sets x ways of lines,
// set = line address / line size mod sets, LRU. Nothing is ever dirty; the owner decides when a
// line is inserted (at the fill for the constant cache, at the miss for the texture cache). A
// size of 0 means no cache: every lookup hits.
#include <cstdint>
#include <vector>

namespace gpusim {

class ReadOnlyTags {
public:
    // bytes must be 0 or sets x line x ways with a power-of-two number of sets (SmConfig checks).
    ReadOnlyTags(unsigned bytes, unsigned lineBytes, unsigned ways)
        : lineBytes_(lineBytes), ways_(ways), sets_(bytes ? bytes / (lineBytes * ways) : 0),
          lines_(size_t(sets_) * ways_) {}

    bool enabled() const { return sets_ != 0; }
    unsigned lineBytes() const { return lineBytes_; }
    unsigned sets() const { return sets_; }
    uint64_t lineOf(uint64_t addr) const { return addr & ~uint64_t(lineBytes_ - 1); }

    // True if `line` is present (it becomes the most recently used); always true without a cache.
    bool lookup(uint64_t line) {
        if (!enabled()) return true;
        if (Way* w = find(line)) {
            w->stamp = ++clock_;
            return true;
        }
        return false;
    }
    bool probe(uint64_t line) const {
        return !enabled() || const_cast<ReadOnlyTags*>(this)->find(line) != nullptr;
    }
    // Installs `line` over its set's first invalid way, else its least recently used one; a line
    // already present only becomes the most recently used.
    void insert(uint64_t line) {
        if (!enabled()) return;
        if (Way* w = find(line)) {
            w->stamp = ++clock_;
            return;
        }
        Way* set = &lines_[size_t(setOf(line)) * ways_];
        Way* victim = &set[0];
        for (unsigned w = 0; w < ways_; ++w) {
            if (!set[w].valid) {
                victim = &set[w];
                break;
            }
            if (set[w].stamp < victim->stamp) victim = &set[w];
        }
        *victim = {line, true, ++clock_};
    }

private:
    struct Way {
        uint64_t line = 0;
        bool valid = false;
        uint64_t stamp = 0;
    };
    unsigned setOf(uint64_t line) const { return static_cast<unsigned>(line / lineBytes_ % sets_); }
    Way* find(uint64_t line) {
        Way* set = &lines_[size_t(setOf(line)) * ways_];
        for (unsigned w = 0; w < ways_; ++w)
            if (set[w].valid && set[w].line == line) return &set[w];
        return nullptr;
    }

    unsigned lineBytes_, ways_, sets_;
    std::vector<Way> lines_;
    uint64_t clock_ = 0;
};

} // namespace gpusim
