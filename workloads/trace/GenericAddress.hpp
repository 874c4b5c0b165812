#pragma once
// Generic LD / ST resolved to shared, local or global memory through the windows the kernel
// header gives (`-shmem base_addr`, `-local mem base_addr`: where NVBit found the shared and
// local windows of the generic address space), as Accel-Sim's trace-driven frontend does
// (trace_driven.cc, trace_warp_inst_t::parse_from_trace_struct):
//
//   shared  [shmem base, local mem base)          the shared window ends where the local one
//                                                 starts (the tracer's two bases are 16 to 32 MiB
//                                                 apart); empty when local mem base <= shmem base
//   local   [local mem base, local mem base + 16 KiB)   Accel-Sim's LOCAL_MEM_SIZE_MAX (GPGPU-Sim's
//                                                 abstract_hardware_model.h: "Volta max local mem
//                                                 is 16kB"): a thread's local frame
//   global  everything else
//
// Both windows are half-open: an address exactly at a window's end is outside it.
//
// Lanes in different windows: the instruction goes where its first active lane's address is,
// every lane with it, as in Accel-Sim (one instruction has one space); the reader counts such
// instructions and the end-of-run report lists the count. No active lane: global (nothing is
// accessed).
//
// One departure: Accel-Sim takes every generic access as shared when either base is 0 (a header
// without the windows). We keep a window only when its base is given and leave the rest global,
// so generic accesses of such a trace stay global (as this reader always took them), and the
// report counts them; a shared window also needs the local base, its end.
#include <array>
#include <cstdint>

#include "workloads/WarpInstruction.hpp"

namespace gpusim {

// Accel-Sim's LOCAL_MEM_SIZE_MAX: the size of the local window from its base.
inline constexpr uint64_t kGenericLocalWindowBytes = uint64_t(16) * 1024;

struct GenericWindows {
    uint64_t sharedBase = 0;  // -shmem base_addr; 0: not given
    uint64_t localBase = 0;   // -local mem base_addr; 0: not given

    bool any() const { return sharedBase != 0 || localBase != 0; }
};

// The space of one generic address.
MemSpace genericSpaceOf(uint64_t address, const GenericWindows& w);

struct GenericResolution {
    MemSpace space = MemSpace::Global;
    bool mixed = false;  // active lanes fell in different windows (all took the first lane's)
};

// The space of a generic instruction from its active lanes' addresses.
GenericResolution resolveGeneric(uint32_t activeMask, const std::array<uint64_t, kWarpSize>& addr,
                                 const GenericWindows& w);

} // namespace gpusim
