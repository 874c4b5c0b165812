#pragma once
// One instruction line of an Accel-Sim trace (tracer versions 3 to 5, after post-processing):
//
//   [line_num] PC mask dest_num [Rd...] OPCODE src_num [Rs...] mem_width [mode addresses] [imm]
//
// - line_num (decimal) only when the header says `-enable lineinfo = 1`.
// - PC and mask in hex (the tracer prints "%04x" and "%08x"; a 0x prefix is accepted too).
// - registers R0..R255; R255 is RZ, kept as 255 (the scoreboard never blocks on it). At most 2
//   destinations and 5 sources (the tracer's own limits are 1 and 5); the model keeps 4 sources,
//   a fifth is dropped.
// - mem_width 0: no memory access. Otherwise the bytes per lane (1, 2, 4, 8 or 16), then one of
//   the tracer's address encodings for the active lanes, in lane order:
//     0  one hex address per active lane
//     1  hex base and decimal stride: the active lanes form one run of lanes whose addresses
//        step by the stride (the tracer writes `1 0x0 0` for an empty mask)
//     2  hex base (first active lane) and one decimal delta per further active lane, each from
//        the previous active lane's address
// - version 5 may end with a decimal immediate, which the model does not use.
// Anything else (a missing or extra field, bad hex, a count that does not match) throws
// InputError with the reason; the caller adds "file:line: ".
#include <string_view>

#include "workloads/WarpInstruction.hpp"
#include "workloads/trace/SassOpcodes.hpp"

namespace gpusim {

struct TraceLineFormat {
    unsigned version = 5;   // -accelsim tracer version (3 to 5)
    bool lineinfo = false;  // -enable lineinfo
};

struct ParsedLine {
    WarpInstruction inst;     // op/space from the opcode table; EXIT gives OpClass::Exit
    std::string_view opcode;  // the full opcode token (a view into the line)
    SassOpcodeClass cls;
};

void parseInstructionLine(std::string_view line, const TraceLineFormat& fmt, ParsedLine& out);

} // namespace gpusim
