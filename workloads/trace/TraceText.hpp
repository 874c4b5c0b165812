#pragma once
// Small pieces of text handling that the trace readers share (TraceFileReader, KernelsList,
// InstructionLine): trimming a field, quoting an offending token in an error message, and a
// strict unsigned parse. Kept in one place so that every reader trims, quotes and rejects alike.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gpusim::trace_text {

// Blanks and tabs off both ends (trace files use both; nothing else counts as space).
inline std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

// 't' in quotes for an error message, cut after `shown` characters: a garbage token may be long,
// and the message's FILE:LINE finds the rest.
inline std::string quoted(std::string_view t, std::size_t shown) {
    return "'" + std::string(t.substr(0, shown)) + (t.size() > shown ? "...'" : "'");
}

// The whole of `t` as an unsigned number in `base` (an optional 0x/0X prefix in base 16), or
// false: no sign, no blanks, no trailing characters, no overflow.
inline bool parseU64(std::string_view t, uint64_t& v, int base = 10) {
    if (base == 16 && t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) t.remove_prefix(2);
    const char* end = t.data() + t.size();
    auto [p, ec] = std::from_chars(t.data(), end, v, base);
    return !t.empty() && p == end && ec == std::errc();
}

} // namespace gpusim::trace_text
