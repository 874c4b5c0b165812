// Coalescer: active lanes' addresses -> aligned 128-byte line accesses, in order of the lowest
// lane touching each line. Expected lines, lane masks and byte counts are worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "modules/Coalescer.hpp"
#include "tb/unit/modules/ModuleTestHelpers.hpp"

namespace coalescer_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {
constexpr uint64_t kBase = 0x10000;  // 128-aligned

std::vector<LineAccess> run(const WarpInstruction& in, unsigned line = 128) {
    std::vector<LineAccess> out{{1, 1, 1}};  // stale content: coalesce() must clear it
    Coalescer(line).coalesce(in, out);
    return out;
}
} // namespace

TEST(Coalescer, Stride4AlignedIsOneFullLine) {
    // 32 lanes x 4 B = 128 B = exactly [kBase, kBase+128).
    auto a = run(mem(OpClass::Load, 0, kBase, 4));
    ASSERT_EQ(a.size(), 1u);
    EXPECT_EQ(a[0].lineAddr, kBase);
    EXPECT_EQ(a[0].laneMask, 0xffffffffu);
    EXPECT_EQ(a[0].bytes, 128u);
    EXPECT_EQ(a[0].chunks, 0xfu);  // all four 32-byte chunks
}

TEST(Coalescer, Stride4FromHalfLineOffsetIsTwoLines) {
    // Lanes 0..15 cover kBase+64..kBase+127 (line kBase, 64 B); lanes 16..31 cover
    // kBase+128..kBase+191 (line kBase+128, 64 B).
    auto a = run(mem(OpClass::Load, 0, kBase + 64, 4));
    ASSERT_EQ(a.size(), 2u);
    EXPECT_EQ(a[0].lineAddr, kBase);
    EXPECT_EQ(a[0].laneMask, 0x0000ffffu);
    EXPECT_EQ(a[0].bytes, 64u);
    EXPECT_EQ(a[1].lineAddr, kBase + 128);
    EXPECT_EQ(a[1].laneMask, 0xffff0000u);
    EXPECT_EQ(a[1].bytes, 64u);
    EXPECT_EQ(a[0].chunks, 0xcu);  // bytes 64..127: chunks 2 and 3
    EXPECT_EQ(a[1].chunks, 0x3u);  // bytes 0..63: chunks 0 and 1
}

TEST(Coalescer, Stride128Is32LinesInLaneOrder) {
    auto a = run(mem(OpClass::Load, 0, kBase, 128));
    ASSERT_EQ(a.size(), 32u);
    for (unsigned l = 0; l < 32; ++l) {
        EXPECT_EQ(a[l].lineAddr, kBase + 128 * l) << "lane " << l;
        EXPECT_EQ(a[l].laneMask, 1u << l) << "lane " << l;
        EXPECT_EQ(a[l].bytes, 4u) << "lane " << l;
    }
}

TEST(Coalescer, Stride128DescendingComesOutInLaneOrderNotAddressOrder) {
    // Lane l reads kBase + 128*(31-l): lane 0 has the highest line, so it comes first.
    WarpInstruction in = mem(OpClass::Load, 0, 0, 0);
    for (unsigned l = 0; l < 32; ++l) in.addr[l] = kBase + 128 * (31 - l);
    auto a = run(in);
    ASSERT_EQ(a.size(), 32u);
    EXPECT_EQ(a[0].lineAddr, kBase + 128 * 31);
    EXPECT_EQ(a[31].lineAddr, kBase);
}

TEST(Coalescer, Stride0IsOneLine) {
    auto a = run(mem(OpClass::Load, 0, kBase + 8, 0));
    ASSERT_EQ(a.size(), 1u);
    EXPECT_EQ(a[0].lineAddr, kBase);
    EXPECT_EQ(a[0].laneMask, 0xffffffffu);
}

