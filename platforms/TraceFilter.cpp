#include "platforms/TraceFilter.hpp"

#include <cctype>

#include "common/SimError.hpp"

namespace gpusim {

namespace {

// A whole non-negative number, all of `s`, or InputError naming the option and the whole value.
uint64_t number(const std::string& s, const std::string& option, const std::string& value) {
    if (s.empty() || s.size() > 19) throw InputError(option + ": '" + value + "': expected a number, got '" + s + "'");
    uint64_t n = 0;
    for (char c : s) {
        if (!std::isdigit(static_cast<unsigned char>(c)))
            throw InputError(option + ": '" + value + "': expected a number, got '" + s + "'");
        n = n * 10 + uint64_t(c - '0');
    }
    return n;
}

} // namespace

uint64_t TraceFilter::toPs(uint64_t periodPs) const {
    if (toCycle == kEnd || periodPs == 0) return kEnd;
    return toCycle > kEnd / periodPs ? kEnd : toCycle * periodPs;
}

TraceFilter TraceFilter::parse(const std::string& window, const std::string& smList, unsigned numSms) {
    TraceFilter f;
    if (!window.empty()) {
        const std::string opt = "--trace-window";
        const size_t colon = window.find(':');
        if (colon == std::string::npos) throw InputError(opt + ": '" + window + "': expected FROM:TO (core cycles)");
        f.fromCycle = number(window.substr(0, colon), opt, window);
        const std::string to = window.substr(colon + 1);
        if (!to.empty()) {
            f.toCycle = number(to, opt, window);
            if (f.toCycle <= f.fromCycle)
                throw InputError(opt + ": '" + window + "': TO must be greater than FROM (TO is excluded)");
        }
    }
    if (!smList.empty()) {
        const std::string opt = "--trace-sms";
        f.sms.assign(numSms, false);
        size_t start = 0;
        while (start <= smList.size()) {
            const size_t comma = smList.find(',', start);
            const std::string item = smList.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
            const size_t dash = item.find('-');
            const uint64_t lo = number(item.substr(0, dash), opt, smList);
            const uint64_t hi = dash == std::string::npos ? lo : number(item.substr(dash + 1), opt, smList);
            if (hi < lo) throw InputError(opt + ": '" + smList + "': range '" + item + "' is empty");
            if (hi >= numSms)
                throw InputError(opt + ": '" + smList + "': SM " + std::to_string(hi) + " does not exist (the platform has " +
                                 std::to_string(numSms) + ": 0-" + std::to_string(numSms - 1) + ")");
            for (uint64_t s = lo; s <= hi; ++s) f.sms[size_t(s)] = true;
            if (comma == std::string::npos) break;
            start = comma + 1;
        }
    }
    return f;
}

} // namespace gpusim
