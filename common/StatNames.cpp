#include "common/StatNames.hpp"

#include <cctype>
#include <vector>

namespace gpusim {

namespace {

std::vector<std::string> components(const std::string& name) {
    std::vector<std::string> out;
    size_t from = 0;
    for (size_t dot; (dot = name.find('.', from)) != std::string::npos; from = dot + 1)
        out.push_back(name.substr(from, dot - from));
    out.push_back(name.substr(from));
    return out;
}

// Length of `c` without its trailing index, or c.size() when it has none (or is "l1", "l2").
size_t stemLength(const std::string& c) {
    size_t n = c.size();
    while (n > 0 && std::isdigit(static_cast<unsigned char>(c[n - 1]))) --n;
    if (n == c.size() || n == 0) return c.size();
    for (size_t i = 0; i < n; ++i)
        if (!std::islower(static_cast<unsigned char>(c[i])) && c[i] != '_') return c.size();
    if (c.compare(0, n, "l") == 0) return c.size();  // a cache level, not an instance
    return n;
}

bool contains(const std::string& s, const char* part) { return s.find(part) != std::string::npos; }
bool endsWith(const std::string& s, const std::string& end) {
    return s.size() >= end.size() && s.compare(s.size() - end.size(), end.size(), end) == 0;
}

// The clock a unit kind counts its cycles in.
std::string clockOf(const std::string& kind) {
    if (kind == "noc") return "NoC cycles";
    if (kind == "l2") return "L2 cycles";
    if (kind == "mem") return "DRAM cycles";
    return "core cycles";
}

} // namespace

std::string statPattern(const std::string& name) {
    std::string out;
    for (const std::string& c : components(name)) {
        if (!out.empty()) out += '.';
        const size_t n = stemLength(c);
        out += n == c.size() ? c : c.substr(0, n) + "*";
    }
    return out;
}

std::string statKind(const std::string& name) {
    const std::string first = components(name).front();
    return first.substr(0, stemLength(first));
}

std::string statUnit(const std::string& name) {
    const std::vector<std::string> cs = components(name);
    const std::string& leaf = cs.back();
    const std::string kind = statKind(name);
    // Named like a duration but counting events: answers refused, not cycles.
    if (endsWith(name, ".noc.answer_full_cycles")) return "count";
    if (leaf == "start_cycle" || leaf == "end_cycle" || leaf == "first_start_cycle" || leaf == "last_end_cycle")
        return "core cycle";
    if (leaf == "stream") return "id";
    if (contains(leaf, "cycles") || contains(leaf, "latency")) return clockOf(kind);
    if (contains(leaf, "rate") || leaf == "bus_utilisation") return "fraction";
    if (leaf == "flits" || leaf == "buffer_occupancy") return "flits";
    if (leaf == "packets") return "packets";
    if (leaf == "bank_parallelism") return "banks";
    if (leaf == "mshr_occupancy") return "MSHR entries";
    if (leaf == "oaws_ocw") return "warps";
    if (leaf == "atomic_lanes") return "lanes";
    if (leaf == "oaws_divergent_sets") return "sets";
    return "count";
}

} // namespace gpusim
