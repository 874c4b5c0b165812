#pragma once
// SASS opcode -> what the instruction is (SassOpcodeClass), looked up in the opcode table of the
// kernel's instruction-set family (SassFamily.hpp: chosen by `-binary version`). Only the
// mnemonic before the first '.' counts ("LDG.E.128.CONSTANT.SYS" is LDG).
//
// One table row per mnemonic, with the families that have it: the union of Accel-Sim's opcode
// map of that family (gpu-simulator/ISA_Def/*_opcode.h) and NVIDIA's instruction-set reference
// for it (CUDA Binary Utilities), so every opcode either of them lists for a family is known in
// that family. A mnemonic that is not in its family's table runs as ALU and is reported as
// unknown (TraceTally::unknownOpcodes), like one in no table at all: an Ampere opcode such as
// LDGSTS in a Kepler kernel is unknown there.
//
// Two kinds of facts per opcode:
//
// 1. What the instruction is on real hardware (unit, memOp, memSpace, uniform): the functional
//    unit; what it does to memory (load, store, atomic with return, reduction without return,
//    asynchronous copy, cache control); in which space (global, shared, local, generic,
//    constant, texture, surface); whether it runs on the uniform datapath (Turing on: one value
//    per warp, the U* opcodes, S2UR, R2UR, REDUX, VOTEU, ULDC...).
//
// 2. What the SM executes (op, space: WarpInstruction's OpClass and MemSpace), derived from (1)
//    by executedAs(). The SM models an ALU pipeline, the SFU, a tensor pipeline, the LD/ST unit
//    with global, shared and local memory and the constant and texture caches, CTA barriers and
//    EXIT, so:
//      MUFU                                          SFU
//      HMMA IMMA BMMA DMMA, Hopper's HGMMA IGMMA     tensor pipeline (sm.tensor.*; every platform
//      QGMMA BGMMA                                   has one, Fermi's too: docs/architecture.md)
//      BAR (every variant, BAR.ARV included)         CTA barrier
//      EXIT                                          end of the warp when it is the warp's last
//                                                    instruction (an earlier EXIT, lanes leaving
//                                                    under a predicate, becomes ALU: the reader)
//      loads and asynchronous copies of the LD/ST    load in their space (LDG LD LDS LDSM LDL;
//      unit in global, shared, local or generic      LDGSTS, whose trace line carries the
//      memory                                        global read of the global->shared copy;
//                                                    Kepler's LDSLK)
//      stores and reductions there                   store in their space (STG ST STS STSM STL,
//                                                    Kepler's STSCUL; RED global, flagged atomic
//                                                    by the reader; ATOMS shared, a plain store)
//      global atomics ATOM ATOMG                     load in Global, flagged atomic by the reader
//                                                    (WarpInstruction::atomic: done at the L2,
//                                                    the old value returns to the destination
//                                                    register); one without a destination
//                                                    register runs as RED (store-like)
//      generic LD / ST                               global here; the reader resolves them to
//                                                    shared, local or global through the
//                                                    header's windows (GenericAddress.hpp)
//      constant reads LDC, ULDC                      load in Constant (the constant cache)
//      texture fetches TEX TLD TLD4 TXD, Maxwell's   load in Texture (the texture cache)
//      TEXS TLDS TLD4S
//      everything else                               ALU
//    Constant and texture loads need the per-lane addresses of their trace line: Accel-Sim's
//    tracer records addresses only for operands NVBit reports as memory references (MREF),
//    which LDC's c[bank][offset] operand (CBANK) and texture operands are not, so its lines
//    for them have mem_width 0. The reader runs such a line as ALU, as before and as
//    Accel-Sim does (its opcode maps take LDC as ALU_OP, texture ops as a specialised unit),
//    and counts it (TraceTally::constantWithoutAddresses, textureWithoutAddresses).
//    APPROXIMATIONS until the SM models the unit (other work will add them):
//    - shared-memory atomics (ATOMS) are store-like: a shared-memory store of the LD/ST unit, no
//      read-modify-write cost and no register return (global atomics are modelled: the L2
//      slice's read-modify-write unit, memory/L2Slice.hpp);
//    - an atomic's operation (ADD, CAS, EXCH ...) does not change its cost, and CAS's second
//      operand adds no bytes;
//    - surface accesses SULD SUST SURED SUATOM (through the texture path on the hardware) and
//      texture queries TXQ TMML run as ALU: their addresses are checked and dropped;
//    - FP64 and branches run as ALU (one issue, the ALU's latency);
//    - uniform-datapath ops run as ALU (ULDC excepted, above); Hopper's bulk and TMA copies
//      (UBLKCP, UTMALDG, UTMASTG ...) too: their trace lines carry no per-lane addresses;
//    - MEMBAR, DEPBAR, LDGDEPBAR, ERRBAR, FENCE and other ordering ops run as ALU (nothing waits
//      for outstanding memory operations), and cache control (CCTL) too.
//    Generic ATOM and RED are taken as global, as Accel-Sim does (it resolves only LD and ST).
#include <string_view>
#include <vector>

