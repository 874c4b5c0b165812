#pragma once
// Seeded pseudo-random numbers for built-in workloads' generated data (graphs, sparse matrices,
// text, point sets). Workload data must be identical for the same seed on every platform and
// standard library, so this avoids std::*_distribution (whose algorithms are unspecified) and
// uses SplitMix64 with explicit reductions.
// Models: a deterministic stream (Rng) and a stateless hash of a few integers (hashOf), the latter
// for data that is looked up by index instead of stored (a point's coordinate, a byte of text).
// Leaves out: statistical quality beyond what SplitMix64 gives (ample for workload shapes).
#include <cstdint>

namespace gpusim {

constexpr uint64_t splitMix64(uint64_t x) {
    x += 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// A hash of (seed, a, b, c): independent values for every distinct tuple.
constexpr uint64_t hashOf(uint64_t seed, uint64_t a, uint64_t b = 0, uint64_t c = 0) {
    return splitMix64(splitMix64(splitMix64(splitMix64(seed) ^ a) ^ b) ^ c);
}

// A uniform float in [0, 1) from the top 24 bits of a hash (exactly representable).
constexpr float unitFloat(uint64_t h) { return float(h >> 40) * (1.0f / 16777216.0f); }

class Rng {
public:
    explicit constexpr Rng(uint64_t seed) : state_(splitMix64(seed ^ 0x5eed5eed5eed5eedull)) {}
    constexpr uint64_t next() {
        state_ += 0x9e3779b97f4a7c15ull;
        uint64_t x = state_;
        x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
        x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
        return x ^ (x >> 31);
    }
    // Uniform in [0, n), n > 0 (Lemire's multiply-shift: no division, negligible bias for the
    // sizes used here).
    constexpr uint64_t below(uint64_t n) { return uint64_t((unsigned __int128)next() * n >> 64); }
    // Uniform in [lo, hi].
    constexpr int64_t between(int64_t lo, int64_t hi) { return lo + int64_t(below(uint64_t(hi - lo) + 1)); }
    constexpr float unit() { return unitFloat(next()); }

private:
    uint64_t state_;
};

} // namespace gpusim
