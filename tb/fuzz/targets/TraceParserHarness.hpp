#pragma once
// What the trace-parser fuzz target does with one input, shared with the regression replay in
// tb/unit/workloads/trace_fuzz_regression_test.cpp (which runs it under g++ without libFuzzer).
//
// The input is read as a kernel-N.traceg file (xz-compressed when it starts with the xz magic):
// the header, then every thread-block section the grid promises, then the end check; also as a
// kernelslist.g, and each of its lines as an instruction line of tracer versions 3, 5 and 6
// (each version's layout without a #traces format line; a file's own format line is read with
// the file). Input
// errors (InputError) are the expected outcome for most inputs; any other exception, a crash,
// or a broken invariant (below) is a finding.
//
// Invariant checked: an instruction line that parses, written back by the trace exporter and
// parsed again, gives the same instruction (the exporter and the reader agree).
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "common/SimError.hpp"
#include "workloads/trace/InstructionLine.hpp"
#include "workloads/trace/KernelsList.hpp"
#include "workloads/trace/LineReader.hpp"
#include "workloads/trace/TraceFileReader.hpp"
#include "workloads/trace/TraceWriter.hpp"

namespace gpusim::fuzz {

inline bool sameInstruction(const WarpInstruction& a, const WarpInstruction& b) {
    if (a.pc != b.pc || a.op != b.op || a.activeMask != b.activeMask || a.numDst != b.numDst ||
        a.numSrc != b.numSrc || a.accessBytes != b.accessBytes)
        return false;
    for (unsigned i = 0; i < a.numDst; ++i)
        if (a.dst[i] != b.dst[i]) return false;
    for (unsigned i = 0; i < a.numSrc; ++i)
        if (a.src[i] != b.src[i]) return false;
    if (a.isMemory()) {
        if (a.space != b.space) return false;
        for (unsigned lane = 0; lane < kWarpSize; ++lane)
            if ((a.activeMask >> lane & 1u) && a.addr[lane] != b.addr[lane]) return false;
    }
    return true;
}

inline void checkLineRoundTrip(std::string_view line, unsigned version) {
    ParsedLine p;
    try {
        parseInstructionLine(line, {version, false}, p);
    } catch (const InputError&) {
        return;
    }
    // The exporter writes classes, not opcodes: an EXIT is written as EXIT, an unknown opcode
    // as the ALU representative, so compare what the model keeps.
    ParsedLine q;
    try {
        parseInstructionLine(formatInstructionLine(p.inst), {5, false}, q);
    } catch (const InputError&) {
        std::abort();  // the reader rejects the exporter's own output
    }
    if (!sameInstruction(p.inst, q.inst)) std::abort();
}

inline void runTraceParser(const uint8_t* data, size_t size) {
    const std::string_view bytes(reinterpret_cast<const char*>(data), size);
    try {
        TraceFileReader r(LineReader::fromMemory("fuzz.traceg", bytes));
        ThreadBlockTrace tb;
        TraceTally tally;
        const uint64_t blocks = r.header().grid.size();
        for (uint64_t c = 0; c < blocks; ++c) {
            r.readThreadBlock(c, tb, tally);
            WarpInstruction in;
            for (const PackedWarp& w : tb.warps)
                for (size_t pos = 0; w.read(pos, in);) {
                }
        }
        r.expectEnd();
    } catch (const InputError&) {
    }
    try {
        auto in = LineReader::fromMemory("kernelslist.g", bytes);
        parseKernelsList(*in, "dir");
    } catch (const InputError&) {
    }
    try {
        auto in = LineReader::fromMemory("lines", bytes);
        std::string_view line;
        for (unsigned n = 0; n < 256 && in->next(line);) {
            if (line.empty() || line[0] == '#' || line[0] == '-') continue;
            checkLineRoundTrip(line, 3);
            checkLineRoundTrip(line, 5);
            checkLineRoundTrip(line, 6);
            ++n;
        }
    } catch (const InputError&) {
    }
}

} // namespace gpusim::fuzz
