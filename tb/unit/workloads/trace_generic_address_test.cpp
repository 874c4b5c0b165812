// Generic LD / ST resolved through the kernel header's windows (workloads/trace/
// GenericAddress.hpp), as Accel-Sim does: shared in [shmem base, local mem base), local in
// [local mem base, + 16 KiB), global elsewhere, a lane exactly at a window's end outside it; the
// first active lane decides for a warp whose lanes fall in different windows (counted); a header
// without windows leaves generic accesses global (counted). Addresses are picked on either side
// of each window edge; expected spaces and counts follow from the lines.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "tb/common/ProcessRunner.hpp"
#include "workloads/trace/GenericAddress.hpp"
#include "workloads/trace/InstructionLine.hpp"
#include "workloads/trace/LineReader.hpp"
#include "workloads/trace/TraceFileReader.hpp"
#include "workloads/trace/TraceWorkload.hpp"

namespace trace_generic_address_test {

using namespace gpusim;
using gpusim::tb::ScratchDir;
using gpusim::tb::writeFile;

namespace {

// The tracer's bases are 16 MiB apart in this example, as in real NVBit traces.
constexpr uint64_t kShared = 0x00007f0000000000ull, kLocal = 0x00007f0001000000ull;
const GenericWindows kWindows{kShared, kLocal};

std::array<uint64_t, kWarpSize> addresses(std::initializer_list<uint64_t> lanes) {
    std::array<uint64_t, kWarpSize> a{};
    unsigned i = 0;
    for (uint64_t v : lanes) a[i++] = v;
    return a;
}

ParsedLine parse(std::string_view line, const GenericWindows& w = kWindows) {
    ParsedLine p;
    TraceDecoding d;
    d.windows = w;
    parseInstructionLine(line, TraceLineFormat(4), p, d);
    return p;
}

const char* kHeader =
    "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-binary version = 70\n"
    "-accelsim tracer version = 4\n";
const char* kWindowKeys = "-shmem base_addr = 0x00007f0000000000\n-local mem base_addr = 0x00007f0001000000\n";

// One warp: a shared LD, a local ST, a global LD, an LD whose lane 0 is in the shared window and
// lane 1 global (mask 3), an LDG into the shared window (not generic), EXIT.
const char* kWarp =
    "\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 6\n"
    "0000 ffffffff 1 R4 LD.E 1 R2 4 1 0x7f0000000100 4\n"
    "0010 ffffffff 0 ST.E 2 R2 R4 4 1 0x7f0001000000 4\n"
    "0020 ffffffff 1 R4 LD.E.64 1 R2 8 1 0x10000000 8\n"
    "0030 00000003 1 R4 LD.E 1 R2 4 0 0x7f0000000200 0x20000000\n"
    "0040 ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f0000000300 4\n"
    "0050 ffffffff 0 EXIT 0 0\n"
    "#END_TB\n";

std::vector<WarpInstruction> readWarp(const std::string& text, TraceTally& tally) {
    TraceFileReader r(LineReader::fromMemory("k.traceg", text));
    ThreadBlockTrace tb;
    r.readThreadBlock(0, tb, tally);
    std::vector<WarpInstruction> out;
    WarpInstruction in;
    for (size_t pos = 0; tb.warps[0].read(pos, in);) out.push_back(in);
    return out;
}

} // namespace

TEST(TraceGenericAddress, WindowEdges) {
    EXPECT_EQ(genericSpaceOf(kShared - 1, kWindows), MemSpace::Global);
    EXPECT_EQ(genericSpaceOf(kShared, kWindows), MemSpace::Shared);
    EXPECT_EQ(genericSpaceOf(kLocal - 1, kWindows), MemSpace::Shared);  // the shared window ends at the local base
    EXPECT_EQ(genericSpaceOf(kLocal, kWindows), MemSpace::Local);
    EXPECT_EQ(genericSpaceOf(kLocal + kGenericLocalWindowBytes - 1, kWindows), MemSpace::Local);
    EXPECT_EQ(genericSpaceOf(kLocal + kGenericLocalWindowBytes, kWindows), MemSpace::Global);  // exactly at the end
    EXPECT_EQ(genericSpaceOf(0x1000, kWindows), MemSpace::Global);
    EXPECT_EQ(kGenericLocalWindowBytes, 16384u);  // Accel-Sim's LOCAL_MEM_SIZE_MAX
}

TEST(TraceGenericAddress, MissingOrReversedWindows) {
    const GenericWindows none{};
    EXPECT_EQ(genericSpaceOf(kShared, none), MemSpace::Global);
    EXPECT_EQ(genericSpaceOf(0, none), MemSpace::Global);
    // The local base alone: a local window, but no end for a shared one.
    const GenericWindows localOnly{0, kLocal};
    EXPECT_EQ(genericSpaceOf(kShared, localOnly), MemSpace::Global);
    EXPECT_EQ(genericSpaceOf(kLocal, localOnly), MemSpace::Local);
    // The shared base alone: no window at all (its end is the local base).
    const GenericWindows sharedOnly{kShared, 0};
    EXPECT_EQ(genericSpaceOf(kShared, sharedOnly), MemSpace::Global);
    // Local below shared: the shared window [shared, local) is empty, as in Accel-Sim.
    const GenericWindows reversed{kLocal, kShared};
    EXPECT_EQ(genericSpaceOf(kLocal, reversed), MemSpace::Global);
    EXPECT_EQ(genericSpaceOf(kShared, reversed), MemSpace::Local);
}

TEST(TraceGenericAddress, FirstActiveLaneDecidesForMixedWindows) {
    const GenericResolution same = resolveGeneric(0x3, addresses({kShared, kShared + 4}), kWindows);
    EXPECT_EQ(same.space, MemSpace::Shared);
    EXPECT_FALSE(same.mixed);
    const GenericResolution localFirst = resolveGeneric(0x3, addresses({kLocal, kShared}), kWindows);
    EXPECT_EQ(localFirst.space, MemSpace::Local);
    EXPECT_TRUE(localFirst.mixed);
    // Lanes 3 (global) and 5 (shared) active; lanes 0-2 hold shared addresses but do not count.
    const GenericResolution globalFirst =
        resolveGeneric(0x28, addresses({kShared, kShared, kShared, 0x5000, 0, kShared}), kWindows);
    EXPECT_EQ(globalFirst.space, MemSpace::Global);
    EXPECT_TRUE(globalFirst.mixed);
    const GenericResolution inactive = resolveGeneric(0, addresses({kShared}), kWindows);
    EXPECT_EQ(inactive.space, MemSpace::Global);
    EXPECT_FALSE(inactive.mixed);
}

TEST(TraceGenericAddress, InstructionLinesResolveOnlyGenericLdSt) {
    ParsedLine p = parse("0 ffffffff 1 R4 LD.E 1 R2 4 1 0x7f0000000100 4");
    EXPECT_EQ(p.inst.op, OpClass::Load);
    EXPECT_EQ(p.inst.space, MemSpace::Shared);
    EXPECT_FALSE(p.genericMixed);
    p = parse("0 ffffffff 0 ST.E.64 2 R2 R4 8 1 0x7f0001000010 8");
    EXPECT_EQ(p.inst.op, OpClass::Store);
    EXPECT_EQ(p.inst.space, MemSpace::Local);
    p = parse("0 ffffffff 1 R4 LD.E 1 R2 4 1 0x10000000 4");
    EXPECT_EQ(p.inst.space, MemSpace::Global);
    p = parse("0 00000003 1 R4 LD.E 1 R2 4 0 0x7f0000000200 0x20000000");
    EXPECT_EQ(p.inst.space, MemSpace::Shared);
    EXPECT_TRUE(p.genericMixed);
    // Without windows: global, whatever the address.
    p = parse("0 ffffffff 1 R4 LD.E 1 R2 4 1 0x7f0000000100 4", GenericWindows{});
    EXPECT_EQ(p.inst.space, MemSpace::Global);
    // Not generic: LDG and ATOM keep their global space even inside the shared window.
    p = parse("0 ffffffff 1 R4 LDG.E 1 R2 4 1 0x7f0000000100 4");
    EXPECT_EQ(p.inst.space, MemSpace::Global);
    p = parse("0 ffffffff 1 R4 ATOM.E.ADD 1 R2 4 1 0x7f0000000100 4");
    EXPECT_EQ(p.inst.op, OpClass::Load);
    EXPECT_TRUE(p.inst.atomic);
    EXPECT_EQ(p.inst.space, MemSpace::Global);
}

TEST(TraceGenericAddress, TheReaderUsesTheHeadersWindowsAndCounts) {
    TraceTally tally;
    const std::vector<WarpInstruction> s = readWarp(std::string(kHeader) + kWindowKeys + kWarp, tally);
    ASSERT_EQ(s.size(), 6u);
    EXPECT_EQ(s[0].space, MemSpace::Shared);
    EXPECT_EQ(s[1].space, MemSpace::Local);
    EXPECT_EQ(s[2].space, MemSpace::Global);
    EXPECT_EQ(s[3].space, MemSpace::Shared);  // lane 0's window
    EXPECT_EQ(s[4].space, MemSpace::Global);  // LDG
    EXPECT_EQ(tally.genericShared, 2u);
    EXPECT_EQ(tally.genericLocal, 1u);
    EXPECT_EQ(tally.genericGlobal, 1u);
    EXPECT_EQ(tally.genericMixedWindows, 1u);
    EXPECT_EQ(tally.genericWithoutWindows, 0u);
}

TEST(TraceGenericAddress, AHeaderWithoutWindowsLeavesGenericAccessesGlobal) {
    TraceTally tally;
    const std::vector<WarpInstruction> s = readWarp(std::string(kHeader) + kWarp, tally);
    for (unsigned i = 0; i < 5; ++i) EXPECT_EQ(s[i].space, MemSpace::Global) << i;
    EXPECT_EQ(tally.genericGlobal, 4u);
    EXPECT_EQ(tally.genericWithoutWindows, 4u);
    EXPECT_EQ(tally.genericMixedWindows, 0u);
}

TEST(TraceGenericAddress, TheReportCountsAndWarns) {
    ScratchDir d;
    writeFile(d / "kernelslist.g", "kernel-1.traceg\nkernel-2.traceg\n");
    writeFile(d / "kernel-1.traceg", std::string(kHeader) + kWindowKeys + kWarp);
    writeFile(d / "kernel-2.traceg", std::string(kHeader) + kWarp);
    TraceWorkload wl(d.path().string());
    for (const auto& k : wl.kernels()) {
        auto stream = k->warp(0, 0);
        WarpInstruction in;
        while (stream->next(in)) {
        }
    }
    const nlohmann::json r = wl.report();
    EXPECT_EQ(r["generic_ld_st"], nlohmann::json({{"global", 5},
                                                  {"shared", 2},
                                                  {"local", 1},
                                                  {"mixed_windows", 1},
                                                  {"without_windows", 4}}));
    ASSERT_EQ(r["warnings"].size(), 2u);
    EXPECT_EQ(r["warnings"][0],
              "trace: 1 generic LD/ST instructions had active lanes in more than one window (shared, local, global); "
              "each went to its first active lane's space, as in Accel-Sim");
    EXPECT_EQ(r["warnings"][1],
              "trace: 4 generic LD/ST instructions in kernels without -shmem base_addr and -local mem base_addr went "
              "to global memory (Accel-Sim takes them as shared)");
}

} // namespace trace_generic_address_test
