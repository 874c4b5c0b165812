#pragma once
// The 32-byte chunk: the granularity at which a store says which bytes of its line it writes
// (LineAccess::chunks from the coalescer, GpuExtension::chunks on the way to the L2). It is
// GPGPU-Sim's sector size, so a sectored L2 (l2.sector_bytes, a multiple of it) writes only the
// sectors a store touches. A line has at most 32 chunks (a 32-bit mask; lines up to 1 KB).

namespace gpusim {

inline constexpr unsigned kChunkBytes = 32;

} // namespace gpusim
