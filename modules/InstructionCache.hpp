#pragma once
// The SM's L1 instruction cache (l1i.*; GPGPU-Sim's read-only il1): sets x ways of lines, LRU,
// allocated when the fill arrives (nothing is reserved while a miss is in flight), MSHRs whose
// entries gather the warps waiting for a line, and a miss queue of line reads for the NoC. A
// fetch that finds neither a free MSHR (or room in the line's entry) nor a miss-queue slot fails
// and the warp retries. Instruction addresses are l1i.code_base + the instruction's PC.
// Left out: the constant cache. GPGPU-Sim looks up once per fetch of two instructions, we once
// per instruction (SmCore::fetchWarp): the same lines, more accesses counted.
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "common/Stats.hpp"
#include "modules/MshrTable.hpp"

namespace gpusim {

struct SmConfig;

class InstructionCache {
public:
    enum class Result { Hit, Miss, Merged, Fail };

    InstructionCache(const SmConfig& cfg, StatRegistry& stats, const std::string& prefix);

    uint64_t lineOf(uint64_t pc) const { return (codeBase_ + pc) & ~uint64_t(lineBytes_ - 1); }
    unsigned lineBytes() const { return lineBytes_; }
    // A fetch by `warp` of the instruction at `pc`. Miss and Merged: the warp waits for fill().
    Result fetch(uint64_t pc, unsigned warp);
    // The line arrived: installed over the LRU way; returns the warps that waited, in order.
    std::vector<unsigned> fill(uint64_t line);

    bool hasOutgoing() const { return !missQueue_.empty(); }
    uint64_t frontOutgoing() const { return missQueue_.front(); }
    void popOutgoing() { missQueue_.pop_front(); }
    bool quiescent() const { return missQueue_.empty() && mshr_.used() == 0; }
    bool probe(uint64_t pc) const;
    std::string dumpState() const;

private:
    struct Way {
        uint64_t line = 0;
        bool valid = false;
        uint64_t stamp = 0;
    };
    Way* find(uint64_t line);
    unsigned setOf(uint64_t line) const { return static_cast<unsigned>(line / lineBytes_ % sets_); }

    uint64_t codeBase_;
    unsigned lineBytes_, sets_, ways_, missQueueCap_;
    std::vector<Way> lines_;
    uint64_t clock_ = 0;
    MshrTable mshr_;  // tokens are warp slots
    std::deque<uint64_t> missQueue_;
    Counter &accesses_, &hits_, &misses_, &merges_, &fails_, &fills_;
};

} // namespace gpusim
