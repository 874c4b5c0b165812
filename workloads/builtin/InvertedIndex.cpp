// invertedindex: the map stage of Mars's InvertedIndex (Mars MapReduce on GPUs, sample_apps/
// InvertedIndex/map.cu): every thread scans one record of an HTML file byte by byte with a small
// state machine and emits each link it finds. Mars runs the map function twice, in MapperCount
// (emits only count sizes) and, after a prefix sum, in Mapper (emits the key/value pairs):
//
//     __device__ void MAP_FUNC(void* key, void* val, ...) {           // MAP_COUNT_FUNC likewise
//         char* buf = pKey->file_buf + pVal->block_offset;
//         int size = pVal->block_size, state = START;
//         for (j = 0; j < size; j++) {
//             switch (state) {
//             case START:      if (buf[j] == '<') state = IN_TAG; break;
//             case IN_TAG:     if (buf[j] == 'a') state = IN_ATAG; else if (buf[j] == ' ') state = IN_TAG;
//                              else state = START; break;
//             case IN_ATAG:    if (buf[j] == 'h') {
//                                  char href[5] = {'h','r','e','f','\0'}; char* url_start = buf + j;
//                                  for (x = 0; x < 5; x++) if (href[x] != url_start[x]) break;
//                                  if (href[x] == '\0') { state = FOUND_HREF; j += 3; } else state = START;
//                              } else if (buf[j] == ' ') state = IN_ATAG; else state = START; break;
//             case FOUND_HREF: if (buf[j] == ' ' || buf[j] == '=') state = FOUND_HREF;
//                              else if (buf[j] == '\"') state = START_LINK; else state = START; break;
//             case START_LINK: link_end = buf + j; for (; *link_end != '\"'; link_end++);
//                              *link_end = '\0'; pKey->url_offset = j + block_offset;
//                              pKey->url_hash = hash_func(buf + j, link_end - (buf + j));
//                              EMIT_INTERMEDIATE_FUNC(key, &pVal->file_id, sizeof(II_KEY_T), sizeof(int));
//                              j += (link_end - (buf + j)); state = START; break;
//             }
//         }
//     }
//
// One thread per record (records of ~record_bytes extended to a line end), 256-thread blocks. The
// text is generated (InvertedIndexData.hpp) and the state machine replayed on it, so each lane's
// case, trip count and byte addresses are exact: lanes scan their own records (up to 32 lines per
// warp load, each reused by the next 128 iterations: intra-thread locality) and take different
// switch cases every iteration (branch divergence), with link scans of different lengths.
//
// What is approximated: Mars's runtime around the map function (its grid-stride record loop is
// one record per thread here; record access via the int4 offset table as Mars does) and the
// EMIT macros: count emit = three per-thread counter updates (LD, IADD, ST); emit = three offset
// loads, a 16-byte key copy and a 4-byte value copy as 4-byte words, the int4 offset record, and
// the three counter updates. hash_func is the source's loop (LD.U8, SHL, SHR, LOP per character).
//
// Modelled SASS per warp (both kernels; the START_LINK tail differs):
//
//   0x00 S2R CTAID.X  0x10 S2R TID.X  0x20 IMAD index  0x30 ISETP index < records
//   lanes in range: 0x40 LD.128 inputOffsetSizes[index]  0x50 IADD  0x60 IADD  0x70 LD.64 key.file_buf
//     0x80 LD val.block_offset  0x90 LD val.block_size  0xa0 IADD buf  0xb0 MOV state  0xc0 MOV j
//     0xd0 ISETP j < size
//   loop, per lane until j reaches its record size:
//     0xe0 LD.U8 buf[j] (lanes not in START_LINK)   0xf0 ISETP  0x100 BRA (switch dispatch)
//     START:      0x110 ISETP  0x120 SEL
//     IN_TAG:     0x130 ISETP  0x140 ISETP  0x150 SEL
//     IN_ATAG:    0x160 ISETP 'h'; 'h' lanes: per compared character LD.U8 url_start[x], ISETP
//                 (0x170 .. 0x200), 0x210 ISETP  0x220 SEL  0x230 IADD j;  others: 0x240 ISETP  0x250 SEL
//     FOUND_HREF: 0x260 .. 0x290  4 ALU
//     START_LINK: per character up to the '"': 0x2a0 LD.U8  0x2b0 ISETP  0x2c0 IADD  0x2d0 BRA
//                 MapperCount: 0x2e0 .. 0x360  3 x (LD, IADD, ST) per-thread counters
//                 Mapper: 0x2e0 ST.U8 *link_end  0x2f0 ST key.url_offset
//                         per URL character: 0x300 LD.U8  0x310 SHL  0x320 SHR  0x330 LOP  0x340 IADD
//                         0x350 ISETP  0x360 BRA;  0x370 ST key.url_hash
//                         0x380 .. 0x3a0 LD x3 (output offsets)  0x3b0 .. 0x420 key copy 4 x (LD, ST)
//                         0x430 LD  0x440 ST (value)  0x450 ST.128 interOffsetSizes
//                         0x460 .. 0x4e0 3 x (LD, IADD, ST) counters
//                 0x4f0 IADD j  0x500 MOV state
//     0x510 IADD j  0x520 ISETP  0x530 BRA
//   0x540 EXIT
#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "workloads/BasicWorkload.hpp"
#include "workloads/DeviceAllocator.hpp"
#include "workloads/builtin/BuiltinSupport.hpp"
#include "workloads/builtin/KernelBuilder.hpp"
#include "workloads/builtin/BuiltinWorkloads.hpp"
#include "workloads/builtin/InvertedIndexData.hpp"