TEST(Coalescer, FixedTableOfScatteredAddresses) {
    // Line of each lane (addr & ~0x7f) written next to it; 8 distinct lines.
    const uint64_t table[32] = {
        0x1000, 0x1004, 0x1080, 0x10FC, 0x2000, 0x1008, 0x3F80, 0x3FFC,  // 1000 1000 1080 1080 2000 1000 3F80 3F80
        0x1000, 0x2040, 0x5000, 0x1084, 0x507C, 0x5080, 0x0000, 0x007C,  // 1000 2000 5000 1080 5000 5080 0000 0000
        0x1010, 0x1090, 0x2010, 0x3F84, 0x5004, 0x5084, 0x0004, 0x1014,  // 1000 1080 2000 3F80 5000 5080 0000 1000
        0x1094, 0x2014, 0x3F88, 0x5008, 0x5088, 0x0008, 0x101C, 0x7FFC}; // 1080 2000 3F80 5000 5080 0000 1000 7F80
    WarpInstruction in = mem(OpClass::Load, 0, 0, 0);
    for (unsigned l = 0; l < 32; ++l) in.addr[l] = table[l];
    auto a = run(in);
    // Lines in order of first lane, with their lanes:
    //  0x1000: 0,1,5,8,16,23,30  -> 0x40810123, 7 lanes x 4 B = 28
    //  0x1080: 2,3,11,17,24      -> 0x0102080C, 20
    //  0x2000: 4,9,18,25         -> 0x02040210, 16
    //  0x3F80: 6,7,19,26         -> 0x040800C0, 16
    //  0x5000: 10,12,20,27       -> 0x08101400, 16
    //  0x5080: 13,21,28          -> 0x10202000, 12
    //  0x0000: 14,15,22,29       -> 0x2040C000, 16
    //  0x7F80: 31                -> 0x80000000, 4
    const std::vector<LineAccess> want = {
        {0x1000, 0x40810123u, 28}, {0x1080, 0x0102080Cu, 20}, {0x2000, 0x02040210u, 16},
        {0x3F80, 0x040800C0u, 16}, {0x5000, 0x08101400u, 16}, {0x5080, 0x10202000u, 12},
        {0x0000, 0x2040C000u, 16}, {0x7F80, 0x80000000u, 4}};
    ASSERT_EQ(a.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(a[i].lineAddr, want[i].lineAddr) << i;
        EXPECT_EQ(a[i].laneMask, want[i].laneMask) << i;
        EXPECT_EQ(a[i].bytes, want[i].bytes) << i;
    }
}

// The walk finds a lane's line through an index kept from one access to the next (generations).
// One coalescer, many random scattered accesses (lines drawn from a small pool so they repeat,
// 4- or 8-byte lanes, some straddling two lines, random active masks): each result must equal a
// plain scan that appends a line at its first lane and adds the later lanes' bytes (capped at
// the line) and 32-byte chunks.
TEST(Coalescer, ScatteredAccessesEqualAPlainScanAcrossManyWalks) {
    const Coalescer c(128);
    std::mt19937_64 rng(5);
    std::vector<LineAccess> out;
    unsigned most = 0;
    for (int k = 0; k < 3000; ++k) {
        WarpInstruction in = mem(OpClass::Load, 0, 0, 0);
        in.accessBytes = (k % 3 == 0) ? 8 : 4;
        const unsigned pool = 1 + static_cast<unsigned>(rng() % 80);
        for (unsigned l = 0; l < 32; ++l) in.addr[l] = kBase + (rng() % pool) * 128 + (rng() % 32) * 4;
        if (k % 5 == 0) {  // every lane straddles two lines of its own: 64 lines, the most there can be
            in.accessBytes = 8;
            for (unsigned l = 0; l < 32; ++l) in.addr[l] = kBase + ((l * 7) % 32) * 256 + 124;
        }
        in.activeMask = (k % 4 == 0) ? static_cast<uint32_t>(rng()) : 0xFFFFFFFFu;
        c.coalesce(in, out);
        std::vector<LineAccess> want;
        auto add = [&](uint64_t line, unsigned lane, uint64_t offset, uint32_t bytes) {
            const uint32_t chunks = uint32_t(((uint64_t(2) << ((offset + bytes - 1) / 32)) - 1) & ~((uint64_t(1) << (offset / 32)) - 1));
            for (auto& a : want)
                if (a.lineAddr == line) {
                    a.laneMask |= 1u << lane;
                    a.bytes = std::min<uint32_t>(a.bytes + bytes, 128);
                    a.chunks |= chunks;
                    return;
                }
            want.push_back({line, 1u << lane, bytes, chunks});
        };
        for (unsigned l = 0; l < 32; ++l) {
            if (!(in.activeMask >> l & 1)) continue;
            const uint64_t a = in.addr[l], first = a & ~uint64_t(127), last = (a + in.accessBytes - 1) & ~uint64_t(127);
            if (first == last) {
                add(first, l, a - first, in.accessBytes);
            } else {
                add(first, l, a - first, static_cast<uint32_t>(last - a));
                add(last, l, 0, in.accessBytes - static_cast<uint32_t>(last - a));
            }
        }
        ASSERT_EQ(out.size(), want.size()) << "access " << k;
        for (size_t i = 0; i < want.size(); ++i) {
            ASSERT_EQ(out[i].lineAddr, want[i].lineAddr) << "access " << k << " line " << i;
            ASSERT_EQ(out[i].laneMask, want[i].laneMask) << "access " << k << " line " << i;
            ASSERT_EQ(out[i].bytes, want[i].bytes) << "access " << k << " line " << i;
            ASSERT_EQ(out[i].chunks, want[i].chunks) << "access " << k << " line " << i;
        }
        most = std::max(most, static_cast<unsigned>(out.size()));
    }
    EXPECT_EQ(most, 64u);
}

