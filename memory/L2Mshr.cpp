#include "memory/L2Mshr.hpp"

#include <sstream>
#include <stdexcept>

namespace gpusim {

L2Mshr::L2Mshr(unsigned entries, unsigned maxMerge) : capacity_(entries), maxMerge_(maxMerge) {
    if (entries == 0 || maxMerge == 0) throw std::logic_error("L2Mshr needs entries and merge slots");
}

L2Mshr::Probe L2Mshr::probe(uint64_t line) const {
    auto it = entries_.find(line);
    if (it != entries_.end()) return it->second.size() < maxMerge_ ? Probe::Merge : Probe::MergeFull;
    return entries_.size() < capacity_ ? Probe::Allocate : Probe::Full;
}

void L2Mshr::allocate(uint64_t line, const Target& t) {
    if (probe(line) != Probe::Allocate) throw std::logic_error("L2Mshr: allocate without room");
    entries_[line].push_back(t);
}

void L2Mshr::merge(uint64_t line, const Target& t) {
    if (probe(line) != Probe::Merge) throw std::logic_error("L2Mshr: merge without room");
    entries_[line].push_back(t);
}

const std::vector<L2Mshr::Target>& L2Mshr::waiting(uint64_t line) const {
    static const std::vector<Target> none;
    const auto it = entries_.find(line);
    return it == entries_.end() ? none : it->second;
}

std::vector<L2Mshr::Target> L2Mshr::complete(uint64_t line) {
    auto it = entries_.find(line);
    if (it == entries_.end()) throw std::logic_error("L2Mshr: fill for a line not in flight");
    std::vector<Target> out = std::move(it->second);
    entries_.erase(it);
    return out;
}

std::string L2Mshr::describe() const {
    std::ostringstream os;
    bool first = true;
    for (const auto& [line, targets] : entries_) {
        os << (first ? "" : " ") << "0x" << std::hex << line << std::dec << ":" << targets.size();
        first = false;
    }
    return os.str();
}

} // namespace gpusim
