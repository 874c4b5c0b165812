// Trace export (workloads/trace/TraceWriter.hpp): line format and the tracer's address
// compression choices, then the round trip for every built-in workload registered at test time
// (export at its smallest parameters, re-import with the trace reader, identical instruction
// streams for every warp of every CTA of every kernel), plain and .xz.
#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include "common/SimError.hpp"
#include "tb/common/ProcessRunner.hpp"
#include "workloads/InstructionFactory.hpp"
#include "workloads/trace/InstructionLine.hpp"
#include "workloads/trace/TraceWorkload.hpp"
#include "workloads/trace/TraceWriter.hpp"

namespace trace_export_test {

using namespace gpusim;
using gpusim::tb::ScratchDir;

namespace {

WarpInstruction memInst(OpClass op, uint32_t mask, uint8_t bytes, auto addrOfLane, MemSpace space = MemSpace::Global) {
    if (op == OpClass::Load) return inst::load(0x40, mask, {4}, {2}, bytes, addrOfLane, space);
    return inst::store(0x40, mask, {2, 4}, bytes, addrOfLane, space);
}

// Field by field; addresses only of active lanes of memory instructions (the only ones the SM
// reads; built-in kernels leave the others unspecified).
std::string differences(const WarpInstruction& a, const WarpInstruction& b) {
    std::string d;
    auto check = [&](bool same, const char* what) {
        if (!same) d += std::string(d.empty() ? "" : ", ") + what;
    };
    check(a.pc == b.pc, "pc");
    check(a.op == b.op, "op");
    check(a.activeMask == b.activeMask, "mask");
    check(a.numDst == b.numDst, "numDst");
    check(a.numSrc == b.numSrc, "numSrc");
    for (unsigned i = 0; i < a.numDst && i < b.numDst; ++i) check(a.dst[i] == b.dst[i], "dst");
    for (unsigned i = 0; i < a.numSrc && i < b.numSrc; ++i) check(a.src[i] == b.src[i], "src");
    check(a.accessBytes == b.accessBytes, "accessBytes");
    if (a.isMemory() && b.isMemory()) {
        check(a.space == b.space, "space");
        for (unsigned lane = 0; lane < kWarpSize; ++lane)
            if (a.activeMask >> lane & 1u) check(a.addr[lane] == b.addr[lane], "addr");
    }
    return d;
}

// The smallest problem of a built-in workload: every parameter at its minimum (defaults if that
// combination is rejected).
std::unique_ptr<Workload> smallest(const WorkloadInfo& info) {
    std::string spec = info.name;
    for (size_t i = 0; i < info.params.size(); ++i)
        spec += (i ? "," : ":") + info.params[i].name + "=" + std::to_string(info.params[i].min);
    try {
        return WorkloadRegistry::builtin().create(spec, 7);
    } catch (const InputError&) {
        return WorkloadRegistry::builtin().create(info.name, 7);
    }
}

struct Counts {
    uint64_t instructions = 0, warps = 0, twoDestinations = 0;
};

// Every warp of `orig` against the same warp of `back`; returns what was compared.
Counts compareWorkloads(const Workload& orig, const Workload& back) {
    Counts c;
    EXPECT_EQ(orig.kernels().size(), back.kernels().size());
    for (size_t k = 0; k < orig.kernels().size() && k < back.kernels().size(); ++k) {
        const Kernel& a = *orig.kernels()[k];
        const Kernel& b = *back.kernels()[k];
        const KernelInfo &ia = a.info(), &ib = b.info();
        EXPECT_EQ(ia.name, ib.name);
        EXPECT_EQ(ia.grid.size(), ib.grid.size());
        EXPECT_EQ(ia.grid.x, ib.grid.x);
        EXPECT_EQ(ia.grid.y, ib.grid.y);
        EXPECT_EQ(ia.block.x, ib.block.x);
        EXPECT_EQ(ia.block.y, ib.block.y);
        EXPECT_EQ(ia.block.z, ib.block.z);
        EXPECT_EQ(ia.regsPerThread, ib.regsPerThread);
        EXPECT_EQ(ia.smemPerCta, ib.smemPerCta);
        for (uint64_t cta = 0; cta < ia.ctas(); ++cta)
            for (unsigned w = 0; w < ia.warpsPerCta(); ++w) {
                auto sa = a.warp(cta, w);
                auto sb = b.warp(cta, w);
                WarpInstruction x, y;
                uint64_t n = 0;
                for (;;) {
                    const bool ha = sa->next(x), hb = sb->next(y);
                    if (ha != hb) {
                        ADD_FAILURE() << ia.name << " CTA " << cta << " warp " << w << ": streams differ in length at "
                                      << n;
                        break;
                    }
                    if (!ha) break;
                    const std::string d = differences(x, y);
                    if (!d.empty()) {
                        ADD_FAILURE() << ia.name << " CTA " << cta << " warp " << w << " instruction " << n << ": " << d;
                        return c;
                    }
                    c.twoDestinations += x.numDst > 1;
                    ++n;
                }
                c.instructions += n;
                ++c.warps;
            }
    }
    return c;
}

std::vector<std::string> builtinNames() {
    std::vector<std::string> v;
    for (const auto& info : WorkloadRegistry::builtin().all()) v.push_back(info.name);
    return v;
}

} // namespace

TEST(TraceExportFormat, LineLayoutAndOpcodes) {
    EXPECT_EQ(formatInstructionLine(inst::alu(0x30, 0xffffffff, {7}, {4, 5, 255})),
              "0030 ffffffff 1 R7 FFMA 3 R4 R5 R255 0 0 ");
    EXPECT_EQ(formatInstructionLine(inst::sfu(0x1230, 0xff, {1}, {1})), "1230 000000ff 1 R1 MUFU.RCP 1 R1 0 0 ");
    EXPECT_EQ(formatInstructionLine(inst::barrier(0x50, 0xffffffff)), "0050 ffffffff 0 BAR.SYNC 0 0 0 ");
    EXPECT_EQ(formatInstructionLine(inst::exit(0x60, 0x1)), "0060 00000001 0 EXIT 0 0 0 ");
    auto lane4 = [](unsigned l) { return 0x1000 + 4 * l; };
    // Width suffixes, from which the tracer derives mem_width: .U8 1, .U16 2, none 4, .64 8, .128 16.
    const std::pair<uint8_t, const char*> widths[] = {{1, "LDG.E.U8"}, {2, "LDG.E.U16"}, {4, "LDG.E"},
                                                      {8, "LDG.E.64"}, {16, "LDG.E.128"}};
    for (const auto& [bytes, op] : widths)
        EXPECT_EQ(formatInstructionLine(memInst(OpClass::Load, 0x3, bytes, lane4)),
                  "0040 00000003 1 R4 " + std::string(op) + " 1 R2 " + std::to_string(bytes) + " 1 0x1000 4 0 ");
    EXPECT_EQ(formatInstructionLine(memInst(OpClass::Store, 0x3, 4, lane4)), "0040 00000003 0 STG.E 2 R2 R4 4 1 0x1000 4 0 ");
    EXPECT_EQ(formatInstructionLine(memInst(OpClass::Load, 0x3, 4, lane4, MemSpace::Shared)),
              "0040 00000003 1 R4 LDS 1 R2 4 1 0x1000 4 0 ");
    EXPECT_EQ(formatInstructionLine(memInst(OpClass::Store, 0x3, 8, lane4, MemSpace::Local)),
              "0040 00000003 0 STL.64 2 R2 R4 8 1 0x1000 4 0 ");
}

// A tensor instruction is written as Volta's HMMA (the export declares -binary version 70), which
// reads back, with the Volta table, as a tensor instruction with the same registers.
TEST(TraceExportFormat, TensorInstructionsRoundTripAsHmma) {
    const WarpInstruction t = inst::tensor(0x70, 0xffffffff, {4, 5}, {8, 10, 4});
    const std::string line = formatInstructionLine(t);
    EXPECT_EQ(line, "0070 ffffffff 2 R4 R5 HMMA.884.F32.F32 3 R8 R10 R4 0 0 ");
    ParsedLine back;
    TraceDecoding volta;
    volta.opcodes = chooseSassTable(70);
    parseInstructionLine(line, {5, false}, back, volta);
    EXPECT_TRUE(back.cls.known);
    EXPECT_EQ(differences(t, back.inst), "");
}

TEST(TraceExportFormat, AddressCompressionAsTheTracerChoosesIt) {
    auto line = [](uint32_t mask, auto addr) { return formatInstructionLine(memInst(OpClass::Load, mask, 4, addr)); };
    auto tail = [](const std::string& l) { return l.substr(l.find(" 4 ", 20) + 3); };
    // One run of lanes with a constant step: mode 1, even a negative step.
    EXPECT_EQ(tail(line(0x0000fff0, [](unsigned l) { return 0x9000 - 8 * l; })), "1 0x8fe0 -8 0 ");
    // No active lane: the tracer's "1 0x0 0".
    EXPECT_EQ(tail(line(0, [](unsigned) { return 0x9000; })), "1 0x0 0 0 ");
    // A single lane is not a run for the tracer: mode 2 with no delta.
    EXPECT_EQ(tail(line(0x00000100, [](unsigned) { return 0x9000; })), "2 0x9000 0 ");
    // Constant step but two runs (lanes 0-1 and 3-4): mode 2, deltas from the previous active lane.
    EXPECT_EQ(tail(line(0x0000001b, [](unsigned l) { return 0x100 + 4 * l; })), "2 0x100 4 8 4 0 ");
    // One run, step changes: mode 2 with negative deltas.
    EXPECT_EQ(tail(line(0x00000007, [](unsigned l) { return l == 1 ? 0x50 : 0x100 + l; })), "2 0x100 -176 178 0 ");
    // A step that does not fit 32 bits: mode 2 (the tracer would truncate it to an int).
    EXPECT_EQ(tail(line(0x00000003, [](unsigned l) { return 0x100 + (uint64_t(l) << 32); })), "2 0x100 4294967296 0 ");
    // Lane 31 as the first active lane has no lane 32 after it: mode 2.
    EXPECT_EQ(tail(line(0x80000000, [](unsigned) { return 0x7; })), "2 0x7 0 ");
}

TEST(TraceExportFormat, UniformRegistersAndPredicatesAreWrittenByName) {
    // S2UR-like: UR4 <- nothing; a read of UR4, URZ, P0, PT, UP1, UPT; RZ stays R255.
    const WarpInstruction in = inst::alu(0x10, 0xffffffff, {uint16_t(kUniformRegisterBase + 4)},
                                         {kUniformZeroRegister, kPredicateBase, kTruePredicate});
    EXPECT_EQ(formatInstructionLine(in), "0010 ffffffff 1 UR4 FFMA 3 URZ P0 PT 0 0 ");
    const WarpInstruction up = inst::alu(0x20, 1, {uint16_t(kUniformPredicateBase + 1)},
                                         {kUniformTruePredicate, kZeroRegister});
    EXPECT_EQ(formatInstructionLine(up), "0020 00000001 1 UP1 FFMA 2 UPT R255 0 0 ");
}

TEST(TraceExportFormat, UnwritableInstructionsAreModelErrors) {
    WarpInstruction bad = inst::alu(0, 1, {uint16_t(kRegisterSpace)}, {});  // beyond UPT
    EXPECT_THROW(formatInstructionLine(bad), ModelError);
    WarpInstruction odd = memInst(OpClass::Load, 1, 4, [](unsigned) { return 0; });
    odd.accessBytes = 3;
    EXPECT_THROW(formatInstructionLine(odd), ModelError);
}

class TraceRoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(TraceRoundTrip, ExportThenImportGivesIdenticalStreams) {
    const WorkloadInfo* info = WorkloadRegistry::builtin().find(GetParam());
    ASSERT_NE(info, nullptr);
    const auto orig = smallest(*info);
    ScratchDir dir;
    const TraceExportSummary s = exportTrace(*orig, dir.path().string());
    EXPECT_EQ(s.files.size(), orig->kernels().size() + 1);
    TraceWorkload back(dir.path().string());
    const Counts c = compareWorkloads(*orig, back);
    EXPECT_EQ(c.instructions, s.instructions);
    EXPECT_EQ(c.warps, s.warps);
    EXPECT_GT(c.instructions, 0u);
    // A trace the workload wrote has no unknown opcode and every warp ends with EXIT.
    EXPECT_EQ(back.report()["unknown_opcode_instructions"], 0);
    EXPECT_EQ(back.report()["warps_without_exit"], 0);
    // Accel-Sim's own parser takes one destination register per instruction (MAX_DST 1).
    EXPECT_EQ(c.twoDestinations, 0u) << GetParam() << ": instructions with two destination registers are "
                                                       "exported with both, which Accel-Sim's parser rejects";
}

INSTANTIATE_TEST_SUITE_P(Builtin, TraceRoundTrip, ::testing::ValuesIn(builtinNames()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                             std::string n = p.param;
                             for (char& ch : n)
                                 if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
                             return n;
                         });

// The smallest histogram is privatized=0; the default (privatized=1) has the shared-memory lock
// loop, whose LDSLK once exported two destinations and Accel-Sim refused the trace.
TEST(TraceRoundTrip, HistogramAtItsDefaultExportsOneDestinationPerInstruction) {
    const auto orig = WorkloadRegistry::builtin().create("histogram:bytes=5000,blocks=2", 7);
    ScratchDir dir;
    const TraceExportSummary s = exportTrace(*orig, dir.path().string());
    TraceWorkload back(dir.path().string());
    const Counts c = compareWorkloads(*orig, back);
    EXPECT_EQ(c.instructions, s.instructions);
    EXPECT_GT(c.instructions, 0u);
    EXPECT_EQ(c.twoDestinations, 0u);
}

TEST(TraceRoundTripXz, CompressedExportReadsBack) {
    const auto orig = WorkloadRegistry::builtin().create("atax:n=32", 1);
    ScratchDir dir;
    TraceExportOptions opt;
    opt.xz = true;
    const TraceExportSummary s = exportTrace(*orig, dir.path().string(), opt);
    ASSERT_EQ(s.files.size(), 3u);
    EXPECT_EQ(s.files[1], (dir / "kernel-1.traceg.xz").string());
    EXPECT_EQ(tb::readFile(dir / "kernelslist.g"), "kernel-1.traceg.xz\nkernel-2.traceg.xz\n");
    TraceWorkload back(dir.path().string());
    const Counts c = compareWorkloads(*orig, back);
    // Every instruction the workload yields was written and read back: the warp counts are the
    // kernels' (2 kernels x 1 CTA x 8 warps for n = 32), the instruction count is the workload's.
    EXPECT_EQ(c.warps, 16u);
    EXPECT_EQ(s.warps, 16u);
    EXPECT_EQ(c.instructions, s.instructions);
    EXPECT_GT(c.instructions, 16u);
}

} // namespace trace_export_test
