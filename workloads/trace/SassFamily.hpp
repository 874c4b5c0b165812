#pragma once
// SASS instruction-set families, and the one a kernel's `-binary version` selects.
//
// NVIDIA documents SASS one family at a time (CUDA Binary Utilities, "Instruction Set
// Reference"), and Accel-Sim's trace-driven frontend keeps one opcode map per family
// (gpu-simulator/ISA_Def/kepler_opcode.h ... hopper_opcode.h), chosen by the kernel header's
// `-binary version`: the SM version the kernel was compiled for, major x 10 + minor.
//
//   family           binary versions     Accel-Sim's map taken for
//   Kepler           30 32 35 37         35
//   Maxwell/Pascal   50 52 53 60 61 62   60 61 (its pascal map; NVIDIA documents one
//                                        instruction set for Maxwell and Pascal)
//   Volta            70 72               70 (72, Xavier, in newer versions)
//   Turing           75                  75
//   Ampere           80 86 87 89         80 86 (NVIDIA documents Ada, 89, with Ampere)
//   Hopper           90                  90
//
// A version missing from this list (Fermi's 20, a future 100, a typo) has no table of its own.
// Accel-Sim stops there ("unsupported binary version"); we take the nearest older family's
// table, since most opcodes carry over from one family to the next, and the choice is reported
// at the end of the run (TraceWorkload). A version older than Kepler takes Kepler's table, the
// oldest: neither NVBit nor Accel-Sim traces Fermi, so there is no Fermi table to take.
// No `-binary version` key at all (0, which no GPU has) selects every family's table: an opcode
// is known when any family has it, which is what the reader did before it had families.
#include <cstdint>
#include <string_view>

namespace gpusim {

enum class SassFamily : uint8_t { Kepler, MaxwellPascal, Volta, Turing, Ampere, Hopper };
inline constexpr unsigned kSassFamilyCount = 6;

// A set of families, bit f for SassFamily f.
using SassFamilyMask = uint8_t;
inline constexpr SassFamilyMask kEverySassFamily = (1u << kSassFamilyCount) - 1;

constexpr SassFamilyMask sassFamilyBit(SassFamily f) { return static_cast<SassFamilyMask>(1u << unsigned(f)); }

// "Kepler", "Maxwell/Pascal", "Volta", "Turing", "Ampere", "Hopper".
std::string_view sassFamilyName(SassFamily f);

// `-binary version` value of a header without that key.
inline constexpr uint64_t kNoBinaryVersion = 0;

// The opcode table(s) a kernel's instructions are classified with.
struct SassTableChoice {
    uint64_t binaryVersion = kNoBinaryVersion;  // as the header gives it
    SassFamilyMask families = kEverySassFamily;  // one family's bit, or every bit without a version
    SassFamily family = SassFamily::Hopper;       // the chosen family (meaningful when one is chosen)
    bool substituted = false;  // the version has no table: the nearest older family's ...
    bool beforeOldest = false;  // ... or, older than every family, the oldest's (Kepler)

    bool oneFamily() const { return families != kEverySassFamily; }
};

SassTableChoice chooseSassTable(uint64_t binaryVersion);

} // namespace gpusim
