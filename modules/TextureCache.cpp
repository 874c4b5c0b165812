#include "modules/TextureCache.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace gpusim {

TextureCache::TextureCache(const SmConfig& cfg, StatRegistry& stats, const std::string& p)
    : tags_(cfg.texBytes, cfg.texLine, cfg.texWays), hitLatency_(cfg.texHitLatency), fifoCap_(cfg.texFragmentFifo),
      requestCap_(cfg.texRequestFifo), robCap_(cfg.texRobEntries),
      loads_(stats.counter(p + "loads", "Texture load instructions (TEX, TLD, TLD4, TXD ... with addresses)")),
      accesses_(stats.counter(p + "accesses", "Texture cache lookups: one per distinct line of a load")),
      hits_(stats.counter(p + "hits", "Lookups that found their tag (the data may still be on its way)")),
      misses_(stats.counter(p + "misses", "Lookups that sent a line read to the L2")),
      fails_(stats.counter(p + "reservation_fails",
                           "Lookups refused for a full fragment FIFO, request FIFO or reorder buffer (retried)")),
      fills_(stats.counter(p + "fills", "Line reads answered")),
      serialised_(stats.counter(p + "serialised_cycles",
                                "Cycles the LD/ST unit stayed busy with further accesses of one texture load")) {}

void TextureCache::accessesOf(const WarpInstruction& inst, std::vector<uint64_t>& out) const {
    out.clear();
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
        if (inst.activeMask >> lane & 1u) out.push_back(lineOf(inst.addr[lane]));
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
}

TextureCache::Result TextureCache::access(uint64_t line, uint32_t token, uint64_t cycle) {
    if (fifo_.size() >= fifoCap_ || requests_.size() >= requestCap_ || robUsed_ >= robCap_) {
        fails_.inc();
        return Result::Fail;
    }
    accesses_.inc();
    if (tags_.lookup(line)) {
        hits_.inc();
        fifo_.push_back({token, line, false, true, cycle + hitLatency_});
        return Result::Hit;
    }
    misses_.inc();
    tags_.insert(line);  // the tag now, the data when the read is answered
    requests_.push_back(line);
    ++robUsed_;
    fifo_.push_back({token, line, true, false, 0});
    return Result::Miss;
}

void TextureCache::fill(uint64_t line, uint64_t cycle) {
    fills_.inc();
    for (Fragment& f : fifo_)
        if (f.miss && !f.dataReady && f.line == line) {
            f.dataReady = true;
            f.ready = cycle;
            return;
        }
    throw std::logic_error("texture cache: an answer for line " + std::to_string(line) + " that no access waits for");
}

bool TextureCache::pop(uint64_t cycle, uint32_t& token) {
    if (fifo_.empty()) return false;
    const Fragment& f = fifo_.front();
    if (!f.dataReady || f.ready > cycle) return false;
    token = f.token;
    if (f.miss) --robUsed_;
    fifo_.pop_front();
    return true;
}

std::string TextureCache::dumpState() const {
    std::ostringstream os;
    os << "tex fragments " << fifo_.size() << "/" << fifoCap_ << " requests " << requests_.size() << "/" << requestCap_
       << " rob " << robUsed_ << "/" << robCap_;
    return os.str();
}

} // namespace gpusim
