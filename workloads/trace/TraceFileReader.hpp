#pragma once
// One kernel-N.traceg file (Accel-Sim, after post-processing), read front to back: the header,
// then one thread-block section at a time.
//
//   -kernel name = NAME              -kernel id = N            -grid dim = (X,Y,Z)
//   -block dim = (X,Y,Z)             -shmem = BYTES            -nregs = N
//   -binary version = N              -cuda stream id = N       -shmem base_addr = 0xHEX
//   -local mem base_addr = 0xHEX     -nvbit version = TEXT     -accelsim tracer version = 3..6
//   -enable lineinfo = 0|1
//   #traces format = ...             (the instruction-line layout, parseTracesFormat in
//                                     InstructionLine.hpp; any other '#' line outside a section
//                                     is a comment)
//   #BEGIN_TB
//   thread block = X,Y,Z
//   warp = W
//   insts = M
//   M instruction lines (InstructionLine.hpp)
//   ... one warp = / insts = group per warp of the block ...
//   #END_TB
//
// Required header keys: kernel name, grid dim, block dim, accelsim tracer version; the others
// default to 0 (lineinfo off). The instruction-line layout (immediates, version 6's Val|NoVal
// values) comes from the `#traces format` line when there is one, checked as soon as it is read
// (an unknown field is an error at that line, as is a second such line); without one, from the
// tracer version (versionTail). Whether lines start with a source line number is always
// -enable lineinfo's. A key given twice is an error; keys not listed are ignored, as
// Accel-Sim does. Sections come in linear block order (x fastest), which is the order
// Accel-Sim's post-processing writes them and the order the CTA dispatcher asks for them; a
// section for another block is an error. Every warp of the block appears once (any order);
// `cluster ...` lines (newer post-processing) are ignored.
//
// Opcodes are classified with the table of the family `-binary version` selects, and generic
// LD / ST resolved through `-shmem base_addr` and `-local mem base_addr` (decoding()); unknown
// opcodes and generic accesses are counted in the TraceTally.
//
// Per warp: an EXIT that is not the warp's last instruction (lanes leaving under a predicate)
// becomes ALU; a warp whose last instruction is not EXIT (or that has none) gets one appended
// at the next PC with every existing lane, since a warp ends only with an Exit.
//
// Read with a window (readThreadBlock's `keep`), a warp's PackedWarp holds only its first `keep`
// instructions and its WarpRest says where the others are (TraceWarpStream reads them later, a
// window at a time); every line is still parsed and counted while the section is read, so the
// errors and the tally are those of a whole read.
//
// Errors throw InputError "FILE:LINE: reason".
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "workloads/Kernel.hpp"
#include "workloads/trace/InstructionLine.hpp"
#include "workloads/trace/LineReader.hpp"
#include "workloads/trace/PackedWarp.hpp"

namespace gpusim {

struct KernelTraceHeader {
    std::string kernelName;
    uint64_t kernelId = 0;
    Dim3 grid, block;
    uint64_t shmem = 0;
    uint64_t nregs = 0;
    uint64_t binaryVersion = 0;
    uint64_t cudaStreamId = 0;
    uint64_t shmemBaseAddr = 0;
    uint64_t localMemBaseAddr = 0;
    std::string nvbitVersion;
    unsigned tracerVersion = 0;
    bool lineinfo = false;
    std::string tracesFormat;  // the `#traces format = ...` text, if present (sets the line layout)
};

// The instruction lines of a warp that a windowed section read left in the file.
struct WarpRest {
    uint64_t remaining = 0;  // instructions not in the warp's PackedWarp (0: it holds them all)
    uint64_t offset = 0;     // offset in the decoded text of the line of the first of them
    uint64_t line = 0;       // that line's number
    uint64_t end = 0;        // offset of the line after the warp's last instruction line
    uint32_t exitMask = 0;   // the lanes of the EXIT appended to a warp that does not end with one
};

struct ThreadBlockTrace {
    Dim3 coords;
    std::vector<PackedWarp> warps;  // index = warp in the block
    std::vector<WarpRest> rest;     // index = warp in the block
    uint64_t end = 0;               // offset of the section's #END_TB line
};

// Facts gathered while reading, reported at the end of a run. Sorted maps: deterministic output.
struct TraceTally {
    using OpcodeCounts = std::map<std::string, uint64_t, std::less<>>;  // mnemonic -> instructions
    OpcodeCounts unknownOpcodes;  // not in the opcode table of their kernel's family
    std::map<uint64_t, OpcodeCounts> unknownOpcodesByVersion;  // by -binary version (0: none)
    uint64_t unknownInstructions = 0;
    uint64_t appendedExits = 0;  // warps that ended without EXIT
    // -binary version -> the table its kernels used, for versions without a table of their own
    // (SassFamily.hpp); filled when the workload reads the headers.
    std::map<uint64_t, SassTableChoice> substitutedVersions;
    // Generic LD / ST by the space the header's windows gave them (GenericAddress.hpp).
    uint64_t genericGlobal = 0, genericShared = 0, genericLocal = 0;
    uint64_t genericMixedWindows = 0;    // active lanes in different windows: the first lane's space
    uint64_t genericWithoutWindows = 0;  // in kernels whose header gives neither window: global
    // Constant (LDC, ULDC) and texture (TEX, TLD, ...) loads: with addresses, through the SM's
    // constant and texture caches; without (mem_width 0, Accel-Sim's tracer), run as ALU.
    uint64_t constantLoads = 0, textureLoads = 0;
    uint64_t constantWithoutAddresses = 0, textureWithoutAddresses = 0;
};

class TraceFileReader {
public:
    // Reads the header (up to the first #BEGIN_TB).
    explicit TraceFileReader(std::unique_ptr<LineReader> in);

    const KernelTraceHeader& header() const { return header_; }
    // The instruction-line layout in use (tail set when the file has a #traces format line).
    const TraceLineFormat& lineFormat() const { return format_; }
    // The opcode table and generic windows, from -binary version and the window bases.
    const TraceDecoding& decoding() const { return decoding_; }
    const std::string& name() const { return in_->name(); }
    // Reads the next section, which must be block `ctaId` (linear index, x fastest), keeping at
    // most `keep` instructions per warp in `out.warps` (the rest: `out.rest`).
    void readThreadBlock(uint64_t ctaId, ThreadBlockTrace& out, TraceTally& tally, uint64_t keep = UINT64_MAX);
    // True for a trimmed line a section may hold among a warp's instruction lines without ending
    // them: blank, or cluster coordinates.
    static bool skippedAmongInstructions(std::string_view line);
    // After the last block: checks that nothing but blank and comment lines follows.
    void expectEnd();

private:
    void readHeader();
    [[noreturn]] void fail(const std::string& reason) const;
    void finishWarp(ThreadBlockTrace& tb, unsigned warp, TraceTally& tally) const;
    void countUnknown(TraceTally& tally) const;  // of the line in scratch_
    void countGeneric(TraceTally& tally) const;
    void countReadOnly(TraceTally& tally) const;  // constant and texture loads

    std::unique_ptr<LineReader> in_;
    KernelTraceHeader header_;
    TraceLineFormat format_;
    TraceDecoding decoding_;
    unsigned warpsPerCta_ = 0;
    bool pendingBegin_ = false;  // the header ended on a #BEGIN_TB line not yet consumed
    uint64_t blocksRead_ = 0;
    ParsedLine scratch_;
};

} // namespace gpusim
