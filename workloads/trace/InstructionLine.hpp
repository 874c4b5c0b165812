#pragma once
// One instruction line of an Accel-Sim trace (tracer versions 3 to 6, after post-processing):
//
//   [line_num] PC mask dest_num [Rd...] OPCODE src_num [Rs...] mem_width [mode addresses] TAIL
//
// - line_num (decimal) only when the header says `-enable lineinfo = 1`.
// - PC and mask in hex (the tracer prints "%04x" and "%08x"; a 0x prefix is accepted too).
// - registers by name (RegisterName.hpp): R0..R255 (R255 = RZ), UR0..UR63 (URZ), P0..P7 (PT),
//   UP0..UP7 (UPT), as numbers of WarpInstruction.hpp's namespace (the scoreboard never blocks on
//   RZ, URZ, PT, UPT). At most 2 destinations and 5 sources (the tracer's own limits are 1 and
//   5); the model keeps 4 sources, a fifth is dropped (its values are still checked).
// - mem_width 0: no memory access (a constant or texture load without addresses then runs as
//   ALU; another load or store is an error). Otherwise the bytes per lane (1, 2, 4, 8 or 16),
//   then one of the tracer's address encodings for the active lanes, in lane order:
//     0  one hex address per active lane
//     1  hex base and decimal stride: the active lanes form one run of lanes whose addresses
//        step by the stride (the tracer writes `1 0x0 0` for an empty mask)
//     2  hex base (first active lane) and one decimal delta per further active lane, each from
//        the previous active lane's address
// - TAIL, described by TraceLineTail (from the file's `#traces format` line, parseTracesFormat,
//   or else the tracer version's documented layout, versionTail):
//     immediates   0, 1 or 2 decimal immediates (signed or unsigned 64-bit), not used
//     Val|NoVal    tracer version 6: `NoVal`, or `Val` and register values (hex), checked, not
//                  used. When the format line lists them one by one ([dest_val_num] [dest_val]
//                  ... [src_val1_num] [src_val1] ...): for each destination and then each source
//                  register, the count (decimal: the active lanes, or 32) and that many values.
//                  Otherwise one flat list: the destination registers' values, one per active
//                  lane or one per lane (32) for each destination, in register then lane order.
// The opcode is classified with the kernel's opcode table (TraceDecoding::opcodes, from
// `-binary version`: SassOpcodes.hpp), and a generic LD / ST goes to shared, local or global
// memory by its addresses and the header's windows (TraceDecoding::windows: GenericAddress.hpp).
// Anything else (a missing or extra field, bad hex, a count that does not match) throws
// InputError with the reason; the caller adds "file:line: ".
#include <cstdint>
#include <optional>
#include <string_view>

#include "workloads/WarpInstruction.hpp"
#include "workloads/trace/GenericAddress.hpp"
#include "workloads/trace/SassOpcodes.hpp"

namespace gpusim {

// What follows the memory addresses on every line.
struct TraceLineTail {
    uint8_t immediates = 0;          // 0, 1 or 2
    bool immediatesOptional = false; // true only for version 5 without a #traces format line
    bool values = false;             // Val|NoVal [values] (tracer version 6)
    bool valueCounts = false;        // the values as counted lists per register (see below)
    bool operator==(const TraceLineTail&) const = default;
};

struct TraceLineFormat {
    unsigned version = 5;   // -accelsim tracer version (3 to 6)
    bool lineinfo = false;  // -enable lineinfo
    std::optional<TraceLineTail> tail;  // from the #traces format line; empty: versionTail(version)

    TraceLineFormat(unsigned v = 5, bool li = false, std::optional<TraceLineTail> t = std::nullopt)
        : version(v), lineinfo(li), tail(t) {}
};

// The documented layout of a tracer version, for a file without a #traces format line:
// 3 and 4 no immediate; 5 one optional immediate (older version-5 files may lack it);
// 6 two immediates and Val|NoVal.
TraceLineTail versionTail(unsigned version);

// The line layout named by the text after `#traces format =`. Accepted, in this order:
//   [threadblock_x threadblock_y threadblock_z warpid_tb cluster_*...]  (raw-trace fields that
//        post-processing removes from every line; the header keeps naming them)
//   [line_num] or line_num  (present on the lines when -enable lineinfo = 1, whatever the
//        format line says, as Accel-Sim reads it)
//   PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?]
//        [mem_addresses]  (exactly; [addresscompress?] is accepted for the address mode)
//   then nothing, `immediate`, or `immediate1 immediate2`
//   then optionally `Val|NoVal`, optionally followed by one bracketed name of the values
//        containing "val" (e.g. [dest_val_n]: one flat list), or by the value fields one by one
//        as tracer version 6 prints them: [dest_val_num] [dest_val] ... [src_val1_num]
//        [src_val1] ... [...] [src_valX_num] [src_valX] ... (counted lists, valueCounts)
// Anything else throws InputError "#traces format: reason"; the caller adds "file:line: ".
TraceLineTail parseTracesFormat(std::string_view text);

// What decodes a line beyond its layout: the kernel's opcode table and generic windows.
struct TraceDecoding {
    SassTableChoice opcodes;  // default: every family's table (no -binary version)
    GenericWindows windows;   // default: none (generic LD / ST stay global)
};

struct ParsedLine {
    WarpInstruction inst;     // op/space from the opcode table; EXIT gives OpClass::Exit
    std::string_view opcode;  // the full opcode token (a view into the line)
    SassOpcodeClass cls;
    bool genericMixed = false;  // generic LD / ST whose active lanes fell in different windows
};

void parseInstructionLine(std::string_view line, const TraceLineFormat& fmt, ParsedLine& out,
                          const TraceDecoding& decoding = TraceDecoding{});

} // namespace gpusim
