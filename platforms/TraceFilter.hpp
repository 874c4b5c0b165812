#pragma once
// What the run traces (--trace-tlm, --trace-warps) keep: a window of core cycles and a set of
// SMs. Parsed from `--trace-window FROM:TO` (core cycles, FROM included, TO excluded; TO empty:
// to the end of the run) and `--trace-sms LIST` (SM ids and ranges: "0,3-5"). Without either,
// everything is kept. A malformed value or an SM the platform does not have is an InputError
// naming the option.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace gpusim {

struct TraceFilter {
    static constexpr uint64_t kEnd = std::numeric_limits<uint64_t>::max();
    uint64_t fromCycle = 0, toCycle = kEnd;  // [fromCycle, toCycle)
    std::vector<bool> sms;                   // sms[i]: SM i traced; empty: every SM

    bool inWindow(uint64_t cycle) const { return cycle >= fromCycle && cycle < toCycle; }
    bool smKept(int sm) const { return sms.empty() || (sm >= 0 && size_t(sm) < sms.size() && sms[size_t(sm)]); }
    bool everySm() const { return sms.empty(); }
    // The window in simulated picoseconds, for a core clock of `periodPs` (cycle k covers
    // [k * periodPs, (k + 1) * periodPs), as ClockDomain::cycle() counts).
    uint64_t fromPs(uint64_t periodPs) const { return fromCycle * periodPs; }
    uint64_t toPs(uint64_t periodPs) const;

    // `window`: "" (everything) or "FROM:TO"; `smList`: "" (every SM) or "0,3-5", each below numSms.
    static TraceFilter parse(const std::string& window, const std::string& smList, unsigned numSms);
};

} // namespace gpusim
