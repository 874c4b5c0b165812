#pragma once
// Writes any Workload as an Accel-Sim trace directory (tracer version 5, post-processed layout):
// kernelslist.g plus kernel-N.traceg (or kernel-N.traceg.xz), so Accel-Sim and other tools that
// read its format can run our built-in kernels, and `--workload trace:DIR` reads them back with
// identical instruction streams.
//
// What is written, and why:
// - Header: the kernel's name, id (1-based launch order), grid, block, shared memory, registers;
//   `-binary version = 70` (our PCs step by 16 bytes as from Volta on, and 70 selects
//   Accel-Sim's Volta opcode table); the kernel's stream (KernelInfo::stream); shared/local window bases 0 (the model has no
//   generic address windows and we write no generic LD/ST); tracer version 5; lineinfo 0.
// - Thread blocks in linear order (x fastest), every warp of each, as post-processing does.
// - Opcodes: the model keeps instruction classes, not SASS opcodes, so each class is written as
//   one representative opcode: ALU FFMA, SFU MUFU.RCP, tensor HMMA.884.F32.F32, barrier BAR.SYNC,
//   exit EXIT; memory operations LDG.E / STG.E, LDS / STS, LDL / STL with the width suffix the
//   tracer derives mem_width from (.U8 1, .U16 2, none 4, .64 8, .128 16).
// - Addresses compressed as the tracer compresses them: mode 1 (base, stride) when the active
//   lanes form one run of at least two lanes with a constant step (or there is no active lane:
//   `1 0x0 0`), else mode 2 (base, then the delta of each further active lane from the previous
//   one). One departure: a step that does not fit 32 bits falls back to mode 2, where the
//   tracer would truncate it.
// - The v5 immediate, always 0.
// Accel-Sim's own parser takes at most one destination register; an instruction with two is
// written with both (our reader takes them), which that parser would reject.
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/Workload.hpp"

namespace gpusim {

struct TraceExportOptions {
    bool xz = false;  // kernel-N.traceg.xz, compressed with liblzma at xz's preset 1 (as the tracer)
};

struct TraceExportSummary {
    std::vector<std::string> files;  // kernelslist.g first, then one per kernel
    uint64_t warps = 0;
    uint64_t instructions = 0;
};

// Creates `dir` if needed and overwrites its kernelslist.g and kernel files. Throws InputError
// if it cannot write there, ModelError if an instruction cannot be expressed in the format.
TraceExportSummary exportTrace(const Workload& workload, const std::string& dir, const TraceExportOptions& opt = {});

// One instruction line, without the newline (exposed for tests).
std::string formatInstructionLine(const WarpInstruction& in);

} // namespace gpusim