namespace gpusim {

namespace inverted_index_kernel {

constexpr unsigned kThreads = 256;
constexpr unsigned kKeyBytes = 16;  // II_KEY_T { char* file_buf; int url_offset; int url_hash; }
constexpr unsigned kValBytes = 12;  // II_VAL_T { int block_offset; int block_size; int file_id; }
constexpr unsigned kOffsetBytes = 16;  // int4

namespace reg {
constexpr uint16_t kIndex = 2, kPred = 3, kOffs = 4, kKey = 5, kVal = 6, kFile = 7, kBlkOff = 8,
                   kBlkSize = 9, kBuf = 10, kState = 11, kJ = 12, kC = 13, kX = 14, kLink = 15, kHash = 16,
                   kCount = 17, kWord = 18, kOut = 19;
constexpr unsigned kUsed = 20;
} // namespace reg

enum Slot : unsigned {
    kLdOffsets = kIndex1dSlots, kIaddKey, kIaddVal, kLdFile, kLdBlkOff, kLdBlkSize, kIaddBuf,
    kMovState, kMovJ, kIsetpEnter,
    kLdC, kIsetpSwitch, kBraSwitch,
    kStartIsetp, kStartSel, kTagIsetp1, kTagIsetp2, kTagSel,
    kATagIsetp, kHref, kATagIsetpFound = kHref + 10, kATagSel, kATagIadd, kATagIsetpSpace, kATagSel2,
    kFound, kScanLd = kFound + 4, kScanIsetp, kScanIadd, kScanBra,
    kTail,
    // Mapper's START_LINK tail.
    kStNul = kTail, kStUrlOffset, kHashLd, kHashShl, kHashShr, kHashLop, kHashIadd, kHashIsetp, kHashBra, kStUrlHash,
    kLdOut, kKeyCopy = kLdOut + 3, kLdValue = kKeyCopy + 8, kStValue, kStOffsets, kCounters,
    kLinkIadd = kCounters + 9, kLinkMov, kIaddJ, kIsetpJ, kBraJ, kExit
};

struct Buffers {
    uint64_t file, keys, vals, offsets;
    uint64_t keySizes, valSizes, counts;       // interKeysSizePerTask, interValsSizePerTask, interCountPerTask
    uint64_t psKeySizes, psValSizes, psCounts;  // prefix sums of the count pass
    uint64_t interKeys, interVals, interOffsets;
};

struct Shared {
    InvertedIndexData d;
    Buffers b;
};

WarpProgram mapWarp(WarpThreads t, std::shared_ptr<const Shared> s, bool counting) {
    const InvertedIndexData& d = s->d;
    const Buffers& b = s->b;
    const uint32_t all = t.existMask();
    auto rec = [&](unsigned l) { return t.globalX(l); };
    for (const auto& op : globalIndex1d(all, {.index = reg::kIndex, .pred = reg::kPred})) co_yield op;
    const uint32_t in = t.lanesWhere([&](unsigned l) { return rec(l) < d.records(); });
    if (in != 0) {
        auto perThread = [&](uint64_t base) { return [&rec, base](unsigned l) { return base + rec(l) * kIntBytes; }; };
        co_yield inst::load(sassPc(kLdOffsets), in, {reg::kOffs}, {reg::kIndex}, kOffsetBytes,
                            [&](unsigned l) { return b.offsets + rec(l) * kOffsetBytes; });
        co_yield inst::alu(sassPc(kIaddKey), in, {reg::kKey}, {reg::kOffs});
        co_yield inst::alu(sassPc(kIaddVal), in, {reg::kVal}, {reg::kOffs});
        co_yield inst::load(sassPc(kLdFile), in, {reg::kFile}, {reg::kKey}, kPtrBytes,
                            [&](unsigned l) { return b.keys + rec(l) * kKeyBytes; });
        co_yield inst::load(sassPc(kLdBlkOff), in, {reg::kBlkOff}, {reg::kVal}, kIntBytes,
                            [&](unsigned l) { return b.vals + rec(l) * kValBytes; });
        co_yield inst::load(sassPc(kLdBlkSize), in, {reg::kBlkSize}, {reg::kVal}, kIntBytes,
                            [&](unsigned l) { return b.vals + rec(l) * kValBytes + 4; });
        co_yield inst::alu(sassPc(kIaddBuf), in, {reg::kBuf}, {reg::kFile, reg::kBlkOff});
        co_yield inst::alu(sassPc(kMovState), in, {reg::kState}, {});
        co_yield inst::alu(sassPc(kMovJ), in, {reg::kJ}, {});
        co_yield inst::alu(sassPc(kIsetpEnter), in, {reg::kPred}, {reg::kJ, reg::kBlkSize});

        std::vector<InvertedIndexData::Scanner> scan;
        scan.reserve(kWarpSize);
        for (unsigned l = 0; l < kWarpSize; ++l) scan.emplace_back(d, (in >> l & 1u) ? rec(l) : 0);
        std::array<InvertedIndexData::Step, kWarpSize> step{};
        std::array<uint32_t, kWarpSize> emitted{};
        uint32_t live = in;
        for (;;) {
            for (unsigned l = 0; l < kWarpSize; ++l)
                if ((live >> l & 1u) && !scan[l].next(step[l])) live &= ~(1u << l);
            if (live == 0) break;
            auto lanesIn = [&](InvertedIndexData::State st) {
                uint32_t m = 0;
                for (unsigned l = 0; l < kWarpSize; ++l)
                    if ((live >> l & 1u) && step[l].state == st) m |= 1u << l;
                return m;
            };
            auto at = [&](uint64_t extra) {  // buf + j + extra of each lane
                return [&, extra](unsigned l) { return b.file + d.offset[rec(l)] + step[l].j + extra; };
            };
            const uint32_t linkLanes = lanesIn(InvertedIndexData::StartLink);
            if (live & ~linkLanes)
                co_yield inst::load(sassPc(kLdC), live & ~linkLanes, {reg::kC}, {reg::kBuf, reg::kJ}, 1, at(0));
            co_yield inst::alu(sassPc(kIsetpSwitch), live, {reg::kPred}, {reg::kState});
            co_yield inst::alu(sassPc(kBraSwitch), live, {}, {reg::kPred});
            if (const uint32_t m = lanesIn(InvertedIndexData::Start)) {
                co_yield inst::alu(sassPc(kStartIsetp), m, {reg::kPred}, {reg::kC});
                co_yield inst::alu(sassPc(kStartSel), m, {reg::kState}, {reg::kPred});
            }
            if (const uint32_t m = lanesIn(InvertedIndexData::InTag)) {
                co_yield inst::alu(sassPc(kTagIsetp1), m, {reg::kPred}, {reg::kC});
                co_yield inst::alu(sassPc(kTagIsetp2), m, {reg::kPred}, {reg::kC, reg::kPred});
                co_yield inst::alu(sassPc(kTagSel), m, {reg::kState}, {reg::kPred});
            }
            if (const uint32_t m = lanesIn(InvertedIndexData::InATag)) {
                co_yield inst::alu(sassPc(kATagIsetp), m, {reg::kPred}, {reg::kC});
                const uint32_t h = t.lanesWhere(m, [&](unsigned l) { return step[l].hrefLoads > 0; });
                if (h != 0) {
                    for (unsigned x = 0; x < 5; ++x) {
                        const uint32_t cmp = t.lanesWhere(h, [&](unsigned l) { return step[l].hrefLoads > x; });
                        if (cmp == 0) break;
                        co_yield inst::load(sassPc(kHref + 2 * x), cmp, {reg::kX}, {reg::kBuf, reg::kJ}, 1, at(x));
                        co_yield inst::alu(sassPc(kHref + 2 * x + 1), cmp, {reg::kPred}, {reg::kX});
                    }
                    co_yield inst::alu(sassPc(kATagIsetpFound), h, {reg::kPred}, {reg::kX});
                    co_yield inst::alu(sassPc(kATagSel), h, {reg::kState}, {reg::kPred});
                    co_yield inst::alu(sassPc(kATagIadd), h, {reg::kJ}, {reg::kJ, reg::kPred});
                }
                if (const uint32_t other = m & ~h) {
                    co_yield inst::alu(sassPc(kATagIsetpSpace), other, {reg::kPred}, {reg::kC});
                    co_yield inst::alu(sassPc(kATagSel2), other, {reg::kState}, {reg::kPred});
                }
            }
            if (const uint32_t m = lanesIn(InvertedIndexData::FoundHref))
                for (unsigned q = 0; q < 4; ++q)
                    co_yield inst::alu(sassPc(kFound + q), m, {q < 3 ? reg::kPred : reg::kState}, {reg::kC, reg::kPred});
            if (linkLanes != 0) {
                auto len = [&](unsigned l) { return step[l].linkLength; };
                uint32_t longest = 0;
                for (unsigned l = 0; l < kWarpSize; ++l)
                    if (linkLanes >> l & 1u) longest = std::max(longest, len(l));
                // The scan loads through the closing quote: length + 1 characters.
                for (uint32_t c = 0; c <= longest; ++c) {
                    const uint32_t m = t.lanesWhere(linkLanes, [&](unsigned l) { return len(l) >= c; });
                    co_yield inst::load(sassPc(kScanLd), m, {reg::kX}, {reg::kLink}, 1, at(c));
                    co_yield inst::alu(sassPc(kScanIsetp), m, {reg::kPred}, {reg::kX});
                    co_yield inst::alu(sassPc(kScanIadd), m, {reg::kLink}, {reg::kLink});
                    co_yield inst::alu(sassPc(kScanBra), m, {}, {reg::kPred});
                }
                const std::array<uint64_t, 3> counters{b.keySizes, b.valSizes, b.counts};
                if (!counting) {
                    co_yield inst::store(sassPc(kStNul), linkLanes, {reg::kLink, kRz}, 1,
                                         [&](unsigned l) { return b.file + d.offset[rec(l)] + step[l].j + len(l); });
                    co_yield inst::store(sassPc(kStUrlOffset), linkLanes, {reg::kKey, reg::kJ}, kIntBytes,
                                         [&](unsigned l) { return b.keys + rec(l) * kKeyBytes + 8; });
                    for (uint32_t c = 0; c < longest; ++c) {
                        const uint32_t m = t.lanesWhere(linkLanes, [&](unsigned l) { return len(l) > c; });
                        co_yield inst::load(sassPc(kHashLd), m, {reg::kX}, {reg::kBuf, reg::kJ}, 1, at(c));
                        co_yield inst::alu(sassPc(kHashShl), m, {reg::kWord}, {reg::kHash});
                        co_yield inst::alu(sassPc(kHashShr), m, {reg::kOut}, {reg::kHash});
                        co_yield inst::alu(sassPc(kHashLop), m, {reg::kHash}, {reg::kWord, reg::kOut, reg::kX});
                        for (const auto& op : backEdge(m, kHashIadd, reg::kLink, reg::kPred)) co_yield op;
                    }
                    co_yield inst::store(sassPc(kStUrlHash), linkLanes, {reg::kKey, reg::kHash}, kIntBytes,
                                         [&](unsigned l) { return b.keys + rec(l) * kKeyBytes + 12; });
                    const std::array<uint64_t, 3> prefix{b.psKeySizes, b.psValSizes, b.psCounts};
                    for (unsigned q = 0; q < 3; ++q)
                        co_yield inst::load(sassPc(kLdOut + q), linkLanes, {reg::kOut}, {reg::kIndex}, kIntBytes,
                                            perThread(prefix[q]));
                    auto slot = [&](unsigned l) { return uint64_t(d.firstLink[rec(l)]) + emitted[l]; };
                    for (unsigned w = 0; w < 4; ++w) {
                        co_yield inst::load(sassPc(kKeyCopy + 2 * w), linkLanes, {reg::kWord}, {reg::kKey}, kIntBytes,
                                            [&, w](unsigned l) { return b.keys + rec(l) * kKeyBytes + 4 * w; });
                        co_yield inst::store(sassPc(kKeyCopy + 2 * w + 1), linkLanes, {reg::kOut, reg::kWord}, kIntBytes,
                                             [&, w](unsigned l) { return b.interKeys + slot(l) * kKeyBytes + 4 * w; });
                    }
                    co_yield inst::load(sassPc(kLdValue), linkLanes, {reg::kWord}, {reg::kVal}, kIntBytes,
                                        [&](unsigned l) { return b.vals + rec(l) * kValBytes + 8; });
                    co_yield inst::store(sassPc(kStValue), linkLanes, {reg::kOut, reg::kWord}, kIntBytes,
                                         [&](unsigned l) { return b.interVals + slot(l) * kIntBytes; });
                    co_yield inst::store(sassPc(kStOffsets), linkLanes, {reg::kOut, reg::kCount}, kOffsetBytes,
                                         [&](unsigned l) { return b.interOffsets + slot(l) * kOffsetBytes; });
                }
                // The count emit, or the running sizes the emit advances.
                const unsigned counterBase = counting ? unsigned(kTail) : unsigned(kCounters);
                for (unsigned q = 0; q < 3; ++q) {
                    co_yield inst::load(sassPc(counterBase + 3 * q), linkLanes, {reg::kCount}, {reg::kIndex}, kIntBytes,
                                        perThread(counters[q]));
                    co_yield inst::alu(sassPc(counterBase + 3 * q + 1), linkLanes, {reg::kCount}, {reg::kCount});
                    co_yield inst::store(sassPc(counterBase + 3 * q + 2), linkLanes, {reg::kIndex, reg::kCount}, kIntBytes,
                                         perThread(counters[q]));
                }
                for (unsigned l = 0; l < kWarpSize; ++l) emitted[l] += linkLanes >> l & 1u;
                co_yield inst::alu(sassPc(kLinkIadd), linkLanes, {reg::kJ}, {reg::kJ, reg::kLink});
                co_yield inst::alu(sassPc(kLinkMov), linkLanes, {reg::kState}, {});
            }
            for (const auto& op : backEdge(live, kIaddJ, reg::kJ, reg::kPred, reg::kBlkSize)) co_yield op;
        }
    }
    co_yield inst::exit(sassPc(kExit), all);
}

std::unique_ptr<Workload> makeInvertedIndex(const std::map<std::string, int64_t>& params, uint64_t seed) {
    const uint64_t records = param(params, "records"), recordBytes = param(params, "record_bytes");
    auto s = std::make_shared<Shared>();
    s->d = InvertedIndexData::generate(records, recordBytes, seed);
    const uint64_t links = std::max<uint64_t>(s->d.totalLinks(), 1);
    // main() allocates the file; Mars's MapReduce() then the input records, the count-pass arrays,
    // their prefix sums and the intermediate output.
    DeviceAllocator mem;
    Buffers& b = s->b;
    b.file = mem.allocate(s->d.text.size());
    b.keys = mem.allocate(records * kKeyBytes);
    b.vals = mem.allocate(records * kValBytes);
    b.offsets = mem.allocate(records * kOffsetBytes);
    b.keySizes = mem.allocate(records * kIntBytes);
    b.valSizes = mem.allocate(records * kIntBytes);
    b.counts = mem.allocate(records * kIntBytes);
    b.psKeySizes = mem.allocate(records * kIntBytes);
    b.psValSizes = mem.allocate(records * kIntBytes);
    b.psCounts = mem.allocate(records * kIntBytes);
    b.interKeys = mem.allocate(links * kKeyBytes);
    b.interVals = mem.allocate(links * kIntBytes);
    b.interOffsets = mem.allocate(links * kOffsetBytes);
    std::shared_ptr<const Shared> shared = s;
    const Dim3 grid{static_cast<unsigned>(ceilDiv(records, kThreads)), 1, 1};
    std::vector<std::unique_ptr<Kernel>> kernels;
    kernels.push_back(makeProgramKernel("MapperCount", grid, {kThreads, 1, 1}, reg::kUsed, 0,
                                        [shared](const WarpThreads& t) { return mapWarp(t, shared, true); }));
    kernels.push_back(makeProgramKernel("Mapper", grid, {kThreads, 1, 1}, reg::kUsed, 0,
                                        [shared](const WarpThreads& t) { return mapWarp(t, shared, false); }));
    return std::make_unique<BasicWorkload>("invertedindex", nlohmann::json(params), std::move(kernels));
}

} // namespace inverted_index_kernel

WorkloadInfo invertedIndexWorkload() {
    using namespace inverted_index_kernel;
    return {"invertedindex",
            "Mars InvertedIndex-like map stage: each thread scans its own HTML record with a state machine "
            "(branch-divergent, a line per lane), count pass then emit pass",
            {{"records", 2048, 1, 1 << 22, "map records, one per thread"},
             {"record_bytes", 64, 16, 1 << 16, "bytes per record before extending to the line end (Mars: 1024)"}},
            makeInvertedIndex,
            "Mars MapReduce 2009, sample_apps/InvertedIndex (map.cu), modelled after its map function",
            WorkloadClass::MemoryDivergent};
}

} // namespace gpusim