TEST(Coalescer, PartialActiveMaskOnlyCountsActiveLanes) {
    // Stride 128 with lanes 0-3 and 31 active: 5 lines (inactive lanes' addresses ignored).
    auto a = run(mem(OpClass::Load, 0, kBase, 128, 4, 0x8000000Fu));
    ASSERT_EQ(a.size(), 5u);
    EXPECT_EQ(a[0].lineAddr, kBase);
    EXPECT_EQ(a[1].lineAddr, kBase + 128);
    EXPECT_EQ(a[2].lineAddr, kBase + 256);
    EXPECT_EQ(a[3].lineAddr, kBase + 384);
    EXPECT_EQ(a[4].lineAddr, kBase + 31 * 128);  // 0xF80
    EXPECT_EQ(a[4].laneMask, 0x80000000u);
    // Stride 4 with only the odd lanes: still one line, 16 lanes x 4 B.
    auto b = run(mem(OpClass::Load, 0, kBase, 4, 4, 0xAAAAAAAAu));
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(b[0].laneMask, 0xAAAAAAAAu);
    EXPECT_EQ(b[0].bytes, 64u);
    // No active lane: no access.
    EXPECT_TRUE(run(mem(OpClass::Load, 0, kBase, 4, 4, 0)).empty());
}

TEST(Coalescer, EightByteAccessStraddlingALineTouchesBoth) {
    // One lane at kBase+124, 8 bytes: bytes 124..127 of line kBase, 0..3 of line kBase+128.
    auto a = run(mem(OpClass::Load, 0, kBase + 124, 0, 8, 0x1u));
    ASSERT_EQ(a.size(), 2u);
    EXPECT_EQ(a[0].lineAddr, kBase);
    EXPECT_EQ(a[0].bytes, 4u);
    EXPECT_EQ(a[1].lineAddr, kBase + 128);
    EXPECT_EQ(a[1].bytes, 4u);
    EXPECT_EQ(a[0].laneMask, 1u);
    EXPECT_EQ(a[1].laneMask, 1u);
    EXPECT_EQ(a[0].chunks, 0x8u);  // byte 124..127: chunk 3
    EXPECT_EQ(a[1].chunks, 0x1u);  // byte 0..3: chunk 0
    // An aligned 8-byte access at kBase+120 stays in one line.
    EXPECT_EQ(run(mem(OpClass::Load, 0, kBase + 120, 0, 8, 0x1u)).size(), 1u);
}

TEST(Coalescer, WarpOf8ByteAccessesFromOffset4TouchesThreeLines) {
    // Lane l covers [kBase+4+8l, kBase+12+8l). Lane 15 = 124..131 straddles line 0/1,
    // lane 31 = 252..259 straddles line 1/2.
    //  line kBase:     lanes 0..15; bytes 15 x 8 + 4 = 124
    //  line kBase+128: lanes 15..31; bytes 4 + 15 x 8 + 4 = 128
    //  line kBase+256: lane 31; bytes 4
    auto a = run(mem(OpClass::Load, 0, kBase + 4, 8, 8));
    ASSERT_EQ(a.size(), 3u);
    EXPECT_EQ(a[0].lineAddr, kBase);
    EXPECT_EQ(a[0].laneMask, 0x0000FFFFu);
    EXPECT_EQ(a[0].bytes, 124u);
    EXPECT_EQ(a[1].lineAddr, kBase + 128);
    EXPECT_EQ(a[1].laneMask, 0xFFFF8000u);
    EXPECT_EQ(a[1].bytes, 128u);
    EXPECT_EQ(a[2].lineAddr, kBase + 256);
    EXPECT_EQ(a[2].laneMask, 0x80000000u);
    EXPECT_EQ(a[2].bytes, 4u);
    EXPECT_EQ(a[0].chunks, 0xfu);  // bytes 4..127
    EXPECT_EQ(a[2].chunks, 0x1u);  // bytes 0..3
}

