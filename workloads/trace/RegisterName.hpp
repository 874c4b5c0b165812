#pragma once
// The register operands of an Accel-Sim trace line, by name, to and from the numbers of
// WarpInstruction.hpp's register namespace. The names are SASS's, as NVBit's operand types give
// them (REG, UREG, PRED, UPRED with their number; RZ, URZ, PT, UPT the constants):
//   R0 .. R255 (R255 = RZ), RZ, UR0 .. UR63 (UR63 = URZ), URZ, P0 .. P7 (P7 = PT), PT,
//   UP0 .. UP7 (UP7 = UPT), UPT
// Accel-Sim's own tracer prints every register it reports as "R%d" of the operand's number, so
// its traces hold R0 .. R255 only; the other names come from tracers that keep the operand type.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpusim {

// The register number of `name`, or nothing when it is not one of the names above.
std::optional<uint16_t> parseRegisterName(std::string_view name);

// The name of register number `reg`: Rn for 0 .. 255 (RZ as R255, as Accel-Sim's tracer prints
// it), URn / Pn / UPn, and URZ, PT, UPT for the constants of those files; empty for a number
// outside the namespace.
std::string registerName(uint16_t reg);

// For messages: the names parseRegisterName accepts.
inline constexpr const char* kRegisterNames = "R0 .. R255, RZ, UR0 .. UR63, URZ, P0 .. P7, PT, UP0 .. UP7 or UPT";

} // namespace gpusim
