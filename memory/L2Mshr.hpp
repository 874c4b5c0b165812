#pragma once
// Miss status holding registers of one L2 slice: one entry per line being fetched from memory,
// each holding the requests waiting for that line in arrival order.
// Models: the entry limit (no new miss when full) and the merge limit per entry (a further miss
// to a line already in flight must wait when its entry is full). Leaves out: data and sector
// masks; a merged request is answered when the whole line arrives.
#include <cstdint>
#include <map>
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
    bool inFlight(uint64_t line) const { return entries_.count(line) != 0; }
    void allocate(uint64_t line, const Target& t);
    void merge(uint64_t line, const Target& t);
    // The requests waiting for a line in flight, in arrival order (empty when it is not in flight).
    const std::vector<Target>& waiting(uint64_t line) const;
    // The line arrived: frees its entry and returns its requests in arrival order.
    std::vector<Target> complete(uint64_t line);

    size_t size() const { return entries_.size(); }
    unsigned capacity() const { return capacity_; }
    unsigned maxMerge() const { return maxMerge_; }
    bool empty() const { return entries_.empty(); }
    // "0x1f80:3 0x2000:1" (line:targets, by address), for state dumps.
    std::string describe() const;

private:
    unsigned capacity_;
    unsigned maxMerge_;
    // Keyed by line address: lookup by line and a deterministic iteration order.
    std::map<uint64_t, std::vector<Target>> entries_;
};

} // namespace gpusim