TEST(Coalescer, ScatteredLanesTouchOnlyTheirChunks) {
    // Lanes 0 and 1 at byte 8 and byte 100 of one line (4 bytes each): chunks 0 and 3, 8 bytes.
    WarpInstruction in = mem(OpClass::Store, 0, kBase, 0, 4, 0x3u);
    in.addr[0] = kBase + 8;
    in.addr[1] = kBase + 100;
    auto a = run(in);
    ASSERT_EQ(a.size(), 1u);
    EXPECT_EQ(a[0].bytes, 8u);
    EXPECT_EQ(a[0].chunks, 0x9u);
}

TEST(Coalescer, SixtyFourByteLines) {
    // Same stride-4 warp, 64 B lines: 2 lines of 16 lanes each.
    auto a = run(mem(OpClass::Load, 0, kBase, 4), 64);
    ASSERT_EQ(a.size(), 2u);
    EXPECT_EQ(a[0].lineAddr, kBase);
    EXPECT_EQ(a[0].laneMask, 0x0000ffffu);
    EXPECT_EQ(a[1].lineAddr, kBase + 64);
    EXPECT_EQ(a[1].laneMask, 0xffff0000u);
}

// sm.store_bytes = segment: GPGPU-Sim's reduction of a 128-B segment to the half, then the
// quarter, that holds every touched 32-B chunk.
TEST(Coalescer, SegmentBytesHalveWhileTheChunksLieInOneHalf) {
    EXPECT_EQ(segmentBytes(0x1u, 128), 32u);   // chunk 0
    EXPECT_EQ(segmentBytes(0x2u, 128), 32u);   // chunk 1
    EXPECT_EQ(segmentBytes(0x8u, 128), 32u);   // chunk 3
    EXPECT_EQ(segmentBytes(0x3u, 128), 64u);   // the lower half
    EXPECT_EQ(segmentBytes(0xcu, 128), 64u);   // the upper half
    EXPECT_EQ(segmentBytes(0x6u, 128), 128u);  // chunks 1 and 2: both halves
    EXPECT_EQ(segmentBytes(0x9u, 128), 128u);
    EXPECT_EQ(segmentBytes(0xfu, 128), 128u);
    EXPECT_EQ(segmentBytes(0x30u, 256), 64u);  // a 256-B line: chunks 4-5
    EXPECT_EQ(segmentBytes(0x1u, 32), 32u);
}

TEST(Coalescer, SegmentSizesStoresAndLeavesLoadsAlone) {
    // The scattered pair above (bytes 8 and 100: chunks 0 and 3) is a 128-B segment; two lanes
    // in chunk 2 (bytes 64 and 68) a 32-B one.
    WarpInstruction st = mem(OpClass::Store, 0, kBase, 0, 4, 0xfu);
    st.addr[0] = kBase + 8;
    st.addr[1] = kBase + 100;
    st.addr[2] = kBase + 128 + 64;
    st.addr[3] = kBase + 128 + 68;
    std::vector<LineAccess> out;
    Coalescer(128, StoreBytes::Segment).coalesce(st, out);
    ASSERT_EQ(out.size(), 2u);
    EXPECT_EQ(out[0].bytes, 128u);
    EXPECT_EQ(out[1].bytes, 32u);
    EXPECT_EQ(out[1].chunks, 0x4u);
    Coalescer(128, StoreBytes::Touched).coalesce(st, out);
    EXPECT_EQ(out[0].bytes, 8u);
    EXPECT_EQ(out[1].bytes, 8u);
    WarpInstruction ld = st;
    ld.op = OpClass::Load;
    Coalescer(128, StoreBytes::Segment).coalesce(ld, out);
    EXPECT_EQ(out[0].bytes, 8u);  // a load's bytes are what it touches: the reply carries the line
}

