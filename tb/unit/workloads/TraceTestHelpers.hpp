#pragma once
// Shared by the trace reader's tests: read a whole trace file given as text.
#include <cstdint>
#include <string>

#include "common/SimError.hpp"
#include "workloads/trace/LineReader.hpp"
#include "workloads/trace/TraceFileReader.hpp"

namespace gpusim::test {

// Reads every thread-block section of `text` (as file "k.traceg") and the end of the file;
// returns the InputError's message, or "" when the file is well formed.
inline std::string traceReadError(const std::string& text) {
    try {
        TraceFileReader r(LineReader::fromMemory("k.traceg", text));
        ThreadBlockTrace tb;
        TraceTally tally;
        for (uint64_t c = 0; c < r.header().grid.size(); ++c) r.readThreadBlock(c, tb, tally);
        r.expectEnd();
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

} // namespace gpusim::test
