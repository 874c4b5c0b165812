#pragma once
// Small pieces shared by the built-in kernels: kernel construction, parameter checks that the
// registry's ranges cannot express, and the conventions of the modelled SASS (see
// docs/workloads.md, "Conventions of the modelled SASS").
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "common/SimError.hpp"
#include "workloads/InstructionFactory.hpp"
#include "workloads/ProgramKernel.hpp"

namespace gpusim {

inline constexpr unsigned kIntBytes = 4;
inline constexpr unsigned kPtrBytes = 8;
// SASS's RZ: reads as zero, never waits on the scoreboard (a store of a constant 0 or 1 reads it).
inline constexpr uint16_t kRz = 255;

constexpr uint64_t ceilDiv(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// A stretch of arithmetic written as a string, one letter per instruction: 'A' an ALU-pipeline
// instruction (FFMA, FADD, IMAD, F2F, DMUL, ...), 'S' a special-function one (MUFU.RCP, .EX2,
// .LG2, .RSQ). Kernels model expression evaluation as such a run, each instruction reading the
// previous one's result (a dependent chain, as an expression tree mostly is).
inline OpClass arithOp(char c) { return c == 'S' ? OpClass::Sfu : OpClass::Alu; }
// How nvcc expands operations without an instruction of their own (model, not disassembly):
inline constexpr std::string_view kFloatDiv = "SAAA";        // IEEE a / b: MUFU.RCP + 3 FFMA refinement
inline constexpr std::string_view kFastDiv = "SA";           // __fdividef: MUFU.RCP + FMUL
inline constexpr std::string_view kDoubleDiv = "SAAAAAAAA";  // double a / b: MUFU.RCP64H + 8 DFMA
inline constexpr std::string_view kFastExp = "AS";           // __expf: FMUL by log2(e), MUFU.EX2
inline constexpr std::string_view kFastLog = "SA";           // __logf: MUFU.LG2, FMUL by ln(2)

constexpr unsigned countOps(std::string_view run, char c) {
    unsigned n = 0;
    for (char x : run) n += x == c;
    return n;
}

inline std::unique_ptr<Kernel> makeProgramKernel(std::string name, Dim3 grid, Dim3 block, unsigned regsUsed,
                                                 unsigned smemBytes, ProgramKernel::Body body) {
    KernelInfo info;
    info.name = std::move(name);
    info.grid = grid;
    info.block = block;
    info.regsPerThread = allocatedRegisters(regsUsed);
    info.smemPerCta = smemBytes;
    return std::make_unique<ProgramKernel>(std::move(info), std::move(body));
}

inline uint64_t param(const std::map<std::string, int64_t>& params, const char* name) {
    return static_cast<uint64_t>(params.at(name));
}

// A relation between parameters that the per-parameter ranges cannot check, reported like the
// registry's own errors.
inline void requireParam(bool ok, const std::string& workload, const std::string& what) {
    if (!ok) throw InputError("--workload: " + workload + ": " + what);
}

} // namespace gpusim
