#pragma once
// Miss status holding registers of one L2 slice: one entry per line being fetched from memory,
// each holding the requests waiting for that line in arrival order.
// Models: the entry limit (no new miss when full) and the merge limit per entry (a further miss
// to a line already in flight must wait when its entry is full). Leaves out: data and sector
// masks; a merged request is answered when the whole line arrives.
// Storage: a fixed table of entries, found by line through an open-addressing index, each
// entry's request list kept (cleared, not freed) for the next miss: a std::map of vectors cost
// two allocations per miss (issue 19). Nothing depends on the entries' order but describe(),
// which sorts by address.
#include <cstdint>
#include <string>
#include <vector>

#include <tlm>

namespace gpusim {

class L2Mshr {
public:
    struct Target {
        tlm::tlm_generic_payload* payload = nullptr;
        uint64_t acceptPs = 0;  // when the slice accepted it, for the latency statistic
        bool write = false;     // a store or an atomic waiting for the line: the filled line becomes dirty
    };
    // What a miss to a line can do now.
    enum class Probe { Merge, MergeFull, Allocate, Full };

    // maxMerge counts every request of an entry, the one that allocated it included.
    L2Mshr(unsigned entries, unsigned maxMerge);

    Probe probe(uint64_t line) const;
    bool inFlight(uint64_t line) const { return find(line) >= 0; }
    void allocate(uint64_t line, const Target& t);
    void merge(uint64_t line, const Target& t);
    // The requests waiting for a line in flight, in arrival order (empty when it is not in flight).
    const std::vector<Target>& waiting(uint64_t line) const;
    // The line arrived: frees its entry and puts its requests, in arrival order, in `out`
    // (replacing what it held).
    void complete(uint64_t line, std::vector<Target>& out);
    std::vector<Target> complete(uint64_t line) {
        std::vector<Target> out;
        complete(line, out);
        return out;
    }

    size_t size() const { return used_; }
    unsigned capacity() const { return capacity_; }
    unsigned maxMerge() const { return maxMerge_; }
    bool empty() const { return used_ == 0; }
    // "0x1f80:3 0x2000:1" (line:targets, by address), for state dumps.
    std::string describe() const;

private:
    struct Entry {
        uint64_t line = 0;
        bool used = false;
        std::vector<Target> targets;
    };
    // The entry holding `line`, or -1.
    int find(uint64_t line) const;
    size_t home(uint64_t line) const;
    void unindex(size_t pos);

    unsigned capacity_;
    unsigned maxMerge_;
    size_t used_ = 0;
    std::vector<Entry> entries_;
    std::vector<unsigned> free_;  // unused entries
    // Open addressing with linear probing over a power-of-two table at most half full: entry
    // index + 1, 0 for an empty position.
    std::vector<uint32_t> index_;
    size_t mask_ = 0;
};

} // namespace gpusim