// sm.atomic_segment_bytes = 32 (GPGPU-Sim's Fermi atomics): 32 lanes x 4 B over one 128-B line
// are four requests, one per 32-B chunk (lanes 8k..8k+7, 32 bytes, chunk bit k), where the line
// granule makes one; lanes on one address still split within a segment.
TEST(Coalescer, AtomicSegmentsOf32BytesSplitALineIntoSectorRequests) {
    WarpInstruction in = mem(OpClass::Load, 0, kBase, 4);
    in.atomic = true;
    std::vector<LineAccess> a;
    Coalescer(128, StoreBytes::Touched, 0).coalesceAtomic(in, a);
    ASSERT_EQ(a.size(), 1u);
    EXPECT_EQ(a[0].laneMask, 0xffffffffu);
    EXPECT_EQ(a[0].chunks, 0xfu);
    Coalescer(128, StoreBytes::Touched, 32).coalesceAtomic(in, a);
    ASSERT_EQ(a.size(), 4u);
    for (unsigned k = 0; k < 4; ++k) {
        EXPECT_EQ(a[k].lineAddr, kBase);
        EXPECT_EQ(a[k].laneMask, 0xffu << (8 * k));
        EXPECT_EQ(a[k].bytes, 32u);
        EXPECT_EQ(a[k].chunks, 1u << k);
    }
    // Lanes 0 and 1 on one word, lane 2 in the same chunk, lane 3 in the next: lane 1 overlaps
    // lane 0 and opens a second request of chunk 0; lane 2 joins the first; lane 3 its own.
    WarpInstruction b = mem(OpClass::Store, 0, kBase, 0, 4, 0xfu);
    b.atomic = true;
    b.addr[2] = kBase + 8;
    b.addr[3] = kBase + 32;
    Coalescer(128, StoreBytes::Touched, 32).coalesceAtomic(b, a);
    ASSERT_EQ(a.size(), 3u);
    EXPECT_EQ(a[0].laneMask, 0x5u);
    EXPECT_EQ(a[1].laneMask, 0x2u);
    EXPECT_EQ(a[2].laneMask, 0x8u);
    EXPECT_EQ(a[2].chunks, 0x2u);
}

TEST(Coalescer, AtomicLanesOnOneAddressGoToSeparateRequests) {
    // Lanes 0..7: lane l at kBase + 4 * (l % 4), so addresses kBase..kBase+12 twice each; lane 8 at
    // kBase + 128 (next line). First fit in lane order: lanes 0-3 open request 0 (16 bytes, chunk
    // 0); lanes 4-7 overlap it and open request 1; lane 8 its own line, request 2.
    WarpInstruction in = mem(OpClass::Load, 0, kBase, 0, 4, 0x1ffu);
    in.atomic = true;
    for (unsigned l = 0; l < 8; ++l) in.addr[l] = kBase + 4 * (l % 4);
    in.addr[8] = kBase + 128;
    std::vector<LineAccess> a{{1, 1, 1}};
    Coalescer(128).coalesceAtomic(in, a);
    ASSERT_EQ(a.size(), 3u);
    EXPECT_EQ(a[0].lineAddr, kBase);
    EXPECT_EQ(a[0].laneMask, 0x0fu);
    EXPECT_EQ(a[0].bytes, 16u);
    EXPECT_EQ(a[0].chunks, 0x1u);
    EXPECT_EQ(a[1].lineAddr, kBase);
    EXPECT_EQ(a[1].laneMask, 0xf0u);
    EXPECT_EQ(a[1].bytes, 16u);
    EXPECT_EQ(a[2].lineAddr, kBase + 128);
    EXPECT_EQ(a[2].laneMask, 0x100u);
    EXPECT_EQ(a[2].bytes, 4u);
    // All 32 lanes on one word: 32 requests of one lane each.
    WarpInstruction same = mem(OpClass::Store, 0, kBase + 8, 0);
    same.atomic = true;
    Coalescer(128).coalesceAtomic(same, a);
    ASSERT_EQ(a.size(), 32u);
    for (unsigned l = 0; l < 32; ++l) {
        EXPECT_EQ(a[l].laneMask, 1u << l);
        EXPECT_EQ(a[l].bytes, 4u);
    }
}

