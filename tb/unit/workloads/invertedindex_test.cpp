// Expectations from Mars InvertedIndex's map function (map.cu) and the modelled SASS in
// InvertedIndex.cpp, on the workload's generated text (InvertedIndexData.hpp). Per warp: 4
// (+10 with records in range) + per map-loop iteration while any lane is scanning:
//   LD.U8 buf[j] if a lane is not in START_LINK, 2 (switch), and per case with lanes:
//   START 2, IN_TAG 3, IN_ATAG 1 + (2 per compared "href" character, up to the most any lane
//   compares, + 3 if a lane saw 'h') + (2 if a lane did not), FOUND_HREF 4,
//   START_LINK 4 (L + 1) for the longest link L + (count pass 9 | emit pass 2 + 7 L + 1 + 3 + 8 +
//   3 + 9) + 2; then 3 (loop) ... and EXIT.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>

#include "WorkloadTestHelpers.hpp"
#include "workloads/builtin/InvertedIndexData.hpp"

namespace invertedindex_test {

using namespace gpusim;
using namespace gpusim::test;

namespace {

using II = InvertedIndexData;

uint64_t expectWarp(const II& d, uint64_t warp, bool counting, uint64_t* loads) {
    std::vector<II::Scanner> scan;
    std::vector<bool> live;
    for (uint64_t r = warp * 32; r < warp * 32 + 32; ++r) {
        scan.emplace_back(d, r < d.records() ? r : 0);
        live.push_back(r < d.records());
    }
    if (std::none_of(live.begin(), live.end(), [](bool b) { return b; })) return 5;
    uint64_t n = 4 + 10 + 1;
    *loads += 4;
    for (;;) {
        std::vector<II::Step> steps;
        for (unsigned l = 0; l < 32; ++l) {
            II::Step s;
            if (live[l] && scan[l].next(s)) steps.push_back(s);
            else live[l] = false;
        }
        if (steps.empty()) return n;
        auto any = [&](II::State st) {
            return std::any_of(steps.begin(), steps.end(), [&](const II::Step& s) { return s.state == st; });
        };
        if (std::any_of(steps.begin(), steps.end(), [](const II::Step& s) { return s.state != II::StartLink; })) {
            n += 1;
            *loads += 1;
        }
        n += 2;
        if (any(II::Start)) n += 2;
        if (any(II::InTag)) n += 3;
        if (any(II::InATag)) {
            n += 1;
            unsigned compared = 0;
            bool sawH = false, other = false;
            for (const auto& s : steps)
                if (s.state == II::InATag) {
                    compared = std::max<unsigned>(compared, s.hrefLoads);
                    (s.hrefLoads ? sawH : other) = true;
                }
            n += 2 * compared + (sawH ? 3 : 0) + (other ? 2 : 0);
            *loads += compared;
        }
        if (any(II::FoundHref)) n += 4;
        if (any(II::StartLink)) {
            uint64_t longest = 0;
            for (const auto& s : steps)
                if (s.state == II::StartLink) longest = std::max<uint64_t>(longest, s.linkLength);
            n += 4 * (longest + 1) + 2;
            *loads += longest + 1;
            if (counting) {
                n += 9;
                *loads += 3;
            } else {
                n += 2 + 7 * longest + 1 + 3 + 8 + 3 + 9;
                *loads += longest + 3 + 4 + 1 + 3;
            }
        }
        n += 3;
    }
}

} // namespace

TEST(InvertedIndexData, RecordsAndLinksMatchTheText) {
    const II d = II::generate(300, 64, 5);
    ASSERT_EQ(d.records(), 300u);
    for (uint64_t r = 0; r < 300; ++r) {
        EXPECT_EQ(d.offset[r], r == 0 ? 0 : d.offset[r - 1] + d.size[r - 1]);
        EXPECT_GE(d.size[r], 65u);                                  // record_bytes, extended
        EXPECT_EQ(d.text[d.offset[r] + d.size[r] - 1], '\n') << r;  // through the line end
        // Every `<a href="` starting in the record is found once; nothing else is.
        const std::string rec = d.text.substr(d.offset[r], d.size[r]);
        uint32_t links = 0;
        for (size_t p = rec.find("<a href=\""); p != std::string::npos; p = rec.find("<a href=\"", p + 1)) ++links;
        EXPECT_EQ(d.links[r], links) << r;
        EXPECT_EQ(d.firstLink[r], r == 0 ? 0 : d.firstLink[r - 1] + d.links[r - 1]);
    }
    EXPECT_GT(d.totalLinks(), 100u);
}

TEST(InvertedIndex, CountsFollowTheStateMachine) {
    const uint64_t records = 300;
    const II d = II::generate(records, 64, 5);
    auto w = makeWorkload("invertedindex:records=300,record_bytes=64", 5);
    ASSERT_EQ(w->kernels().size(), 2u);
    EXPECT_EQ(w->kernels()[0]->info().name, "MapperCount");
    EXPECT_EQ(w->kernels()[1]->info().name, "Mapper");
    for (int pass = 0; pass < 2; ++pass) {
        const Kernel& k = *w->kernels()[pass];
        EXPECT_EQ(k.info().grid.x, 2u);
        EXPECT_TRUE(wellFormed(k));
        uint64_t instructions = 0, loads = 0;
        for (uint64_t warp = 0; warp < 16; ++warp) instructions += expectWarp(d, warp, pass == 0, &loads);
        const Census c = census(k);
        EXPECT_EQ(c.instructions, instructions) << pass;
        EXPECT_EQ(c.globalLoads, loads) << pass;
    }
}

TEST(InvertedIndex, EmitsGoToTheRecordsOutputSlots) {
    const II d = II::generate(300, 64, 5);
    auto w = makeWorkload("invertedindex:records=300,record_bytes=64", 5);
    auto up = [](uint64_t b) { return (b + 255) / 256 * 256; };
    const uint64_t file = 0x10000000, keys = file + up(d.text.size()), vals = keys + up(300 * 16),
                   offsets = vals + up(300 * 12), perThread = up(300 * 4),
                   interKeys = offsets + up(300 * 16) + 6 * perThread;
    // The first warp with a link: its first emit's key copy goes to interKeys[firstLink[r]].
    const auto s = drain(*w->kernels()[1], 0, 0);
    unsigned lane = 32;
    for (const auto& in : s)
        if (in.op == OpClass::Store && in.accessBytes == 4 && in.addr[__builtin_ctz(in.activeMask)] >= interKeys &&
            in.addr[__builtin_ctz(in.activeMask)] < interKeys + up(d.totalLinks() * 16)) {
            lane = __builtin_ctz(in.activeMask);
            EXPECT_EQ(in.addr[lane], interKeys + uint64_t(d.firstLink[lane]) * 16);  // key word 0
            break;
        }
    ASSERT_LT(lane, 32u);
    // Every record's bytes are read in order from its own part of the file: lane l's first
    // character load is buf[0] of record l.
    EXPECT_EQ(s[14].addr[3], file + d.offset[3]);
    EXPECT_EQ(s[14].accessBytes, 1u);
    // Lanes read 32 different records: one line per record start (records are > 64 bytes, so
    // few share a line).
    std::set<uint64_t> lines;
    for (unsigned l = 0; l < 32; ++l) lines.insert((file + d.offset[l]) / 128);
    EXPECT_EQ(distinctLines(s[14]), lines.size());
    EXPECT_GE(lines.size(), 16u);
    EXPECT_EQ(s[7].addr[3], keys + 3 * 16);  // key.file_buf
    EXPECT_EQ(s[9].addr[3], vals + 3 * 12 + 4);  // val.block_size
}

TEST(InvertedIndex, DeterministicBySeed) {
    const char* spec = "invertedindex:records=100,record_bytes=32";
    EXPECT_TRUE(sameWorkload(*makeWorkload(spec, 2), *makeWorkload(spec, 2)));
    EXPECT_FALSE(sameWorkload(*makeWorkload(spec, 2), *makeWorkload(spec, 3)));
}

} // namespace invertedindex_test
