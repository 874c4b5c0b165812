#pragma once
// The OAWS paper's Divergent Load Classifier (its Section 4.2, "DLC"): a small table, one entry
// per divergent load PC, with the number of occurrences (#inst), memory accesses (#acc) and L1D
// sets touched (#sets). A load is divergent when it coalesces into more than `coherentLines`
// lines (the paper's Section 2.2: coherent = 1-2 lines). Static OAWS only asks "is this PC a
// divergent load?"; dynamic OAWS also asks whether the load is associativity-sensitive
// (#acc > 1.5 x #sets). 32 entries; cleared at each kernel launch (the paper's Section 4.4).
// Choices where the paper is silent: #acc and #sets accumulate over the entry's occurrences (so
// the test compares averages); a full table replaces its least recently updated entry (the paper
// names LRU as an option); the counters are not narrowed to the paper's 7/10-bit widths.
#include <cstdint>
#include <vector>

namespace gpusim {

class DivergentLoadClassifier {
public:
    struct Entry {
        uint64_t pc = 0;
        uint64_t inst = 0;  // occurrences
        uint64_t acc = 0;   // line accesses, summed over occurrences
        uint64_t sets = 0;  // distinct L1D sets touched, summed over occurrences
        uint64_t lru = 0;   // 0 = invalid
    };

    explicit DivergentLoadClassifier(unsigned entries = 32, unsigned coherentLines = 2,
                                     double assocFactor = 1.5);

    bool divergent(unsigned accesses) const { return accesses > coherentLines_; }
    // A serviced load: recorded if divergent (returns whether it was).
    bool record(uint64_t pc, unsigned accesses, unsigned setsTouched);
    bool contains(uint64_t pc) const { return find(pc) != nullptr; }
    // #acc > assocFactor x #sets (false for a PC not in the table).
    bool associativitySensitive(uint64_t pc) const;
    const Entry* find(uint64_t pc) const;
    unsigned size() const;
    unsigned capacity() const { return static_cast<unsigned>(table_.size()); }
    void clear();

private:
    std::vector<Entry> table_;
    unsigned coherentLines_;
    double assocFactor_;
    uint64_t stamp_ = 0;
};

} // namespace gpusim
