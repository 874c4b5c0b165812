#include "memory/L2Mshr.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <utility>

namespace gpusim {

L2Mshr::L2Mshr(unsigned entries, unsigned maxMerge) : capacity_(entries), maxMerge_(maxMerge) {
    if (entries == 0 || maxMerge == 0) throw std::logic_error("L2Mshr needs entries and merge slots");
    entries_.resize(entries);
    for (unsigned k = entries; k-- > 0;) free_.push_back(k);
    size_t size = 1;
    while (size < 2 * size_t(entries)) size <<= 1;
    index_.assign(size, 0);
    mask_ = size - 1;
}

size_t L2Mshr::home(uint64_t line) const {
    // Fibonacci hashing: line addresses differ in their middle bits.
    return size_t((line * 0x9E3779B97F4A7C15ull) >> 32) & mask_;
}

int L2Mshr::find(uint64_t line) const {
    for (size_t pos = home(line);; pos = (pos + 1) & mask_) {
        const uint32_t e = index_[pos];
        if (e == 0) return -1;
        if (entries_[e - 1].line == line) return int(e - 1);
    }
}

// Backward-shift deletion: later members of the probe run move up into the hole when their home
// position allows, so no tombstones accumulate.
void L2Mshr::unindex(size_t pos) {
    for (size_t next = (pos + 1) & mask_;; next = (next + 1) & mask_) {
        const uint32_t e = index_[next];
        if (e == 0) break;
        const size_t h = home(entries_[e - 1].line);
        // Move it if its home is not within (pos, next], cyclically.
        const bool stays = pos <= next ? (h > pos && h <= next) : (h > pos || h <= next);
        if (stays) continue;
        index_[pos] = e;
        pos = next;
    }
    index_[pos] = 0;
}

L2Mshr::Probe L2Mshr::probe(uint64_t line) const {
    const int e = find(line);
    if (e >= 0) return entries_[size_t(e)].targets.size() < maxMerge_ ? Probe::Merge : Probe::MergeFull;
    return used_ < capacity_ ? Probe::Allocate : Probe::Full;
}

void L2Mshr::allocate(uint64_t line, const Target& t) {
    if (probe(line) != Probe::Allocate) throw std::logic_error("L2Mshr: allocate without room");
    const unsigned k = free_.back();
    free_.pop_back();
    Entry& e = entries_[k];
    e.line = line;
    e.used = true;
    e.targets.clear();
    e.targets.push_back(t);
    ++used_;
    size_t pos = home(line);
    while (index_[pos] != 0) pos = (pos + 1) & mask_;
    index_[pos] = k + 1;
}

void L2Mshr::merge(uint64_t line, const Target& t) {
    if (probe(line) != Probe::Merge) throw std::logic_error("L2Mshr: merge without room");
    entries_[size_t(find(line))].targets.push_back(t);
}

const std::vector<L2Mshr::Target>& L2Mshr::waiting(uint64_t line) const {
    static const std::vector<Target> none;
    const int e = find(line);
    return e < 0 ? none : entries_[size_t(e)].targets;
}

void L2Mshr::complete(uint64_t line, std::vector<Target>& out) {
    size_t pos = home(line);
    while (index_[pos] != 0 && entries_[index_[pos] - 1].line != line) pos = (pos + 1) & mask_;
    if (index_[pos] == 0) throw std::logic_error("L2Mshr: fill for a line not in flight");
    const unsigned k = index_[pos] - 1;
    Entry& e = entries_[k];
    out.assign(e.targets.begin(), e.targets.end());
    e.targets.clear();
    e.used = false;
    free_.push_back(k);
    --used_;
    unindex(pos);
}

std::string L2Mshr::describe() const {
    std::vector<std::pair<uint64_t, size_t>> lines;
    for (const Entry& e : entries_)
        if (e.used) lines.emplace_back(e.line, e.targets.size());
    std::sort(lines.begin(), lines.end());
    std::ostringstream os;
    bool first = true;
    for (const auto& [line, targets] : lines) {
        os << (first ? "" : " ") << "0x" << std::hex << line << std::dec << ":" << targets;
        first = false;
    }
    return os.str();
}

} // namespace gpusim
