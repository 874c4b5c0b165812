// LRU behind the replacement interface against an independent reference of the L1D's original
// hard-coded LRU (before the plug-in): per line a stamp from one counter, bumped on a read hit,
// at the reservation and at the fill; the victim is the lowest invalid way, else the smallest
// stamp. Random reads and stores over 3 sets x 4 ways (linear index, 4 sets in the cache), each
// miss filled at once; after every access the hit/miss result, which lines are present and the
// eviction count must agree.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "common/Stats.hpp"
#include "modules/L1DCache.hpp"

namespace lru_replacement_test {

using namespace gpusim;

namespace {

struct ReferenceLru {
    struct Line {
        uint64_t tag = 0;
        bool valid = false;
        uint64_t stamp = 0;
    };
    unsigned sets, ways;
    std::vector<Line> lines;
    uint64_t now = 0, evictions = 0;
    ReferenceLru(unsigned s, unsigned w) : sets(s), ways(w), lines(size_t(s) * w) {}
    Line* find(uint64_t line) {
        const unsigned set = (line / 128) % sets;
        for (unsigned w = 0; w < ways; ++w)
            if (lines[set * ways + w].valid && lines[set * ways + w].tag == line) return &lines[set * ways + w];
        return nullptr;
    }
    bool read(uint64_t line) {  // true: hit
        if (Line* l = find(line)) {
            l->stamp = ++now;
            return true;
        }
        const unsigned set = (line / 128) % sets;
        Line* v = nullptr;
        for (unsigned w = 0; w < ways && !v; ++w)
            if (!lines[set * ways + w].valid) v = &lines[set * ways + w];
        if (!v) {
            for (unsigned w = 0; w < ways; ++w)
                if (!v || lines[set * ways + w].stamp < v->stamp) v = &lines[set * ways + w];
            ++evictions;
        }
        *v = {line, true, ++now};  // reservation
        v->stamp = ++now;          // fill
        return false;
    }
    void write(uint64_t line) {
        if (Line* l = find(line)) l->valid = false;
    }
};

void runDifferential(L1Allocation alloc, unsigned seed) {
    SmConfig c;
    c.l1Line = 128;
    c.l1Ways = 4;
    c.l1Bytes = 128 * 4 * 4;
    c.setIndexing = SetIndexing::Linear;
    c.allocation = alloc;
    c.mshrEntries = 8;
    c.mshrMaxMerge = 8;
    c.missQueue = 8;
    StatRegistry stats;
    L1DCache l1(c, stats, "l1.");
    ReferenceLru ref(4, 4);
    std::mt19937 rng(seed);
    // 24 distinct lines over sets 0-2 (8 per set, twice the ways): plenty of replacements.
    std::vector<uint64_t> pool;
    for (uint64_t k = 0; k < 8; ++k)
        for (uint64_t s = 0; s < 3; ++s) pool.push_back((k * 4 + s) * 128);
    for (unsigned i = 0; i < 4000; ++i) {
        const uint64_t line = pool[rng() % pool.size()];
        if (rng() % 8 == 0) {
            ASSERT_EQ(l1.write(line, 4, 0, 0x10), L1Result::WriteSent);
            l1.popOutgoing();
            ref.write(line);
        } else {
            const bool hit = ref.read(line);
            const L1Result r = l1.read(line, 0, 0x20 + 0x10 * (rng() % 3), 1);
            ASSERT_EQ(r, hit ? L1Result::Hit : L1Result::MissNew) << "access " << i;
            if (!hit) {
                l1.popOutgoing();
                l1.fill(line);
            }
        }
        for (uint64_t l : pool) ASSERT_EQ(l1.probe(l), ref.find(l) != nullptr) << "access " << i << " line " << l;
        ASSERT_EQ(static_cast<uint64_t>(stats.get("l1.evictions")), ref.evictions) << "access " << i;
    }
    EXPECT_GT(ref.evictions, 1000u);  // the sequence did exercise replacement
}

} // namespace

TEST(LruReplacement, SameAsTheOriginalLruOnMiss) { runDifferential(L1Allocation::OnMiss, 1); }
TEST(LruReplacement, SameAsTheOriginalLruOnFill) { runDifferential(L1Allocation::OnFill, 2); }

} // namespace lru_replacement_test
