#include "modules/ReadOnlyMissPath.hpp"

#include <sstream>

namespace gpusim {

ReadOnlyMissPath::ReadOnlyMissPath(const Geometry& g, StatRegistry& stats, const std::string& p,
                                   const std::string& lookups, const std::string& accessesHelp)
    : tags_(g.bytes, g.lineBytes, g.ways), missQueueCap_(g.missQueue), mshr_(g.mshrEntries, g.mshrMaxMerge),
      accesses_(stats.counter(p + "accesses", accessesHelp)),
      hits_(stats.counter(p + "hits", lookups + " that found their line")),
      misses_(stats.counter(p + "misses", lookups + " that sent a line read to the L2")),
      merges_(stats.counter(p + "mshr_merges", lookups + " that joined a line read in flight")),
      fails_(stats.counter(p + "reservation_fails",
                           lookups + " refused for want of an MSHR, merge room or a miss-queue slot (retried)")),
      fills_(stats.counter(p + "fills", "Lines installed")) {}

ReadOnlyMissPath::Result ReadOnlyMissPath::access(uint64_t line, uint32_t token) {
    if (tags_.lookup(line)) {
        accesses_.inc();
        hits_.inc();
        return Result::Hit;
    }
    if (mshr_.has(line)) {
        if (!mshr_.canMerge(line)) {
            fails_.inc();
            return Result::Fail;
        }
        accesses_.inc();
        merges_.inc();
        mshr_.merge(line, token);
        return Result::Merged;
    }
    if (mshr_.full() || missQueue_.size() >= missQueueCap_) {
        fails_.inc();
        return Result::Fail;
    }
    accesses_.inc();
    misses_.inc();
    mshr_.allocate(line, token);
    missQueue_.push_back(line);
    return Result::Miss;
}

std::vector<uint32_t> ReadOnlyMissPath::fill(uint64_t line) {
    fills_.inc();
    tags_.insert(line);
    const auto& tokens = mshr_.release(line);
    return std::vector<uint32_t>(tokens.begin(), tokens.end());
}

std::string ReadOnlyMissPath::dumpState(const std::string& name) const {
    std::ostringstream os;
    os << name << " mshr " << mshr_.used() << "/" << mshr_.capacity() << " miss_queue " << missQueue_.size() << "/"
       << missQueueCap_;
    return os.str();
}

} // namespace gpusim
