// Instruction-line layouts of Accel-Sim traces (workloads/trace/InstructionLine.hpp,
// TraceFileReader.hpp): the `#traces format` line and what it selects (zero, one or two
// immediates, tracer version 6's Val|NoVal register values, lineinfo), the version fallback
// without one, and the exact "file:line: reason" of each malformed case.
//
// The files in tb/data/traces/layouts/ are hand-written, one per layout (v3, v4, v5 with one
// immediate, v5 with two as NVBit 1.8's tracer writes them, v6 with Val and NoVal lines, v6 with
// lineinfo); every expectation below is counted by hand from the file text. Each has block
// (40,1,1): warp 0 runs 32 lanes (mask ffffffff), warp 1 the 8 lanes 0-7 (mask 000000ff).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/SimError.hpp"
#include "tb/unit/workloads/TraceTestHelpers.hpp"
#include "workloads/trace/InstructionLine.hpp"
#include "workloads/trace/LineReader.hpp"
#include "workloads/trace/TraceFileReader.hpp"
#include "workloads/trace/TraceWorkload.hpp"

namespace trace_layout_test {

using namespace gpusim;

namespace {

const std::string kDir = std::string(GPUSIM_SOURCE_DIR) + "/tb/data/traces/layouts";

// The one thread block of a layouts file, its warps as instruction lists.
struct Read {
    KernelTraceHeader header;
    TraceLineFormat format;
    std::vector<std::vector<WarpInstruction>> warps;
};

Read readFile(const std::string& name) {
    TraceFileReader r(LineReader::openFile(kDir + "/" + name));
    ThreadBlockTrace tb;
    TraceTally tally;
    r.readThreadBlock(0, tb, tally);
    r.expectEnd();
    EXPECT_EQ(tally.unknownInstructions, 0u) << name;
    EXPECT_EQ(tally.appendedExits, 0u) << name;
    Read out{r.header(), r.lineFormat(), {}};
    for (const PackedWarp& w : tb.warps) {
        out.warps.emplace_back();
        WarpInstruction in;
        for (size_t pos = 0; w.read(pos, in);) out.warps.back().push_back(in);
    }
    return out;
}

TraceLineTail tail(uint8_t immediates, bool values) {
    TraceLineTail t;
    t.immediates = immediates;
    t.values = values;
    return t;
}

// Lanes [0, lanes) of `in` at base + k * step, the others 0.
void expectRun(const WarpInstruction& in, uint64_t base, int64_t step, unsigned lanes) {
    for (unsigned k = 0; k < kWarpSize; ++k)
        EXPECT_EQ(in.addr[k], k < lanes ? base + static_cast<uint64_t>(step * k) : 0u) << "lane " << k;
}

void expectRegs(const WarpInstruction& in, std::vector<unsigned> dst, std::vector<unsigned> src) {
    ASSERT_EQ(in.numDst, dst.size());
    for (size_t i = 0; i < dst.size(); ++i) EXPECT_EQ(in.dst[i], dst[i]);
    ASSERT_EQ(in.numSrc, src.size());
    for (size_t i = 0; i < src.size(); ++i) EXPECT_EQ(in.src[i], src[i]);
}

std::string errorOf(const std::string& text) { return test::traceReadError(text); }

std::string formatError(const std::string& text) {
    try {
        parseTracesFormat(text);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

std::string lineError(const std::string& line, const TraceLineFormat& fmt) {
    try {
        ParsedLine p;
        parseInstructionLine(line, fmt, p);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

const std::string kCore =
    "PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]";

// A one-warp kernel (block 32) with `format` (empty: no #traces format line) and `lines`.
std::string kernel(unsigned version, const std::string& format, const std::vector<std::string>& lines) {
    std::string t = "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = " +
                    std::to_string(version) + "\n\n";
    if (!format.empty()) t += "#traces format = " + format + "\n\n";
    t += "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = " + std::to_string(lines.size()) + "\n";
    for (const std::string& l : lines) t += l + "\n";
    return t + "#END_TB\n";
}

unsigned lineOf(const std::string& text, const std::string& needle) {
    unsigned line = 1;
    for (size_t pos = 0;;) {
        const size_t nl = text.find('\n', pos);
        if (text.substr(pos, nl - pos).find(needle) != std::string::npos) return line;
        if (nl == std::string::npos) break;
        pos = nl + 1;
        ++line;
    }
    ADD_FAILURE() << "no line contains " << needle;
    return 0;
}

} // namespace

// --- the hand-written files, one per layout ---------------------------------------------------

TEST(TraceLayoutFiles, Version3WithTheRawTraceFieldsInItsFormatLine) {
    // The v3 tracer's format line names threadblock_x .. warpid_tb, which post-processing
    // removed from every line: 4 + 3 instructions, no immediate.
    const Read r = readFile("kernel-v3.traceg");
    EXPECT_EQ(r.header.tracerVersion, 3u);
    ASSERT_TRUE(r.format.tail.has_value());
    EXPECT_EQ(*r.format.tail, tail(0, false));
    ASSERT_EQ(r.warps.size(), 2u);
    ASSERT_EQ(r.warps[0].size(), 4u);
    ASSERT_EQ(r.warps[1].size(), 3u);
    const auto& w0 = r.warps[0];
    EXPECT_EQ(w0[0].op, OpClass::Alu);
    expectRegs(w0[0], {1}, {});
    EXPECT_EQ(w0[1].op, OpClass::Load);
    EXPECT_EQ(w0[1].pc, 0x10u);
    EXPECT_EQ(w0[1].accessBytes, 4);
    expectRegs(w0[1], {4}, {2});
    expectRun(w0[1], 0x7f1000000000, 4, 32);
    EXPECT_EQ(w0[2].op, OpClass::Store);
    expectRegs(w0[2], {}, {2, 4});
    expectRun(w0[2], 0x7f2000000000, 4, 32);
    EXPECT_EQ(w0[3].op, OpClass::Exit);
    const auto& w1 = r.warps[1];
    EXPECT_EQ(w1[1].activeMask, 0xffu);
    expectRun(w1[1], 0x7f1000000080, 4, 8);  // mode 2: base and seven deltas of 4
    EXPECT_EQ(w1[2].op, OpClass::Exit);
}

TEST(TraceLayoutFiles, Version4WithTwoDestinationsAndAddressMode0) {
    const Read r = readFile("kernel-v4.traceg");
    EXPECT_EQ(r.header.tracerVersion, 4u);
    EXPECT_EQ(*r.format.tail, tail(0, false));
    EXPECT_FALSE(r.format.lineinfo);  // the format line's [line_num] is optional: lineinfo = 0
    ASSERT_EQ(r.warps[0].size(), 3u);
    ASSERT_EQ(r.warps[1].size(), 3u);
    const auto& w0 = r.warps[0];
    EXPECT_EQ(w0[0].accessBytes, 8);
    expectRegs(w0[0], {4, 5}, {2});
    expectRun(w0[0], 0x7f3000000000, 8, 32);
    expectRegs(w0[1], {6}, {4, 4, 255});
    expectRun(r.warps[1][0], 0x7f3000000100, 8, 8);  // mode 0: eight listed addresses
    EXPECT_EQ(r.warps[1][2].op, OpClass::Exit);
}

TEST(TraceLayoutFiles, Version5WithOneImmediate) {
    const Read r = readFile("kernel-v5_one_immediate.traceg");
    EXPECT_EQ(r.header.tracerVersion, 5u);
    EXPECT_EQ(*r.format.tail, tail(1, false));
    ASSERT_EQ(r.warps[0].size(), 4u);
    ASSERT_EQ(r.warps[1].size(), 4u);
    for (unsigned w = 0; w < 2; ++w) {
        const auto& v = r.warps[w];
        EXPECT_EQ(v[0].op, OpClass::Load);  // LDGSTS: the global read of an async copy
        EXPECT_EQ(v[0].accessBytes, 16);
        expectRegs(v[0], {8}, {2, 3});
        expectRun(v[0], w == 0 ? 0x7f4000000000 : 0x7f4000000200, 16, w == 0 ? 32 : 8);
        EXPECT_EQ(v[1].op, OpClass::Alu);      // DEPBAR.LE, immediate 1
        EXPECT_EQ(v[2].op, OpClass::Barrier);  // BAR.SYNC, immediate -1
        EXPECT_EQ(v[3].op, OpClass::Exit);
        EXPECT_EQ(v[3].pc, 0x30u);
    }
}

TEST(TraceLayoutFiles, Version5WithTwoImmediatesAsNvbit18Writes) {
    // The file that stopped at "unexpected '0' after the instruction" before the format line
    // was read: binary version 90, NVBit 1.8, immediate1 immediate2 on every line.
    const Read r = readFile("kernel-v5_two_immediates.traceg");
    EXPECT_EQ(r.header.tracerVersion, 5u);
    EXPECT_EQ(r.header.binaryVersion, 90u);
    EXPECT_EQ(r.header.nvbitVersion, "1.8");
    EXPECT_EQ(*r.format.tail, tail(2, false));
    ASSERT_EQ(r.warps[0].size(), 4u);
    ASSERT_EQ(r.warps[1].size(), 3u);
    const auto& w0 = r.warps[0];
    expectRegs(w0[0], {2}, {255, 255});
    // Mode 2: lanes 0-15 step by 4 from the base, lane 16 goes back by 60 to the base, lanes
    // 17-31 step by 4 again.
    const WarpInstruction& ld = w0[1];
    EXPECT_EQ(ld.op, OpClass::Load);
    for (unsigned k = 0; k < 32; ++k) EXPECT_EQ(ld.addr[k], 0x7f5000000000u + 4 * (k % 16)) << "lane " << k;
    EXPECT_EQ(w0[2].op, OpClass::Store);  // immediate1 = 2^64 - 1: an unsigned 64-bit operand
    expectRun(w0[2], 0x7f6000000000, 4, 32);
    EXPECT_EQ(w0[3].op, OpClass::Exit);
    expectRun(r.warps[1][1], 0x7f5000000080, 4, 8);  // immediates -1 and 7
}

TEST(TraceLayoutFiles, Version6WithValAndNoValLines) {
    const Read r = readFile("kernel-v6_values.traceg");
    EXPECT_EQ(r.header.tracerVersion, 6u);
    EXPECT_EQ(*r.format.tail, tail(2, true));
    ASSERT_EQ(r.warps[0].size(), 4u);
    ASSERT_EQ(r.warps[1].size(), 5u);
    const auto& w0 = r.warps[0];
    expectRegs(w0[0], {1}, {});            // Val and 32 values (1 register x 32 lanes)
    expectRun(w0[1], 0x7f7000000000, 4, 32);  // NoVal
    expectRun(w0[2], 0x7f7000001000, 4, 32);
    EXPECT_EQ(w0[3].op, OpClass::Exit);
    const auto& w1 = r.warps[1];
    expectRegs(w1[0], {1}, {});            // Val and 8 values: one per active lane
    expectRegs(w1[1], {3}, {255, 255});    // Val and 32 values: one per lane, inactive ones too
    expectRegs(w1[2], {4, 5}, {2});        // Val and 16 values: 2 registers x 8 active lanes
    EXPECT_EQ(w1[2].accessBytes, 8);
    expectRun(w1[2], 0x7f7000000100, 8, 8);
    EXPECT_EQ(w1[3].op, OpClass::Barrier);
    EXPECT_EQ(w1[4].op, OpClass::Exit);
    EXPECT_EQ(w1[4].pc, 0x40u);
}

TEST(TraceLayoutFiles, Version6WithLineinfo) {
    const Read r = readFile("kernel-v6_lineinfo.traceg");
    EXPECT_TRUE(r.header.lineinfo);
    EXPECT_TRUE(r.format.lineinfo);
    EXPECT_EQ(*r.format.tail, tail(2, true));
    ASSERT_EQ(r.warps[0].size(), 3u);
    ASSERT_EQ(r.warps[1].size(), 3u);
    EXPECT_EQ(r.warps[0][0].pc, 0x0u);  // the leading 12, 13, 14 are source lines, not PCs
    EXPECT_EQ(r.warps[0][1].pc, 0x10u);
    EXPECT_EQ(r.warps[0][2].pc, 0x20u);
    expectRun(r.warps[0][0], 0x7f8000000000, 4, 32);
    expectRun(r.warps[1][0], 0x7f8000000080, 4, 8);  // Val and 8 values
    expectRun(r.warps[1][1], 0x7f8000001080, 4, 8);
}

TEST(TraceLayoutFiles, TheDirectoryLoadsAsOneWorkload) {
    // kernelslist.g lists the six files after one MemcpyHtoD; the instructions per kernel are
    // the two warps' counts above.
    TraceWorkload wl(kDir);
    ASSERT_EQ(wl.kernels().size(), 6u);
    const std::vector<size_t> insts = {4 + 3, 3 + 3, 4 + 4, 4 + 3, 4 + 5, 3 + 3};
    const std::vector<std::string> names = {"layout_v3",          "layout_v4",       "layout_v5_one_immediate",
                                            "layout_v5_two_immediates", "layout_v6_values", "layout_v6_lineinfo"};
    for (size_t k = 0; k < 6; ++k) {
        Kernel& kern = *wl.kernels()[k];
        EXPECT_EQ(kern.info().name, names[k]);
        size_t n = 0;
        for (unsigned w = 0; w < 2; ++w) {
            auto s = kern.warp(0, w);
            WarpInstruction in;
            while (s->next(in)) ++n;
        }
        EXPECT_EQ(n, insts[k]) << names[k];
    }
    EXPECT_EQ(wl.list().memcpys.size(), 1u);
}

// --- the #traces format line ------------------------------------------------------------------

TEST(TracesFormat, AcceptedLayouts) {
    EXPECT_EQ(parseTracesFormat(kCore), tail(0, false));
    EXPECT_EQ(parseTracesFormat("threadblock_x threadblock_y threadblock_z warpid_tb " + kCore), tail(0, false));
    EXPECT_EQ(parseTracesFormat("[line_num] " + kCore + " immediate"), tail(1, false));
    EXPECT_EQ(parseTracesFormat("line_num " + kCore + " immediate"), tail(1, false));
    EXPECT_EQ(parseTracesFormat("PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width "
                                "[addresscompress?] [mem_addresses] immediate"),
              tail(1, false));
    EXPECT_EQ(parseTracesFormat(kCore + " immediate1 immediate2"), tail(2, false));
    EXPECT_EQ(parseTracesFormat("[line_num] " + kCore + " immediate1 immediate2 Val|NoVal [dest_val_n]"),
              tail(2, true));
    EXPECT_EQ(parseTracesFormat(kCore + " Val|NoVal"), tail(0, true));
    EXPECT_EQ(parseTracesFormat("threadblock_x threadblock_y threadblock_z warpid_tb cluster_id_x cluster_rank " +
                                kCore + "   immediate\t"),
              tail(1, false));
}

TEST(TracesFormat, LayoutsItCannotReadGiveExactReasons) {
    const std::pair<std::string, std::string> cases[] = {
        {"", "#traces format: ends before 'PC'"},
        {kCore + " immediate regvals",
         "#traces format: unknown field 'regvals' (after [mem_addresses] this reader knows immediate, "
         "immediate1 immediate2, Val|NoVal [values])"},
        {kCore + " immediate2",
         "#traces format: unknown field 'immediate2' (after [mem_addresses] this reader knows immediate, "
         "immediate1 immediate2, Val|NoVal [values])"},
        {kCore + " immediate1 immediate2 Val|NoVal [dest_val_n] pred",
         "#traces format: unknown field 'pred' (after [mem_addresses] this reader knows immediate, "
         "immediate1 immediate2, Val|NoVal [values])"},
        {kCore + " immediate1 Val|NoVal", "#traces format: 'immediate1' without 'immediate2' after it"},
        {kCore + " immediate1", "#traces format: 'immediate1' without 'immediate2' after it"},
        {"PC mask dest_num opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]",
         "#traces format: 'opcode' where '[reg_dests]' was expected"},
        {"PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width",
         "#traces format: ends before '[adrrescompress?]'"},
        {"sm_id warpid_sm " + kCore, "#traces format: 'sm_id' where 'PC' was expected"},
        {"PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [compress] [mem_addresses]",
         "#traces format: '[compress]' where '[adrrescompress?]' was expected"},
    };
    for (const auto& [text, reason] : cases) EXPECT_EQ(formatError(text), reason) << text;
}

// --- lines under each tail ----------------------------------------------------------------------

TEST(TraceLineTail, TwoImmediatesAreBothRequired) {
    const TraceLineFormat two(5, false, tail(2, false));
    EXPECT_EQ(lineError("0010 ffffffff 0 EXIT 0 0 0 0", two), "(no error)");
    EXPECT_EQ(lineError("0010 ffffffff 0 EXIT 0 0 -5 18446744073709551615", two), "(no error)");
    EXPECT_EQ(lineError("0010 ffffffff 0 EXIT 0 0 0", two), "line ends before the second immediate");
    EXPECT_EQ(lineError("0010 ffffffff 0 EXIT 0 0", two), "line ends before the first immediate");
    EXPECT_EQ(lineError("0010 ffffffff 0 EXIT 0 0 0 0 0", two),
              "unexpected '0' after the instruction (a count does not match its list?)");
    EXPECT_EQ(lineError("0010 ffffffff 0 EXIT 0 0 0 1e3", two), "bad immediate '1e3'");
    EXPECT_EQ(lineError("0010 ffffffff 0 EXIT 0 0 0 18446744073709551616", two),
              "bad immediate '18446744073709551616'");
    // The format line makes the one immediate of version 5 required; without one, it stays
    // optional (older version-5 files), and a second immediate is still the error it was.
    const TraceLineFormat one(5, false, tail(1, false));
    EXPECT_EQ(lineError("0010 ffffffff 0 EXIT 0 0", one), "line ends before the immediate");
    EXPECT_EQ(lineError("0010 ffffffff 0 EXIT 0 0", TraceLineFormat(5)), "(no error)");
    EXPECT_EQ(lineError("0010 ffffffff 0 EXIT 0 0 0 0", TraceLineFormat(5)),
              "unexpected '0' after the instruction (a count does not match its list?)");
}

TEST(TraceLineTail, ValuesAfterValOrNone) {
    const TraceLineFormat v6(6, false, tail(2, true));
    // 2 destination registers, mask 00000003 (2 active lanes): 4 values, or 64 (x 32 lanes).
    EXPECT_EQ(lineError("0 00000003 2 R4 R5 IADD 0 0 0 0 Val 1 2 3 4", v6), "(no error)");
    std::string per32 = "0 00000003 2 R4 R5 IADD 0 0 0 0 Val";
    for (int i = 0; i < 64; ++i) per32 += " 0x" + std::to_string(i);
    EXPECT_EQ(lineError(per32, v6), "(no error)");
    EXPECT_EQ(lineError("0 00000003 0 EXIT 0 0 0 0 Val", v6), "(no error)");  // no register, no value
    EXPECT_EQ(lineError("0 00000003 0 EXIT 0 0 0 0 NoVal", v6), "(no error)");
    const std::pair<const char*, const char*> cases[] = {
        {"0 00000003 1 R4 IADD 0 0 0 0", "line ends before the Val or NoVal"},
        {"0 00000003 1 R4 IADD 0 0 0 0 val 1 2", "expected Val or NoVal, found 'val'"},
        {"0 00000003 1 R4 IADD 0 0 0 0 7", "expected Val or NoVal, found '7'"},
        {"0 00000003 1 R4 IADD 0 0 0 0 NoVal 5",
         "unexpected '5' after the instruction (a count does not match its list?)"},
        {"0 00000003 1 R4 IADD 0 0 0 0 Val 1 2 3",
         "Val with 3 register values where 2 (1 destination register x 2 active lanes) or 32 "
         "(1 destination register x 32 lanes) were expected"},
        {"0 00000003 2 R4 R5 IADD 0 0 0 0 Val 1",
         "Val with 1 register value where 4 (2 destination registers x 2 active lanes) or 64 "
         "(2 destination registers x 32 lanes) were expected"},
        {"0 ffffffff 1 R4 IADD 0 0 0 0 Val 1 2",
         "Val with 2 register values where 32 (1 destination register x 32 active lanes) were expected"},
        {"0 00000001 1 R4 IADD 0 0 0 0 Val 0xg1", "bad hex register value '0xg1'"},
        {"0 00000001 1 R4 IADD 0 0 0 0 Val 0x10000000000000000",
         "register value '0x10000000000000000' exceeds 64 bits"},
    };
    for (const auto& [line, reason] : cases) EXPECT_EQ(lineError(line, v6), reason) << line;
}

TEST(TraceLineTail, VersionFallbackWithoutAFormatLine) {
    EXPECT_EQ(versionTail(3), tail(0, false));
    EXPECT_EQ(versionTail(4), tail(0, false));
    TraceLineTail v5 = tail(1, false);
    v5.immediatesOptional = true;
    EXPECT_EQ(versionTail(5), v5);
    EXPECT_EQ(versionTail(6), tail(2, true));
    EXPECT_EQ(lineError("0 00000001 1 R4 IADD 0 0 0 0 Val 9", TraceLineFormat(6)), "(no error)");
    EXPECT_EQ(lineError("0 00000001 1 R4 IADD 0 0 0 Val 9", TraceLineFormat(6)),
              "bad immediate 'Val'");
}

// --- whole files: FILE:LINE of each new error ---------------------------------------------------

TEST(TraceLayoutErrors, FormatLineAndLineErrorsNameTheirLine) {
    const std::string two = kCore + " immediate1 immediate2";
    const std::string v6 = kCore + " immediate1 immediate2 Val|NoVal [dest_val_n]";
    struct Case {
        std::string text, needle, reason;
    };
    const std::string unknownField = kernel(5, kCore + " immediate opcode_id", {"0000 ffffffff 0 EXIT 0 0 0"});
    std::string twice = kernel(5, two, {"0000 ffffffff 0 EXIT 0 0 0 0"});
    twice.insert(twice.find("#BEGIN_TB"), "#traces format = again " + two + "\n");
    const std::string v7 = kernel(7, v6, {"0000 ffffffff 0 EXIT 0 0 0 0 NoVal"});
    const std::string missingImm = kernel(5, two, {"0000 ffffffff 1 R1 S2R 0 0 0 0", "0010 ffffffff 0 EXIT 0 0 0"});
    const std::string badVal = kernel(6, v6, {"0000 ffffffff 1 R1 S2R 0 0 0 0 Val 1 2 3", "0010 ffffffff 0 EXIT 0 0 0 0 NoVal"});
    const std::string badFlag = kernel(6, v6, {"0000 ffffffff 0 EXIT 0 0 0 0 Novalue"});
    // Without its format line, the NVBit 1.8 layout fails as it did before, on the second
    // immediate: the format line is what selects two.
    const std::string noFormat = kernel(5, "", {"0000 ffffffff 0 EXIT 0 0 0 0"});
    const Case cases[] = {
        {unknownField, "#traces format",
         "#traces format: unknown field 'opcode_id' (after [mem_addresses] this reader knows immediate, "
         "immediate1 immediate2, Val|NoVal [values])"},
        {twice, "#traces format = again", "#traces format given twice"},
        {v7, "tracer version", "-accelsim tracer version 7 is not supported (3 to 6)"},
        {missingImm, "0010 ffffffff", "line ends before the second immediate"},
        {badVal, "0000 ffffffff",
         "Val with 3 register values where 32 (1 destination register x 32 active lanes) were expected"},
        {badFlag, "0000 ffffffff", "expected Val or NoVal, found 'Novalue'"},
        {noFormat, "0000 ffffffff", "unexpected '0' after the instruction (a count does not match its list?)"},
    };
    for (const Case& c : cases)
        EXPECT_EQ(errorOf(c.text), "k.traceg:" + std::to_string(lineOf(c.text, c.needle)) + ": " + c.reason) << c.text;
    EXPECT_EQ(errorOf(kernel(5, two, {"0000 ffffffff 0 EXIT 0 0 0 0"})), "");
    EXPECT_EQ(errorOf(kernel(6, "", {"0000 ffffffff 0 EXIT 0 0 0 0 NoVal"})), "");  // v6 fallback
}

} // namespace trace_layout_test