// A contiguous run of active lanes at consecutive addresses takes the coalescer's linear path
// (lines from the run's byte range); the cases below check it against hand-worked walks.
TEST(Coalescer, RunOfLanesInTheMiddleOfTheWarp) {
    // Lanes 4..11, 8 B each: lane l at kBase+88+8l, so lane 4 covers 120..127 (line kBase,
    // chunk 3) and lanes 5..11 cover 128..183 (line kBase+128, bytes 0..55: chunks 0 and 1).
    auto a = run(mem(OpClass::Load, 0, kBase + 88, 8, 8, 0x00000FF0u));
    ASSERT_EQ(a.size(), 2u);
    EXPECT_EQ(a[0].lineAddr, kBase);
    EXPECT_EQ(a[0].laneMask, 0x10u);
    EXPECT_EQ(a[0].bytes, 8u);
    EXPECT_EQ(a[0].chunks, 0x8u);
    EXPECT_EQ(a[1].lineAddr, kBase + 128);
    EXPECT_EQ(a[1].laneMask, 0xFE0u);
    EXPECT_EQ(a[1].bytes, 56u);
    EXPECT_EQ(a[1].chunks, 0x3u);
}

TEST(Coalescer, RunWhoseFirstLaneStraddlesALine) {
    // Lanes 0..3, 16 B each from kBase+120: lane 0 covers 120..135 (8 B in each line), lanes
    // 1..3 cover 136..183. Line kBase: lane 0, 8 B, chunk 3; line kBase+128: lanes 0..3,
    // 8 + 48 = 56 B at bytes 0..55, chunks 0 and 1.
    auto a = run(mem(OpClass::Load, 0, kBase + 120, 16, 16, 0xFu));
    ASSERT_EQ(a.size(), 2u);
    EXPECT_EQ(a[0].lineAddr, kBase);
    EXPECT_EQ(a[0].laneMask, 0x1u);
    EXPECT_EQ(a[0].bytes, 8u);
    EXPECT_EQ(a[0].chunks, 0x8u);
    EXPECT_EQ(a[1].lineAddr, kBase + 128);
    EXPECT_EQ(a[1].laneMask, 0xFu);
    EXPECT_EQ(a[1].bytes, 56u);
    EXPECT_EQ(a[1].chunks, 0x3u);
}

TEST(Coalescer, ALaneOffTheRunOrAGapInTheMaskIsWalked) {
    // Stride 4 but lane 31 at kBase+4096: lanes 0..30 in line kBase (124 B, all four chunks),
    // lane 31 alone in line kBase+4096 (4 B, chunk 0).
    WarpInstruction in = mem(OpClass::Load, 0, kBase, 4);
    in.addr[31] = kBase + 4096;
    auto a = run(in);
    ASSERT_EQ(a.size(), 2u);
    EXPECT_EQ(a[0].lineAddr, kBase);
    EXPECT_EQ(a[0].laneMask, 0x7FFFFFFFu);
    EXPECT_EQ(a[0].bytes, 124u);
    EXPECT_EQ(a[0].chunks, 0xFu);
    EXPECT_EQ(a[1].lineAddr, kBase + 4096);
    EXPECT_EQ(a[1].laneMask, 0x80000000u);
    EXPECT_EQ(a[1].bytes, 4u);
    EXPECT_EQ(a[1].chunks, 0x1u);
    // Lanes 0 and 2 at consecutive addresses (kBase, kBase+4), lane 1 inactive: one line, 8 B.
    WarpInstruction gap = mem(OpClass::Load, 0, kBase, 0, 4, 0x5u);
    gap.addr[2] = kBase + 4;
    auto b = run(gap);
    ASSERT_EQ(b.size(), 1u);
    EXPECT_EQ(b[0].laneMask, 0x5u);
    EXPECT_EQ(b[0].bytes, 8u);
    EXPECT_EQ(b[0].chunks, 0x1u);
}

TEST(Coalescer, LinearStoreIsSizedBySegment) {
    // Lanes 8..15, 4 B from kBase+32: bytes 32..63 of line kBase, chunk 1 only: a 32-B segment.
    std::vector<LineAccess> out;
    Coalescer(128, StoreBytes::Segment).coalesce(mem(OpClass::Store, 0, kBase, 4, 4, 0x0000FF00u), out);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].laneMask, 0xFF00u);
    EXPECT_EQ(out[0].chunks, 0x2u);
    EXPECT_EQ(out[0].bytes, 32u);
}

} // namespace coalescer_test
