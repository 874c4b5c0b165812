#pragma once
// The SM's L1 instruction cache (l1i.*; GPGPU-Sim's read-only il1): sets x ways of lines, LRU,
// allocated when the fill arrives (nothing is reserved while a miss is in flight), MSHRs whose
// entries gather the warps waiting for a line, and a miss queue of line reads for the NoC. A
// fetch that finds neither a free MSHR (or room in the line's entry) nor a miss-queue slot fails
// and the warp retries. Instruction addresses are l1i.code_base + the instruction's PC.
// The lookup and miss path is the one the constant cache uses too (ReadOnlyMissPath).
// GPGPU-Sim looks up once per fetch of two instructions, we once
// per instruction (SmCore::fetchWarp): the same lines, more accesses counted.
#include <cstdint>
#include <string>
#include <vector>

#include "modules/ReadOnlyMissPath.hpp"

namespace gpusim {

struct SmConfig;

class InstructionCache {
public:
    using Result = ReadOnlyMissPath::Result;

    InstructionCache(const SmConfig& cfg, StatRegistry& stats, const std::string& prefix);

    uint64_t lineOf(uint64_t pc) const { return path_.lineOf(codeBase_ + pc); }
    unsigned lineBytes() const { return path_.lineBytes(); }
    // A fetch by `warp` of the instruction at `pc`. Miss and Merged: the warp waits for fill().
    Result fetch(uint64_t pc, unsigned warp) { return path_.access(lineOf(pc), warp); }
    // The line arrived: installed over the LRU way; returns the warps that waited, in order.
    std::vector<uint32_t> fill(uint64_t line) { return path_.fill(line); }

    bool hasOutgoing() const { return path_.hasOutgoing(); }
    uint64_t frontOutgoing() const { return path_.frontOutgoing(); }
    void popOutgoing() { path_.popOutgoing(); }
    bool quiescent() const { return path_.quiescent(); }
    bool probe(uint64_t pc) const { return path_.probe(lineOf(pc)); }
    std::string dumpState() const { return path_.dumpState("l1i"); }

private:
    uint64_t codeBase_;
    ReadOnlyMissPath path_;  // tokens are warp slots
};

} // namespace gpusim
