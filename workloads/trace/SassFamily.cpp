#include "workloads/trace/SassFamily.hpp"

#include <iterator>

namespace gpusim {

namespace {

struct VersionFamily {
    uint64_t binaryVersion;
    SassFamily family;
};

// Every SM version of each family (CUDA's compute capabilities), ascending.
constexpr VersionFamily kVersions[] = {
    {30, SassFamily::Kepler},        {32, SassFamily::Kepler},        {35, SassFamily::Kepler},
    {37, SassFamily::Kepler},        {50, SassFamily::MaxwellPascal}, {52, SassFamily::MaxwellPascal},
    {53, SassFamily::MaxwellPascal}, {60, SassFamily::MaxwellPascal}, {61, SassFamily::MaxwellPascal},
    {62, SassFamily::MaxwellPascal}, {70, SassFamily::Volta},         {72, SassFamily::Volta},
    {75, SassFamily::Turing},        {80, SassFamily::Ampere},        {86, SassFamily::Ampere},
    {87, SassFamily::Ampere},        {89, SassFamily::Ampere},        {90, SassFamily::Hopper},
};

constexpr bool ascending() {
    for (size_t i = 1; i < std::size(kVersions); ++i)
        if (!(kVersions[i - 1].binaryVersion < kVersions[i].binaryVersion)) return false;
    return true;
}
static_assert(ascending(), "kVersions must be in ascending order: the nearest older one is searched");

} // namespace

std::string_view sassFamilyName(SassFamily f) {
    switch (f) {
    case SassFamily::Kepler: return "Kepler";
    case SassFamily::MaxwellPascal: return "Maxwell/Pascal";
    case SassFamily::Volta: return "Volta";
    case SassFamily::Turing: return "Turing";
    case SassFamily::Ampere: return "Ampere";
    case SassFamily::Hopper: return "Hopper";
    }
    return "?";
}

SassTableChoice chooseSassTable(uint64_t binaryVersion) {
    SassTableChoice c;
    c.binaryVersion = binaryVersion;
    if (binaryVersion == kNoBinaryVersion) return c;  // every family's table
    // The oldest family unless a listed version is at or below this one: then the nearest.
    const VersionFamily* best = &kVersions[0];
    for (const VersionFamily& v : kVersions)
        if (v.binaryVersion <= binaryVersion) best = &v;
    c.family = best->family;
    c.families = sassFamilyBit(best->family);
    c.substituted = best->binaryVersion != binaryVersion;
    c.beforeOldest = binaryVersion < kVersions[0].binaryVersion;
    return c;
}

} // namespace gpusim
