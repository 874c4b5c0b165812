#include <gtest/gtest.h>

#include "workloads/DeviceAllocator.hpp"

namespace device_allocator_test {

using namespace gpusim;

TEST(DeviceAllocator, FirstBufferAtHeapBase) {
    DeviceAllocator mem;
    EXPECT_EQ(mem.allocate(100), 0x10000000u);
}

TEST(DeviceAllocator, BuffersAreDistinctAlignedAndInOrder) {
    DeviceAllocator mem;
    EXPECT_EQ(mem.allocate(1), 0x10000000u);
    EXPECT_EQ(mem.allocate(256), 0x10000100u);   // previous 1 byte rounds up to 256
    EXPECT_EQ(mem.allocate(257), 0x10000200u);   // previous 256 bytes need no padding
    EXPECT_EQ(mem.allocate(8), 0x10000400u);     // previous 257 bytes round up to 512
    EXPECT_EQ(mem.end(), 0x10000500u);
}

TEST(DeviceAllocator, ZeroBytesStillGetsItsOwnAddress) {
    DeviceAllocator mem;
    const uint64_t a = mem.allocate(0);
    const uint64_t b = mem.allocate(0);
    EXPECT_NE(a, b);
    EXPECT_EQ(b % 256, 0u);
}

TEST(DeviceAllocator, FloatsAreFourBytes) {
    DeviceAllocator mem;
    mem.allocateFloats(1000);                     // 4000 bytes -> 4096
    EXPECT_EQ(mem.allocateFloats(1), 0x10001000u);
}

} // namespace device_allocator_test
