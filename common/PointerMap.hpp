#pragma once
// A map from a non-null pointer to a 64-bit value (AtInitiatorPort's outstanding requests): a
// FlatHashMap whose empty key is null.
#include <cstdint>

#include "common/FlatHashMap.hpp"

namespace gpusim {

// Fibonacci hashing of the address; the low bits of an allocation are mostly zero.
struct PointerHash {
    uint64_t operator()(const void* p) const {
        return (uint64_t(reinterpret_cast<uintptr_t>(p)) * 0x9E3779B97F4A7C15ull) >> 32;
    }
};

using PointerMap = FlatHashMap<const void*, uint64_t, PointerHash, nullptr>;

} // namespace gpusim
