#pragma once
// Every SM and L1D parameter, declared once (name, default, unit, range, description) and read
// into a plain struct so the per-cycle code does not look values up by name.
#include <cstdint>
#include <string>

#include "common/UnitVariants.hpp"
#include "modules/OperandCollector.hpp"

namespace gpusim {

class Config;
class ParamSchema;

enum class L1Allocation { OnMiss, OnFill };
// What a store does to a valid line: invalidate it (write-evict, the OAWS paper's baseline) or
// update it and keep it (write-through, GPGPU-Sim's Fermi policy for global stores). Either way
// the store goes to the L2 and a missing line is not allocated.
enum class L1WritePolicy { Evict, WriteThrough };
enum class SetIndexing { Linear, FermiHash };
// What a store's line access carries (sm.store_bytes; modules/Coalescer.hpp).
enum class StoreBytes { Touched, Segment };
// What one constant-cache access serves (const.serialise; modules/ConstantCache.hpp): the lanes
// with one address, or the lanes with one line.
enum class ConstSerialise { Address, Line };

struct SmConfig {
    unsigned warpSlots = 48;        // sm.max_warps
    unsigned maxThreads = 1536;
    unsigned maxCtas = 8;
    unsigned registers = 32768;
    unsigned sharedMemBytes = 49152;
    unsigned schedulers = 2;
    unsigned ibufferEntries = 2;
    unsigned aluUnits = 2, aluLatency = 4, aluInterval = 2;
    unsigned sfuUnits = 1, sfuLatency = 20, sfuInterval = 8;
    unsigned tensorUnits = 1, tensorLatency = 32, tensorInterval = 32;  // sm.tensor.*
    unsigned smemLatency = 24;
    unsigned sharedBanks = 32, sharedBankBytes = 4;  // sm.shared_banks, sm.shared_bank_bytes
    unsigned responseQueue = 8;
    bool fetchOneWarp = false;  // sm.fetch = one-warp
    unsigned memIssueQueue = 0;  // sm.mem_issue_queue
    CollectorConfig collector;   // sm.collector.*; banks 0: none
    StoreBytes storeBytes = StoreBytes::Touched;  // sm.store_bytes
    unsigned atomicSegmentBytes = 32;             // sm.atomic_segment_bytes; 0: the line
    bool atomicBlocksWarp = false;                // sm.atomic_blocks_warp

    // l1i.* (modules/InstructionCache.hpp); l1iBytes 0: no instruction cache.
    unsigned l1iBytes = 0, l1iLine = 128, l1iWays = 4, l1iMshrEntries = 2, l1iMshrMaxMerge = 32, l1iMissQueue = 4;
    uint64_t l1iCodeBase = 0xF0000000u;
    // const.* (modules/ConstantCache.hpp); constBytes 0: every constant access hits.
    unsigned constBytes = 8192, constLine = 64, constWays = 2, constMshrEntries = 2, constMshrMaxMerge = 32,
             constMissQueue = 4, constHitLatency = 1;
    ConstSerialise constSerialise = ConstSerialise::Address;
    // tex.* (modules/TextureCache.hpp); texBytes 0: every texture access hits.
    unsigned texBytes = 12288, texLine = 128, texWays = 24, texFragmentFifo = 128, texRequestFifo = 4,
             texRobEntries = 128, texHitLatency = 3;
    unsigned l1Bytes = 32768, l1Line = 128, l1Ways = 8;
    unsigned l1Sets() const { return l1Bytes / (l1Line * l1Ways); }
    unsigned mshrEntries = 32, mshrMaxMerge = 8, missQueue = 8;
    unsigned l1HitLatency = 20;
    bool l1LookupAfterLatency = false;  // l1d.lookup_after_latency
    L1Allocation allocation = L1Allocation::OnMiss;
    bool l1FlushAtKernelEnd = false;  // l1d.flush_at_kernel_end
    L1WritePolicy writePolicy = L1WritePolicy::Evict;  // l1d.write_policy
    SetIndexing setIndexing = SetIndexing::FermiHash;
    // l1d.replacement (modules/L1Replacement.hpp). A policy's own choice
    // (SchedulerPolicy::l1Replacement) overrides it in SmCore.
    L1ReplacementKind replacement = L1ReplacementKind::Lru;

    static void declare(ParamSchema& s);
    static SmConfig from(const Config& c);
};

} // namespace gpusim
