#pragma once
// The SM's constant cache (const.*; GPGPU-Sim's read-only L1C, -gpgpu_const_cache:l1, whose
// Fermi/GTX480 geometry N:64:64:2,L:R:f:N:L,S:2:32,4 is the default): sets x ways of lines, LRU,
// allocated when the fill arrives (nothing is reserved while a miss is in flight), MSHRs whose
// entries gather the accesses waiting for a line, and a miss queue of line reads for the NoC
// (SmCore sends them through the SM's port like instruction-line reads; the L2 answers them as
// data reads).
//
// A warp's constant load (MemSpace::Constant: LDC / ULDC with addresses) is split by accessesOf()
// into one access per distinct address (const.serialise = address: NVIDIA's rule for compute
// capability 2.x, "a request is split into as many separate requests as there are different
// memory addresses in the initial request") or per distinct line (line: GPGPU-Sim's
// warp_inst_t::generate_mem_accesses for const_space); the lanes sharing one get it by
// broadcast. The LD/ST unit makes one access per cycle (LdStUnit: it stays busy meanwhile, as
// GPGPU-Sim's ldst_unit::constant_cycle does); a hit completes after const.hit_latency_cycles,
// a miss or a merge when its line arrives (fill()), a refusal (no MSHR, no merge room, no
// miss-queue slot) is retried the next cycle. The load completes with its last access.
//
// Left out: GPGPU-Sim's perfect constant cache option and its constant-port statistics
// (gpgpu_n_cmem_portconflict); kernel parameters (param_space_kernel, which GPGPU-Sim also reads
// through this cache) are not separate accesses in traces.
#include <cstdint>
#include <string>
#include <vector>

#include "common/Stats.hpp"
#include "modules/ReadOnlyMissPath.hpp"
#include "modules/SmConfig.hpp"
#include "workloads/WarpInstruction.hpp"

namespace gpusim {

class ConstantCache {
public:
    using Result = ReadOnlyMissPath::Result;

    ConstantCache(const SmConfig& cfg, StatRegistry& stats, const std::string& prefix);

    // The accesses of a constant load, ascending: per distinct address of its active lanes, or
    // per distinct line (const.serialise). Each is a byte address; no active lane: none.
    void accessesOf(const WarpInstruction& inst, std::vector<uint64_t>& out) const;
    uint64_t lineOf(uint64_t addr) const { return path_.lineOf(addr); }
    unsigned lineBytes() const { return path_.lineBytes(); }
    // One lookup for the load `token`. Miss and Merged: the token comes back from fill().
    Result access(uint64_t addr, uint32_t token) { return path_.access(lineOf(addr), token); }
    // The line arrived: installed over the LRU way; returns the tokens that waited, in order.
    std::vector<uint32_t> fill(uint64_t line) { return path_.fill(line); }
    // Per instruction, for the statistics: a constant load entered the LD/ST unit; the unit
    // stayed busy a further cycle for its next access (serialisation).
    void countLoad() { loads_.inc(); }
    void countSerialisedCycle() { serialised_.inc(); }

    bool hasOutgoing() const { return path_.hasOutgoing(); }
    uint64_t frontOutgoing() const { return path_.frontOutgoing(); }
    void popOutgoing() { path_.popOutgoing(); }
    bool quiescent() const { return path_.quiescent(); }
    bool probe(uint64_t addr) const { return path_.probe(lineOf(addr)); }
    std::string dumpState() const { return path_.dumpState("const"); }

private:
    ReadOnlyMissPath path_;  // tokens are LD/ST load tokens
    ConstSerialise serialise_;
    Counter &loads_, &serialised_;
};

} // namespace gpusim
