#include "modules/SmConfig.hpp"

#include <bit>

#include "common/Config.hpp"
#include "modules/L1Replacement.hpp"

namespace gpusim {

void SmConfig::declare(ParamSchema& s) {
    s.addInt("sm.max_warps", 48, "warps", 1, 64, "Warp slots per SM")
        .addInt("sm.max_threads", 1536, "threads", 32, 4096, "Resident threads per SM")
        .addInt("sm.max_ctas", 8, "CTAs", 1, 64, "Resident CTAs per SM")
        .addInt("sm.registers", 32768, "registers", 1024, 1 << 20, "32-bit registers per SM")
        .addInt("sm.shared_mem_bytes", 49152, "bytes", 0, 1 << 20, "Shared memory per SM")
        .addInt("sm.schedulers", 2, "", 1, 2,
                "Warp schedulers per SM; warps are split by slot parity (even/odd) when 2")
        .addInt("sm.ibuffer_entries", 2, "instructions", 1, 16, "Instruction buffer per warp")
        .addInt("sm.alu.units", 2, "", 1, 8, "ALU (SIMD) pipelines")
        .addInt("sm.alu.latency_cycles", 4, "cycles", 1, 1000,
                "Issue to result of an ALU instruction (GPGPU-Sim GTX480 integer add)")
        .addInt("sm.alu.interval_cycles", 2, "cycles", 1, 64,
                "Initiation interval: a 32-thread warp on a 16-wide pipeline occupies it 2 cycles")
        .addInt("sm.sfu.units", 1, "", 1, 8, "Special-function pipelines")
        .addInt("sm.sfu.latency_cycles", 20, "cycles", 1, 1000, "Issue to result of an SFU instruction")
        .addInt("sm.sfu.interval_cycles", 8, "cycles", 1, 64,
                "SFU initiation interval (4 SFU lanes per SM: 32 threads take 8 cycles)")
        // Fermi has no tensor core; every platform gets this pipeline anyway, so that traces of
        // later GPUs (HMMA, IMMA, ...) run as Accel-Sim runs them on its GTX480 configuration: on
        // a specialised TENSOR unit with latency = interval = 32 (the values of the hand-written
        // trace.config of validation/accelsim/README.md, and of Accel-Sim's
        // gpu-simulator/configs/tested-cfgs/SM86_RTX3070/trace.config,
        // -trace_opcode_latency_initiation_tensor 32,32).
        .addInt("sm.tensor.units", 1, "", 1, 8,
                "Tensor-core pipelines (matrix multiply-accumulate: HMMA, IMMA, ... of traces). Fermi "
                "has none; the defaults run such instructions as Accel-Sim's GTX480 setup does")
        .addInt("sm.tensor.latency_cycles", 32, "cycles", 1, 1000,
                "Issue to result of a tensor instruction (Accel-Sim SM86_RTX3070 trace.config: "
                "-trace_opcode_latency_initiation_tensor 32,32)")
        .addInt("sm.tensor.interval_cycles", 32, "cycles", 1, 1000,
                "Tensor initiation interval: cycles a tensor instruction occupies its pipeline (Accel-Sim "
                "SM86_RTX3070 trace.config, the second value of -trace_opcode_latency_initiation_tensor)")
        .addInt("sm.smem_latency_cycles", 24, "cycles", 1, 1000,
                "Shared-memory access latency of a conflict-free access; each further pass through the "
                "banks (sm.shared_banks) adds a cycle")
        .addInt("sm.shared_banks", 32, "banks", 1, 128,
                "Shared-memory banks (Fermi: 32; GPGPU-Sim's -gpgpu_shmem_num_banks). Word w (of "
                "sm.shared_bank_bytes) is in bank w mod banks; a warp's shared access takes as many passes "
                "as the largest number of distinct words one bank is asked for (lanes on one word share "
                "it), and holds the LD/ST unit that many cycles (modules/SharedBanks.hpp)")
        .addInt("sm.shared_bank_bytes", 4, "bytes", 1, 64,
                "Width of a shared-memory bank, the word it delivers per pass (Fermi: 4; power of two). "
                "Accesses wider than banks x width / 32 per lane are served by parts of the warp "
                "(Fermi: half-warps for 8 bytes, quarter-warps for 16)")
        .addInt("sm.mem_issue_queue", 0, "instructions", 0, 64,
                "Memory instructions issued and waiting for the LD/ST unit, in issue order. 0: none, "
                "a memory instruction issues only when the unit holds none. GPGPU-Sim's path from "
                "issue to the unit holds 1 (ID_OC_MEM) + MEM operand collectors + 1 (OC_EX_MEM); "
                "modelled as a FIFO of that many, without the operand reads' latency")
        .addInt("sm.collector.register_banks", 0, "banks", 0, 64,
                "Register-file banks of the operand collector (GPGPU-Sim's -gpgpu_num_reg_banks): "
                "an issued ALU, SFU, tensor or memory instruction waits in a collector unit until its source "
                "registers are read, one read per bank per cycle (modules/OperandCollector.hpp). 0: no "
                "collector, an instruction goes from issue straight into its unit")
        .addInt("sm.collector.alu_units", 6, "units", 1, 64,
                "Collector units for ALU instructions (GPGPU-Sim's SP collector units)")
        .addInt("sm.collector.alu_ports", 2, "instructions", 1, 8,
                "ALU instructions entering, and leaving, the collector per cycle; also the slots of the "
                "issue and execute registers in front of and behind it (ID_OC_SP, OC_EX_SP)")
        .addInt("sm.collector.sfu_units", 8, "units", 1, 64, "Collector units for SFU instructions")
        .addInt("sm.collector.sfu_ports", 1, "instructions", 1, 8,
                "SFU instructions entering, and leaving, the collector per cycle (and register slots)")
        .addInt("sm.collector.mem_units", 2, "units", 1, 64, "Collector units for memory instructions")
        .addInt("sm.collector.mem_ports", 1, "instructions", 1, 8,
                "Memory instructions entering, and leaving, the collector per cycle (and register slots)")
        .addInt("sm.collector.tensor_units", 4, "units", 1, 64,
                "Collector units for tensor instructions (GPGPU-Sim's "
                "-gpgpu_operand_collector_num_units_tensor_core default)")
        .addInt("sm.collector.tensor_ports", 1, "instructions", 1, 8,
                "Tensor instructions entering, and leaving, the collector per cycle (and register slots)")
        .addEnum("sm.fetch", "every-warp", {"every-warp", "one-warp"},
                 "Instruction fetch per cycle: every warp's buffer with room is topped up, or "
                 "(one-warp, GPGPU-Sim's fetch) one warp fills its buffer, the next after the last "
                 "one served whose buffer is empty")
        .addEnum("sm.store_bytes", "touched", {"touched", "segment"},
                 "The data a store's line access carries to the L2 (its packet size): the bytes its "
                 "lanes touch, or the smallest aligned 32/64/128-B segment holding its touched 32-B "
                 "chunks (GPGPU-Sim's Fermi coalescer)")
        .addInt("sm.atomic_segment_bytes", 32, "bytes", 0, 4096,
                "A global atomic's request granule: lanes in one aligned segment of this size (and on "
                "different bytes) share a request to the L2; 0: the whole L1D line. 32: GPGPU-Sim's "
                "Fermi coalescer for accesses that bypass the L1 (memory_coalescing_arch_atomic with "
                "sector segments), as atomics do; power of two, at most the line")
        .addBool("sm.atomic_blocks_warp", false,
                 "A warp that issued a global atomic (ATOM or RED) issues nothing more until every "
                 "lane's answer is back (GPGPU-Sim's shd_warp_t::waiting with m_n_atomic > 0, kept "
                 "there for its functional model, not for timing); false: only ATOM's destination "
                 "register waits, as on hardware")
        .addInt("sm.response_queue", 8, "packets", 1, 1024,
                "Answers from the NoC waiting for the L1D fill port; full = back-pressure")
        .addInt("l1i.size_bytes", 0, "bytes", 0, 1 << 20,
                "L1 instruction cache capacity; 0: not modelled, every fetch hits (instruction fetches "
                "then cost no time and no traffic)")
        .addInt("l1i.line_bytes", 128, "bytes", 16, 1024, "L1I line size")
        .addInt("l1i.ways", 4, "", 1, 64, "L1I associativity (LRU, allocated when the fill arrives)")
        .addInt("l1i.mshr_entries", 2, "entries", 1, 64, "L1I line reads in flight")
        .addInt("l1i.mshr_max_merge", 32, "fetches", 1, 1024,
                "Fetches one L1I MSHR entry can hold (the first plus merged ones)")
        .addInt("l1i.miss_queue", 4, "requests", 1, 64, "L1I line reads waiting to enter the NoC")
        .addInt("l1i.code_base", 0xF0000000LL, "bytes", 0, int64_t(1) << 48,
                "Address of instruction 0 (instruction addresses are code_base + PC; GPGPU-Sim's "
                "PROGRAM_MEM_START), so fetches find their memory partition and L2 set")
        .addInt("const.size_bytes", 8192, "bytes", 0, 1 << 20,
                "Constant cache capacity per SM (GPGPU-Sim's Fermi/GTX480 -gpgpu_const_cache:l1 "
                "N:64:64:2,L:R:f:N:L,S:2:32,4: 64 sets x 64 B x 2 ways); 0: not modelled, every constant "
                "access hits (its serialisation and hit latency remain)")
        .addInt("const.line_bytes", 64, "bytes", 16, 1024, "Constant cache line size (GPGPU-Sim's Fermi: 64)")
        .addInt("const.ways", 2, "", 1, 64,
                "Constant cache associativity (LRU, allocated when the fill arrives: GPGPU-Sim's 'f')")
        .addInt("const.mshr_entries", 2, "entries", 1, 64, "Constant line reads in flight (GPGPU-Sim's Fermi: 2)")
        .addInt("const.mshr_max_merge", 32, "accesses", 1, 1024,
                "Accesses one constant MSHR entry can hold, the first plus merged ones (GPGPU-Sim's Fermi: 32)")
        .addInt("const.miss_queue", 4, "requests", 1, 64,
                "Constant line reads waiting to enter the NoC (GPGPU-Sim's Fermi: 4)")
        .addInt("const.hit_latency_cycles", 1, "cycles", 1, 1000,
                "Constant cache lookup to the load's completion on a hit. GPGPU-Sim has no such parameter: "
                "a load whose accesses all hit completes in the cycle of its last lookup "
                "(ldst_unit::constant_cycle); here the cycle after")
        .addEnum("const.serialise", "address", {"address", "line"},
                 "What one constant-cache access (one LD/ST cycle) serves: the lanes reading one address "
                 "(address: NVIDIA's rule for compute capability 2.x, a request is split into one per "
                 "distinct address) or the lanes reading one line (line: GPGPU-Sim's, one access per "
                 "distinct const.line_bytes block); distinct ones are serialised, one per cycle")
        .addInt("tex.size_bytes", 12288, "bytes", 0, 1 << 20,
                "Texture cache capacity per SM (GPGPU-Sim's Fermi/GTX480 -gpgpu_tex_cache:l1 "
                "N:4:128:24,L:R:m:N:L,T:128:4,128:2: 4 sets x 128 B x 24 ways); 0: not modelled, every "
                "texture access hits")
        .addInt("tex.line_bytes", 128, "bytes", 16, 1024,
                "Texture cache line size, also what one texture access serves (GPGPU-Sim's Fermi: 128)")
        .addInt("tex.ways", 24, "", 1, 64,
                "Texture cache associativity (LRU; the tag is written at the miss, so later accesses to "
                "the line hit and wait in order for its data: GPGPU-Sim's 'm' and Igehy et al.'s design)")
        .addInt("tex.fragment_fifo", 128, "accesses", 1, 1024,
                "Texture accesses looked up and waiting to leave in order (GPGPU-Sim's fragment FIFO, T:128)")
        .addInt("tex.request_fifo", 4, "requests", 1, 64,
                "Texture line reads waiting to enter the NoC (GPGPU-Sim's request FIFO, T:128:4)")
        .addInt("tex.rob_entries", 128, "requests", 1, 1024,
                "Texture line reads in flight (GPGPU-Sim's reorder buffer, T:128:4,128)")
        .addInt("tex.hit_latency_cycles", 3, "cycles", 1, 1000,
                "Texture lookup to the access's completion when nothing is ahead of it in the fragment "
                "FIFO. GPGPU-Sim has no such parameter: a hit crosses the fragment FIFO, the result "
                "FIFO and the LD/ST unit's writeback register (tex_cache::cycle, ldst_unit::writeback), "
                "about 3 cycles")
        .addInt("l1d.size_bytes", 32768, "bytes", 1024, 1 << 20, "L1 data cache capacity")
        .addInt("l1d.line_bytes", 128, "bytes", 32, 1024, "L1D line size (also the coalescing unit)")
        .addInt("l1d.ways", 8, "", 1, 64, "L1D associativity")
        .addInt("l1d.mshr_entries", 32, "entries", 1, 1024, "L1D miss status holding registers")
        .addInt("l1d.mshr_max_merge", 8, "requests", 1, 64,
                "Accesses one MSHR entry can hold (the first plus merged ones)")
        .addInt("l1d.miss_queue", 8, "requests", 1, 1024,
                "Requests waiting to enter the NoC; full = interconnect stall")
        .addInt("l1d.hit_latency_cycles", 20, "cycles", 1, 1000, "L1D hit latency (approximate)")
        .addBool("l1d.lookup_after_latency", false,
                 "Where the hit latency is spent. false: the tag lookup is made when the access leaves "
                 "the LD/ST unit, a miss is sent at once and only a hit waits the latency. true "
                 "(GPGPU-Sim's l1_latency queue): the access first crosses a pipeline of "
                 "l1d.hit_latency_cycles - 1 one-entry stages, so a miss is sent only after it too, and "
                 "an access the L1D refuses holds the last stage while the stages behind it fill up")
        .addBool("l1d.flush_at_kernel_end", false,
                 "Invalidate every L1D line when a kernel ends, so the next kernel starts cold "
                 "(GPGPU-Sim's -gpgpu_flush_l1_cache; lines hold no dirty data: stores write through)")
        .addEnum("l1d.write_policy", "evict", {"evict", "write-through"},
                 "A store to a valid line invalidates it (evict: the OAWS paper's Fermi baseline) or "
                 "updates it and keeps it (write-through: GPGPU-Sim's policy for global stores, "
                 "-gpgpu_cache:dl1 ...,L:L:...); the store goes to the L2 either way, without allocating")
        .addEnum("l1d.allocation", "on-miss", {"on-miss", "on-fill"},
                 "Reserve the victim line at the miss (Fermi) or choose it when the fill arrives")
        .addEnum("l1d.set_index", "fermi-hash", {"linear", "fermi-hash"},
                 "Set index: line address modulo sets, or GPGPU-Sim's Fermi XOR hash (32 or 64 sets)")
        .addEnum("l1d.replacement", "lru", {"lru", "lpc"},
                 "Replacement: LRU, or CWLP's PC-based locality-protected LPC. A scheduler that needs "
                 "one (--scheduler lpc, cwlp) overrides this key")
        .addCheck([](const Config& c) {
            if (const auto size = c.getInt("l1i.size_bytes"); size > 0) {
                const auto line = c.getInt("l1i.line_bytes"), ways = c.getInt("l1i.ways");
                if (!std::has_single_bit(static_cast<uint64_t>(line)))
                    c.fail("l1i.line_bytes", std::to_string(line) + " is not a power of two");
                if (size % (line * ways) != 0 ||
                    !std::has_single_bit(static_cast<uint64_t>(size / (line * ways))))
                    c.fail("l1i.size_bytes",
                           std::to_string(size) + " is not a power-of-two number of sets of "
                                                  "l1i.line_bytes x l1i.ways (" + std::to_string(line * ways) + ")",
                           {"l1i.line_bytes", "l1i.ways"});
            }
            for (const char* cache : {"const", "tex"}) {
                const std::string p = cache;
                const auto size = c.getInt(p + ".size_bytes");
                if (size == 0) continue;
                const auto line = c.getInt(p + ".line_bytes"), ways = c.getInt(p + ".ways");
                if (!std::has_single_bit(static_cast<uint64_t>(line)))
                    c.fail(p + ".line_bytes", std::to_string(line) + " is not a power of two");
                if (size % (line * ways) != 0 || !std::has_single_bit(static_cast<uint64_t>(size / (line * ways))))
                    c.fail(p + ".size_bytes",
                           std::to_string(size) + " is not a power-of-two number of sets of " + p + ".line_bytes x " +
                               p + ".ways (" + std::to_string(line * ways) + ")",
                           {p + ".line_bytes", p + ".ways"});
            }
            if (c.getBool("l1d.lookup_after_latency") && c.getInt("l1d.hit_latency_cycles") < 2)
                c.fail("l1d.hit_latency_cycles", "must be at least 2 with l1d.lookup_after_latency (the "
                                                 "pipeline in front of the lookup has latency - 1 stages)",
                       {"l1d.lookup_after_latency"});
            const auto size = c.getInt("l1d.size_bytes"), line = c.getInt("l1d.line_bytes"),
                       ways = c.getInt("l1d.ways");
            if (!std::has_single_bit(static_cast<uint64_t>(line)))
                c.fail("l1d.line_bytes", std::to_string(line) + " is not a power of two");
            if (size % (line * ways) != 0)
                c.fail("l1d.size_bytes",
                       std::to_string(size) + " is not divisible by l1d.line_bytes x l1d.ways (" +
                           std::to_string(line * ways) + ")",
                       {"l1d.line_bytes", "l1d.ways"});
            const auto sets = size / (line * ways);
            if (!std::has_single_bit(static_cast<uint64_t>(sets)))
                c.fail("l1d.size_bytes", "gives " + std::to_string(sets) + " sets, not a power of two",
                       {"l1d.line_bytes", "l1d.ways"});
            if (c.getString("l1d.set_index") == "fermi-hash" && sets != 32 && sets != 64)
                c.fail("l1d.set_index", "fermi-hash needs 32 or 64 sets, the geometry gives " + std::to_string(sets),
                       {"l1d.size_bytes", "l1d.line_bytes", "l1d.ways"});
            // The hash is defined on byte-address bits 7-12 and 13-19: with other line sizes some
            // sets are never used (64 B lines, 64 sets: address bit 11 never reaches the index).
            if (c.getString("l1d.set_index") == "fermi-hash" && line != 128)
                c.fail("l1d.set_index", "fermi-hash is defined for 128-byte lines, l1d.line_bytes is " +
                                            std::to_string(line) + " (use linear)",
                       {"l1d.line_bytes"});
            if (c.getInt("sm.collector.register_banks") > 0 && c.getInt("sm.mem_issue_queue") > 0)
                c.fail("sm.mem_issue_queue", "must be 0 with the operand collector (sm.collector.register_banks > "
                                             "0): both model the path from issue to the LD/ST unit",
                       {"sm.collector.register_banks"});
            if (const auto w = c.getInt("sm.shared_bank_bytes"); !std::has_single_bit(static_cast<uint64_t>(w)))
                c.fail("sm.shared_bank_bytes", std::to_string(w) + " is not a power of two");
            if (const auto a = c.getInt("sm.atomic_segment_bytes"); a != 0) {
                if (!std::has_single_bit(static_cast<uint64_t>(a)))
                    c.fail("sm.atomic_segment_bytes", std::to_string(a) + " is not a power of two (or 0)");
                if (a > c.getInt("l1d.line_bytes"))
                    c.fail("sm.atomic_segment_bytes", std::to_string(a) + " exceeds l1d.line_bytes", {"l1d.line_bytes"});
            }
            if (c.getInt("sm.max_threads") > c.getInt("sm.max_warps") * 32)
                c.fail("sm.max_threads", "exceeds sm.max_warps x 32", {"sm.max_warps"});
        });
}

SmConfig SmConfig::from(const Config& c) {
    auto u = [&](const char* k) { return static_cast<unsigned>(c.getInt(k)); };
    SmConfig s;
    s.warpSlots = u("sm.max_warps");
    s.maxThreads = u("sm.max_threads");
    s.maxCtas = u("sm.max_ctas");
    s.registers = u("sm.registers");
    s.sharedMemBytes = u("sm.shared_mem_bytes");
    s.schedulers = u("sm.schedulers");
    s.ibufferEntries = u("sm.ibuffer_entries");
    s.aluUnits = u("sm.alu.units");
    s.aluLatency = u("sm.alu.latency_cycles");
    s.aluInterval = u("sm.alu.interval_cycles");
    s.sfuUnits = u("sm.sfu.units");
    s.sfuLatency = u("sm.sfu.latency_cycles");
    s.sfuInterval = u("sm.sfu.interval_cycles");
    s.tensorUnits = u("sm.tensor.units");
    s.tensorLatency = u("sm.tensor.latency_cycles");
    s.tensorInterval = u("sm.tensor.interval_cycles");
    s.smemLatency = u("sm.smem_latency_cycles");
    s.sharedBanks = u("sm.shared_banks");
    s.sharedBankBytes = u("sm.shared_bank_bytes");
    s.responseQueue = u("sm.response_queue");
    s.fetchOneWarp = c.getString("sm.fetch") == "one-warp";
    s.memIssueQueue = u("sm.mem_issue_queue");
    s.collector.banks = u("sm.collector.register_banks");
    s.collector.units = {u("sm.collector.alu_units"), u("sm.collector.sfu_units"), u("sm.collector.mem_units"),
                         u("sm.collector.tensor_units")};
    s.collector.ports = {u("sm.collector.alu_ports"), u("sm.collector.sfu_ports"), u("sm.collector.mem_ports"),
                         u("sm.collector.tensor_ports")};
    s.storeBytes = c.getChoice<StoreBytes>("sm.store_bytes",
                                           {{"touched", StoreBytes::Touched}, {"segment", StoreBytes::Segment}});
    s.atomicSegmentBytes = u("sm.atomic_segment_bytes");
    s.atomicBlocksWarp = c.getBool("sm.atomic_blocks_warp");
    s.l1iBytes = u("l1i.size_bytes");
    s.l1iLine = u("l1i.line_bytes");
    s.l1iWays = u("l1i.ways");
    s.l1iMshrEntries = u("l1i.mshr_entries");
    s.l1iMshrMaxMerge = u("l1i.mshr_max_merge");
    s.l1iMissQueue = u("l1i.miss_queue");
    s.l1iCodeBase = static_cast<uint64_t>(c.getInt("l1i.code_base"));
    s.constBytes = u("const.size_bytes");
    s.constLine = u("const.line_bytes");
    s.constWays = u("const.ways");
    s.constMshrEntries = u("const.mshr_entries");
    s.constMshrMaxMerge = u("const.mshr_max_merge");
    s.constMissQueue = u("const.miss_queue");
    s.constHitLatency = u("const.hit_latency_cycles");
    s.constSerialise = c.getChoice<ConstSerialise>("const.serialise",
                                                   {{"address", ConstSerialise::Address}, {"line", ConstSerialise::Line}});
    s.texBytes = u("tex.size_bytes");
    s.texLine = u("tex.line_bytes");
    s.texWays = u("tex.ways");
    s.texFragmentFifo = u("tex.fragment_fifo");
    s.texRequestFifo = u("tex.request_fifo");
    s.texRobEntries = u("tex.rob_entries");
    s.texHitLatency = u("tex.hit_latency_cycles");
    s.l1Bytes = u("l1d.size_bytes");
    s.l1Line = u("l1d.line_bytes");
    s.l1Ways = u("l1d.ways");
    s.mshrEntries = u("l1d.mshr_entries");
    s.mshrMaxMerge = u("l1d.mshr_max_merge");
    s.missQueue = u("l1d.miss_queue");
    s.l1HitLatency = u("l1d.hit_latency_cycles");
    s.l1FlushAtKernelEnd = c.getBool("l1d.flush_at_kernel_end");
    s.l1LookupAfterLatency = c.getBool("l1d.lookup_after_latency");
    s.writePolicy = c.getChoice<L1WritePolicy>(
        "l1d.write_policy", {{"evict", L1WritePolicy::Evict}, {"write-through", L1WritePolicy::WriteThrough}});
    s.allocation = c.getChoice<L1Allocation>("l1d.allocation",
                                             {{"on-miss", L1Allocation::OnMiss}, {"on-fill", L1Allocation::OnFill}});
    s.setIndexing = c.getChoice<SetIndexing>("l1d.set_index",
                                             {{"linear", SetIndexing::Linear}, {"fermi-hash", SetIndexing::FermiHash}});
    s.replacement = parseL1Replacement(c.getString("l1d.replacement"));
    return s;
}

} // namespace gpusim