#include "workloads/WarpInstruction.hpp"
#include "workloads/trace/SassFamily.hpp"

namespace gpusim {

// The functional unit an instruction occupies on real hardware.
enum class SassUnit : uint8_t {
    Alu,      // integer, FP32, FP16, conversion, move, predicate, video, graphics, misc
    Fp64,     // double precision (DADD DFMA DMUL DSETP ...)
    Sfu,      // MUFU
    Tensor,   // matrix multiply-accumulate (HMMA IMMA BMMA DMMA, Hopper's *GMMA)
    Branch,   // control flow (BRA CALL RET BSSY WARPSYNC ...)
    Memory,   // LD/ST unit: loads, stores, atomics, constant reads, cache control, bulk copies
    Texture,  // texture and surface operations
    Fence,    // memory ordering and dependency barriers (MEMBAR DEPBAR LDGDEPBAR ERRBAR ...)
    Barrier,  // BAR: CTA barrier
    Exit,     // EXIT
};

// What an instruction does to memory.
enum class SassMemOp : uint8_t {
    None,
    Load,
    Store,
    Atomic,        // read-modify-write returning the old value (ATOM ATOMG ATOMS SUATOM)
    Reduction,     // read-modify-write without a result (RED SURED UBLKRED UTMAREDG)
    AsyncCopy,     // global -> shared without registers (LDGSTS, UBLKCP, UTMALDG)
    CacheControl,  // CCTL CCTLL CCTLT, prefetches
};

// The memory space an instruction addresses (a superset of MemSpace).
enum class SassSpace : uint8_t { None, Global, Shared, Local, Generic, Constant, Texture, Surface };

struct SassOpcodeClass {
    // What the SM executes (executedAs(); see the header comment).
    OpClass op = OpClass::Alu;
    MemSpace space = MemSpace::Global;
    bool known = false;  // false: not in the family's table; runs as ALU, facts below are defaults
    bool isExit = false;
    // What the instruction is.
    SassUnit unit = SassUnit::Alu;
    SassMemOp memOp = SassMemOp::None;
    SassSpace memSpace = SassSpace::None;
    bool uniform = false;  // uniform datapath (one value per warp)

    bool atomic() const { return memOp == SassMemOp::Atomic || memOp == SassMemOp::Reduction; }
    // A generic LD/ST: the reader resolves its space through the header's windows.
    bool generic() const { return memSpace == SassSpace::Generic && (op == OpClass::Load || op == OpClass::Store); }
};

// The mnemonic of a full opcode: "LDG.E.64" -> "LDG".
std::string_view sassMnemonic(std::string_view opcode);

// Classifies with the table of the family `table` chose (every family's without a version).
SassOpcodeClass classifySass(std::string_view opcode, const SassTableChoice& table);
// The same with the family of `binaryVersion` (chooseSassTable); kNoBinaryVersion: every family.
SassOpcodeClass classifySass(std::string_view opcode, uint64_t binaryVersion = kNoBinaryVersion);

// The OpClass and MemSpace the SM executes an instruction with these facts as (fills op, space
// and isExit of `c` from unit, memOp, memSpace and uniform).
void executedAs(SassOpcodeClass& c);

// Every mnemonic in `family`'s table, in table order (for tests and documentation).
std::vector<std::string_view> sassFamilyMnemonics(SassFamily family);

} // namespace gpusim
