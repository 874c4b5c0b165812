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

// At most 1/8 full: an entry is added and removed per request on every link, and at load 1/2
// the probes and the backward shift on removal cost about 40 host instructions per answer; at
// 1/8, 0.5 % of the divergent bench run less (issue 19). A link holds at most a few hundred
// requests, so the table stays a few KiB.
using PointerMap = FlatHashMap<const void*, uint64_t, PointerHash, nullptr, 8>;

} // namespace gpusim
