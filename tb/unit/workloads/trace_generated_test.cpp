// The trace reader on files generated from Accel-Sim's own output statements
// (tb/common/AccelSimTraceGenerator.hpp): every tracer version (3 to 6), lineinfo on and off,
// one and two immediates, version 6's Val and NoVal lines with their counted value lists, every
// address-compression mode, and every register name (R, RZ, UR, URZ, P, PT, UP, UPT); then a
// malformed variant of each new field, which must name its line. The instructions of the example
// kernel and their counts are in AccelSimTraceExamples.hpp.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/SimError.hpp"
#include "tb/common/AccelSimTraceExamples.hpp"
#include "tb/unit/workloads/TraceTestHelpers.hpp"
#include "workloads/trace/LineReader.hpp"
#include "workloads/trace/TraceFileReader.hpp"

namespace trace_generated_test {

using namespace gpusim;
using namespace gpusim::tb::accelsim;

namespace {

struct Read {
    std::vector<std::vector<std::vector<WarpInstruction>>> ctas;  // [cta][warp][instruction]
    TraceLineTail tail;
};

Read readAll(const std::string& text) {
    TraceFileReader r(LineReader::fromMemory("k.traceg", text));
    Read out;
    out.tail = r.lineFormat().tail.value_or(TraceLineTail{});
    TraceTally tally;
    for (uint64_t c = 0; c < r.header().grid.size(); ++c) {
        ThreadBlockTrace tb;
        r.readThreadBlock(c, tb, tally);
        auto& cta = out.ctas.emplace_back();
        for (const PackedWarp& w : tb.warps) {
            auto& insts = cta.emplace_back();
            size_t pos = 0;
            WarpInstruction in;
            while (w.read(pos, in)) insts.push_back(in);
        }
    }
    r.expectEnd();
    return out;
}

// The 1-based line of `text` where `needle` first occurs.
unsigned lineOf(const std::string& text, const std::string& needle) {
    const size_t at = text.find(needle);
    EXPECT_NE(at, std::string::npos) << needle;
    unsigned line = 1;
    for (size_t i = 0; i < at && i < text.size(); ++i) line += text[i] == '\n';
    return line;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
}

constexpr uint16_t ur(unsigned n) { return uint16_t(kUniformRegisterBase + n); }
constexpr uint16_t pr(unsigned n) { return uint16_t(kPredicateBase + n); }
constexpr uint16_t upr(unsigned n) { return uint16_t(kUniformPredicateBase + n); }

void expectRegs(const WarpInstruction& in, std::vector<uint16_t> dst, std::vector<uint16_t> src) {
    ASSERT_EQ(in.numDst, dst.size()) << std::hex << in.pc;
    ASSERT_EQ(in.numSrc, src.size()) << std::hex << in.pc;
    for (size_t i = 0; i < dst.size(); ++i) EXPECT_EQ(in.dst[i], dst[i]) << std::hex << in.pc;
    for (size_t i = 0; i < src.size(); ++i) EXPECT_EQ(in.src[i], src[i]) << std::hex << in.pc;
}

// What the reader must make of exampleKernel's warp (cta, warp): worked out from the example's
// description, not from the generator's text.
void expectExampleWarp(const std::vector<WarpInstruction>& w, bool named, unsigned id, unsigned cta, unsigned warp) {
    ASSERT_EQ(w.size(), 9u);
    const uint32_t mask = warp == 0 ? 0xffffffffu : 0xffu;
    const unsigned lanes = warp == 0 ? 32 : 8;
    const uint64_t base = exampleBase(id, cta, warp);
    for (unsigned i = 0; i < 9; ++i) EXPECT_EQ(w[i].pc, 0x10u * i);
    if (named) {
        expectRegs(w[0], {ur(4)}, {});                            // S2UR UR4 = 260
        expectRegs(w[1], {10}, {ur(4), 3, kZeroRegister});        // IMAD R10 <- UR4, R3, RZ
        expectRegs(w[2], {pr(0)}, {10, ur(63), pr(7)});           // ISETP P0 <- R10, URZ, PT
        expectRegs(w[6], {upr(1)}, {upr(7), upr(7), upr(0)});     // UPLOP3 UP1 <- UPT, UPT, UP0
    } else {
        expectRegs(w[0], {1}, {});
        expectRegs(w[1], {10}, {1, 3, 255});
        expectRegs(w[2], {}, {10, 255});
        expectRegs(w[6], {12}, {255});
    }
    for (unsigned i : {0u, 1u, 2u, 6u, 7u}) EXPECT_EQ(w[i].op, OpClass::Alu) << i;
    EXPECT_EQ(w[8].op, OpClass::Exit);
    // LDG.E: 4-byte lanes from the base.
    EXPECT_EQ(w[3].op, OpClass::Load);
    EXPECT_EQ(w[3].accessBytes, 4);
    EXPECT_EQ(w[3].activeMask, mask);
    for (unsigned l = 0; l < lanes; ++l) EXPECT_EQ(w[3].addr[l], base + 4 * l) << l;
    // LDG.E.64: 8 bytes (from the opcode), 128 bytes apart, lane 1 at +136.
    EXPECT_EQ(w[4].accessBytes, 8);
    for (unsigned l = 0; l < lanes; ++l) EXPECT_EQ(w[4].addr[l], base + 0x1000 + 128 * l + (l == 1 ? 8 : 0)) << l;
    // STG.E.U8: one byte, lane 0 only.
    EXPECT_EQ(w[5].op, OpClass::Store);
    EXPECT_EQ(w[5].accessBytes, 1);
    EXPECT_EQ(w[5].activeMask, 1u);
    EXPECT_EQ(w[5].addr[0], base + 0x3000);
}

} // namespace

TEST(GeneratedTraces, EveryLayoutReadsAsTheExampleSays) {
    for (const ExampleLayout& c : exampleLayouts()) {
        SCOPED_TRACE(c.name);
        const std::string text = traceg(exampleKernel(c.layout, 3));
        const Read r = readAll(text);
        ASSERT_EQ(r.ctas.size(), 2u);
        for (unsigned cta = 0; cta < 2; ++cta) {
            ASSERT_EQ(r.ctas[cta].size(), 2u);
            for (unsigned w = 0; w < 2; ++w)
                expectExampleWarp(r.ctas[cta][w], c.layout.regs == RegisterStyle::Named, 3, cta, w);
        }
        EXPECT_EQ(r.tail.values, c.layout.tracerVersion >= 6);
        EXPECT_EQ(r.tail.valueCounts, c.layout.tracerVersion >= 6);
        EXPECT_EQ(r.tail.immediates, c.layout.immediates);
    }
}

TEST(GeneratedTraces, TheGeneratorWritesEveryAddressModeAndBothValueForms) {
    // The reader accepting them proves little if the lines lack them: the modes of the example's
    // three memory instructions, and Val / NoVal, as the text shows them.
    Layout lay = currentLayout(6);
    const std::string t = traceg(exampleKernel(lay, 1));
    const uint64_t b = exampleBase(1, 0, 0);
    char want[64];
    std::snprintf(want, sizeof want, "0030 ffffffff 1 R4 LDG.E 1 R2 4 1 0x%llx 4 0 0 Val 32 ", (unsigned long long)b);
    EXPECT_NE(t.find(want), std::string::npos) << want;                  // mode 1: base and stride 4
    std::snprintf(want, sizeof want, "LDG.E.64 1 R2 8 2 0x%llx 136 120 128 ", (unsigned long long)(b + 0x1000));
    EXPECT_NE(t.find(want), std::string::npos) << want;                  // mode 2: deltas 136, 120, 128...
    std::snprintf(want, sizeof want, "STG.E.U8 2 R2 R4 1 2 0x%llx 0 0 Val 1 ", (unsigned long long)(b + 0x3000));
    EXPECT_NE(t.find(want), std::string::npos) << want;                  // one lane: mode 2, no delta
    EXPECT_NE(t.find("0000 ffffffff 1 UR4 S2UR 0 0 0 0 Val 32 0 1 2 "), std::string::npos);
    EXPECT_NE(t.find("0000 000000ff 1 UR4 S2UR 0 0 0 0 NoVal \n"), std::string::npos);
    EXPECT_NE(t.find("1 P0 ISETP.GE.AND 3 R10 URZ PT 0"), std::string::npos);
    EXPECT_NE(t.find("1 UP1 UPLOP3.LUT 3 UPT UPT UP0 0"), std::string::npos);
    lay.compress = false;
    std::snprintf(want, sizeof want, "LDG.E 1 R2 4 0 0x%016llx 0x%016llx ", (unsigned long long)b,
                  (unsigned long long)(b + 4));
    EXPECT_NE(traceg(exampleKernel(lay, 1)).find(want), std::string::npos) << want;  // mode 0
}

TEST(GeneratedTraces, MalformedNewFieldsNameTheirLine) {
    Layout lay = currentLayout(6);
    const std::string good = traceg(exampleKernel(lay, 1));
    ASSERT_EQ(gpusim::test::traceReadError(good), "");
    const std::string regs = " (expected R0 .. R255, RZ, UR0 .. UR63, URZ, P0 .. P7, PT, UP0 .. UP7 or UPT)";
    const std::string s2ur = "0000 ffffffff 1 UR4 S2UR";
    // The format line is line 15 (13 header lines, a blank line); the first warp's first
    // instruction is line 27 (a blank line and #BEGIN_TB at 18, a blank line and thread block at
    // 20, three cluster lines, a blank line and warp 0 at 25, insts at 26).
    EXPECT_EQ(lineOf(good, "#traces format"), 15u);
    EXPECT_EQ(lineOf(good, s2ur), 27u);
    const struct {
        std::string from, to, reason;
    } cases[] = {
        {"1 UR4 S2UR", "1 UR64 S2UR", "bad register 'UR64'" + regs},
        {"1 UR4 S2UR", "1 U4 S2UR", "bad register 'U4'" + regs},
        {"1 P0 ISETP", "1 P8 ISETP", "bad register 'P8'" + regs},
        {"3 UPT UPT UP0", "3 UPT UPT UP8", "bad register 'UP8'" + regs},
        {"3 UPT UPT UP0", "3 UPZ UPT UP0", "bad register 'UPZ'" + regs},
        {"R10 URZ PT", "R10 URZ PZ", "bad register 'PZ'" + regs},
        // A count that is neither the active lanes nor 32.
        {"S2UR 0 0 0 0 Val 32 ", "S2UR 0 0 0 0 Val 31 ",
         "Val: 31 values for destination 1 (UR4) where 32 (the active lanes) were expected"},
        {"0000 000000ff 1 UR4 S2UR 0 0 0 0 NoVal", "0000 000000ff 1 UR4 S2UR 0 0 0 0 Val 4 1 2 3 4",
         "Val: 4 values for destination 1 (UR4) where 8 (the active lanes) or 32 (every lane) were expected"},
        // Too few values after a count: the line ends, or a source count is read as a value.
        {"0 0 Val 32 0 1 2 3 4 5 6 7 8 9 a b c d e f 10 11 12 13 14 15 16 17 18 19 1a 1b 1c 1d 1e 1f \n",
         "0 0 Val 32 0 1 2 \n", "line ends before the value 4 of 32 of destination 1 (UR4)"},
        {"0 0 Val 32 0 1 2 3 4 5", "0 0 Val 32 0 1 2 3 zz 5", "bad hex register value 'zz'"},
        {"0 0 Val 32 0 1", "0 0 Val x32 0 1", "bad value count 'x32'"},
        {"0 0 Val 32 0 1", "0 0 Vals 32 0 1", "expected Val or NoVal, found 'Vals'"},
    };
    for (const auto& c : cases) {
        SCOPED_TRACE(c.to);
        const std::string bad = replaced(good, c.from, c.to);
        EXPECT_EQ(gpusim::test::traceReadError(bad), "k.traceg:" + std::to_string(lineOf(bad, c.to)) + ": " + c.reason);
    }
    // The format line: the sources' fields missing, or misspelled.
    const std::string fmtTail = "[dest_val_num] [dest_val] ... [src_val1_num] [src_val1] ... [...] [src_valX_num] [src_valX] ...";
    EXPECT_EQ(gpusim::test::traceReadError(replaced(good, fmtTail, "[dest_val_num] [dest_val] ...")),
              "k.traceg:15: #traces format: '[dest_val_num] [dest_val] ...' without the sources' "
              "'[src_val1_num] [src_val1] ...'");
    EXPECT_EQ(gpusim::test::traceReadError(replaced(good, "[src_val1_num] [src_val1]", "[src_val1_num] [src_val2]")),
              "k.traceg:15: #traces format: '[src_val2]' where '[src_val1]' was expected");
    EXPECT_EQ(gpusim::test::traceReadError(replaced(good, "[dest_val] ...", "[dest_val]")),
              "k.traceg:15: #traces format: '[src_val1_num]' where '...' was expected");
}

TEST(GeneratedTraces, SourceValueCountsAreCheckedPerSource) {
    // IMAD R10 <- UR4, R3, RZ in warp 1 (8 active lanes): destination R10, then UR4, R3, RZ, each
    // "8" and 8 values. The third source with 7 values makes the line end one value short.
    Layout lay = currentLayout(6);
    gpusim::tb::accelsim::Kernel k = exampleKernel(lay, 1);
    for (Cta& c : k.ctas)
        for (Warp& w : c.warps)
            for (Inst& in : w.insts) in.values = true;
    const std::string good = traceg(k);
    ASSERT_EQ(gpusim::test::traceReadError(good), "");
    const std::string line = "0010 000000ff 1 R10 IMAD 3 UR4 R3 RZ 0 0 0 Val 8 0 1 2 3 4 5 6 7 8 100 101 102 103 104 "
                             "105 106 107 8 200 201 202 203 204 205 206 207 8 300 301 302 303 304 305 306 307 ";
    ASSERT_NE(good.find(line), std::string::npos);
    const std::string shortThird = replaced(good, "8 300 301 302 303 304 305 306 307 ", "8 300 301 302 303 304 305 306 ");
    EXPECT_EQ(gpusim::test::traceReadError(shortThird),
              "k.traceg:" + std::to_string(lineOf(good, line)) + ": line ends before the value 8 of 8 of source 3 (R255)");
    const std::string countOfSecond = replaced(good, "8 200 201", "6 200 201");
    EXPECT_EQ(gpusim::test::traceReadError(countOfSecond),
              "k.traceg:" + std::to_string(lineOf(good, line)) +
                  ": Val: 6 values for source 2 (R3) where 8 (the active lanes) or 32 (every lane) were expected");
}

} // namespace trace_generated_test
