#pragma once
// Device-memory layout for built-in kernels: what cudaMalloc would hand out, so that per-lane
// addresses (and therefore line, set and DRAM-bank mapping) look like a real run's.
// Models: distinct, 256-byte-aligned buffers placed one after another from a fixed base in
// allocation order. Leaves out: freeing, data contents, host copies, address-space limits.
#include <cstdint>

namespace gpusim {

inline constexpr uint64_t kDeviceHeapBase = 0x10000000;  // first cudaMalloc'd buffer
inline constexpr uint64_t kDeviceAllocAlign = 256;       // cudaMalloc's documented alignment
inline constexpr unsigned kFloatBytes = 4;

class DeviceAllocator {
public:
    // Returns the base address of a new buffer of `bytes` bytes. A zero-byte request still gets
    // its own address so that every array has a distinct base.
    uint64_t allocate(uint64_t bytes) {
        uint64_t base = next_;
        uint64_t size = bytes == 0 ? 1 : bytes;
        next_ = base + (size + kDeviceAllocAlign - 1) / kDeviceAllocAlign * kDeviceAllocAlign;
        return base;
    }
    uint64_t allocateFloats(uint64_t count) { return allocate(count * kFloatBytes); }
    // First address past the last buffer (rounded up to the alignment).
    uint64_t end() const { return next_; }

private:
    uint64_t next_ = kDeviceHeapBase;
};

} // namespace gpusim
