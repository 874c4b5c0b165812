// Expectations from "CUDA by Example" histo_kernel (shared-memory and global-atomic versions) and
// the modelled SASS in Histogram.cpp. Bytes are the workload's seeded data (hashOf(seed, i) mod 256).
//   privatized, per warp: 7 + per grid-stride round (LD + 4 per lock round + 3) + BAR, LDS, RED,
//     EXIT, where a warp needs as many lock rounds as its most frequent bin has lanes;
//   global, per warp: 5 + 5 per round + EXIT; one global atomic (RED: Store-class, flagged
//   atomic, the result is unused) per round.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "WorkloadTestHelpers.hpp"
#include "workloads/SeededRandom.hpp"

namespace histogram_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

uint8_t byteAt(uint64_t seed, uint64_t i) { return uint8_t(hashOf(seed, i)); }

} // namespace

TEST(Histogram, PrivatizedCountsFollowTheData) {
    const uint64_t size = 5000, seed = 13, threads = 2 * 256;
    auto w = makeWorkload("histogram:bytes=5000,blocks=2,privatized=1", seed);
    ASSERT_EQ(w->kernels().size(), 1u);
    const Kernel& k = *w->kernels()[0];
    EXPECT_EQ(k.info().name, "histo_kernel");
    EXPECT_EQ(k.info().smemPerCta, 1024u);
    EXPECT_TRUE(wellFormed(k));
    uint64_t instructions = 0, sharedLoads = 0, sharedStores = 0, loads = 0;
    for (uint64_t warp = 0; warp < 16; ++warp) {
        instructions += 7 + 4;
        sharedStores += 1;  // temp[tid] = 0
        sharedLoads += 1;   // temp[tid] for the merge
        for (uint64_t round = 0;; ++round) {
            std::map<uint8_t, unsigned> bins;
            for (uint64_t t = warp * 32; t < warp * 32 + 32; ++t)
                if (t + round * threads < size) ++bins[byteAt(seed, t + round * threads)];
            if (bins.empty()) break;
            unsigned worst = 0;
            for (const auto& [bin, lanes] : bins) worst = std::max(worst, lanes);
            instructions += 1 + 4 * worst + 3;
            loads += 1;
            sharedLoads += worst;
            sharedStores += worst;
        }
    }
    const Census c = census(k);
    EXPECT_EQ(c.instructions, instructions);
    EXPECT_EQ(c.globalLoads, loads);
    EXPECT_EQ(c.globalStores, 16u);  // one merge atomic per warp
    EXPECT_EQ(c.sharedLoads, sharedLoads);
    EXPECT_EQ(c.sharedStores, sharedStores);
    EXPECT_EQ(c.barriers, 32u);
}

TEST(Histogram, LockRoundsLetOneLanePerBinThrough) {
    const uint64_t seed = 13;
    auto w = makeWorkload("histogram:bytes=5000,blocks=2,privatized=1", seed);
    auto s = drain(*w->kernels()[0], 0, 0);
    // Round 0 of warp 0: positions 7 (LD.U8), then lock rounds from 8.
    std::map<uint8_t, std::vector<unsigned>> lanesOf;
    for (unsigned l = 0; l < 32; ++l) lanesOf[byteAt(seed, l)].push_back(l);
    size_t p = 8;
    uint32_t done = 0;
    while (done != 0xffffffffu) {
        ASSERT_EQ(s[p].op, OpClass::Load);
        ASSERT_EQ(s[p].space, MemSpace::Shared);
        EXPECT_EQ(s[p].activeMask, ~done);
        // LDSLK writes the count register; its lock flag is a predicate, so one destination (what
        // Accel-Sim's trace parser takes), and the branch closing the round waits for that register.
        ASSERT_EQ(s[p].numDst, 1u);
        EXPECT_EQ(s[p + 3].numSrc, 1u);
        EXPECT_EQ(s[p + 3].src[0], s[p].dst[0]);
        const uint32_t winners = s[p + 2].activeMask;
        // Each winner is the lowest not-yet-done lane of its bin; no two winners share a bin.
        std::set<uint8_t> bins;
        for (unsigned l = 0; l < 32; ++l)
            if (winners >> l & 1u) {
                const uint8_t bin = byteAt(seed, l);
                EXPECT_TRUE(bins.insert(bin).second);
                for (unsigned m : lanesOf[bin]) {
                    if (m < l) {
                        EXPECT_TRUE(done >> m & 1u);
                    }
                }
                EXPECT_EQ(s[p + 2].addr[l], uint64_t(bin) * 4);
            }
        done |= winners;
        p += 4;
    }
}

TEST(Histogram, GlobalAtomicsAreReductions) {
    const uint64_t size = 3000, seed = 4, threads = 3 * 256;
    auto w = makeWorkload("histogram:bytes=3000,blocks=3,privatized=0", seed);
    const Kernel& k = *w->kernels()[0];
    EXPECT_EQ(k.info().smemPerCta, 0u);
    EXPECT_TRUE(wellFormed(k));
    // buffer (3000 -> 3072 bytes), then histo.
    const uint64_t histo = 0x10000000 + 3072;
    uint64_t instructions = 0, rounds = 0, atomicLines = 0;
    for (uint64_t warp = 0; warp < 24; ++warp) {
        instructions += 6;
        for (uint64_t round = 0;; ++round) {
            std::set<uint64_t> lines;
            for (uint64_t t = warp * 32; t < warp * 32 + 32; ++t)
                if (t + round * threads < size) lines.insert((histo + 4 * byteAt(seed, t + round * threads)) / 128);
            if (lines.empty()) break;
            instructions += 5;
            ++rounds;
            atomicLines += lines.size();
        }
    }
    const Census c = census(k);
    EXPECT_EQ(c.instructions, instructions);
    EXPECT_EQ(c.globalLoads, rounds);
    EXPECT_EQ(c.globalStores, rounds);
    EXPECT_EQ(c.storeLines, atomicLines);
    EXPECT_EQ(c.loadLines, rounds);  // 32 consecutive bytes: one line
    auto s = drain(k, 1, 2);         // threads 256 + 64 ..
    EXPECT_EQ(s[6].op, OpClass::Store);  // RED: nothing waits for a result
    EXPECT_TRUE(s[6].atomic);
    EXPECT_FALSE(s[5].atomic);
    EXPECT_EQ(s[6].addr[9], histo + 4 * uint64_t(byteAt(seed, 256 + 64 + 9)));
    EXPECT_EQ(s[5].addr[9], 0x10000000u + 256 + 64 + 9);
    EXPECT_EQ(s[5].accessBytes, 1u);
}

TEST(Histogram, DeterministicBySeed) {
    const char* spec = "histogram:bytes=2000,blocks=2,privatized=1";
    EXPECT_TRUE(sameWorkload(*makeWorkload(spec, 8), *makeWorkload(spec, 8)));
    EXPECT_FALSE(sameWorkload(*makeWorkload(spec, 8), *makeWorkload(spec, 9)));
}

} // namespace histogram_test
