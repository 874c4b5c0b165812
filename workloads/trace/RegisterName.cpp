#include "workloads/trace/RegisterName.hpp"

#include <charconv>

#include "workloads/WarpInstruction.hpp"

namespace gpusim {

namespace {

struct RegisterFile {
    std::string_view prefix;    // before the number
    std::string_view constant;  // the name of its constant register (RZ, URZ, PT, UPT)
    uint16_t base;
    uint16_t count;
};

// Longest prefix first: "UR" and "UP" before "R" and "P".
constexpr RegisterFile kFiles[] = {
    {"UR", "URZ", kUniformRegisterBase, 64},
    {"UP", "UPT", kUniformPredicateBase, 8},
    {"R", "RZ", 0, 256},
    {"P", "PT", kPredicateBase, 8},
};

} // namespace

std::optional<uint16_t> parseRegisterName(std::string_view name) {
    for (const RegisterFile& f : kFiles) {
        if (name == f.constant) return static_cast<uint16_t>(f.base + f.count - 1);
        if (name.size() <= f.prefix.size() || name.substr(0, f.prefix.size()) != f.prefix) continue;
        const std::string_view digits = name.substr(f.prefix.size());
        if (digits[0] < '0' || digits[0] > '9') continue;  // "UR4" must not be read by "R" as "R" + "4"
        unsigned n = 0;
        const char* end = digits.data() + digits.size();
        auto [p, ec] = std::from_chars(digits.data(), end, n, 10);
        if (p != end || ec != std::errc() || n >= f.count) return std::nullopt;
        return static_cast<uint16_t>(f.base + n);
    }
    return std::nullopt;
}

std::string registerName(uint16_t reg) {
    if (reg < kUniformRegisterBase) return "R" + std::to_string(reg);
    for (const RegisterFile& f : kFiles) {
        if (f.base == 0 || reg < f.base || reg >= f.base + f.count) continue;
        if (reg == f.base + f.count - 1) return std::string(f.constant);
        return std::string(f.prefix) + std::to_string(reg - f.base);
    }
    return "";
}

} // namespace gpusim
