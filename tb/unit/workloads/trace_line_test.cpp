// One Accel-Sim instruction line -> WarpInstruction (workloads/trace/InstructionLine.hpp): the
// three address encodings, tracer versions 3-5 without a #traces format line (the layouts a
// format line selects: trace_layout_test.cpp), lineinfo, registers, the opcode table, and the
// exact message of every malformed-line case. Expected values are worked out from the line text.
#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "common/SimError.hpp"
#include "workloads/trace/InstructionLine.hpp"

namespace trace_line_test {

using namespace gpusim;

namespace {

// A view, not a std::string: ParsedLine::opcode points into the line, so a string temporary made
// from a literal at the call site would be gone before the test reads the opcode (ASan found it).
ParsedLine parse(std::string_view line, unsigned version = 5, bool lineinfo = false) {
    ParsedLine p;
    parseInstructionLine(line, {version, lineinfo}, p);
    return p;
}

std::string errorOf(const std::string& line, unsigned version = 5, bool lineinfo = false) {
    try {
        parse(line, version, lineinfo);
    } catch (const InputError& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace

TEST(TraceLine, GlobalAtomicsAreFlaggedAndAtomReturnsToItsRegister) {
    // ATOM with a destination: load-like (R2 waits for the L2's answer), flagged atomic.
    ParsedLine p = parse("0 00000003 1 R2 ATOM.E.ADD 1 R1 4 1 0x10 4");
    EXPECT_EQ(p.inst.op, OpClass::Load);
    EXPECT_EQ(p.inst.space, MemSpace::Global);
    EXPECT_TRUE(p.inst.atomic);
    EXPECT_EQ(p.inst.numDst, 1);
    EXPECT_EQ(p.inst.dst[0], 2);
    EXPECT_EQ(p.inst.accessBytes, 4);
    // ATOMG too.
    p = parse("0 00000001 1 R2 ATOMG.E.EXCH.STRONG.GPU 1 R1 4 1 0x10 4");
    EXPECT_EQ(p.inst.op, OpClass::Load);
    EXPECT_TRUE(p.inst.atomic);
    // RED: store-like, no register.
    p = parse("0 00000001 0 RED.E.ADD 1 R1 4 1 0x10 4");
    EXPECT_EQ(p.inst.op, OpClass::Store);
    EXPECT_TRUE(p.inst.atomic);
    // An ATOM whose result is not kept (no destination in the line) runs as a RED.
    p = parse("0 00000001 0 ATOM.E.ADD 1 R1 4 1 0x10 4");
    EXPECT_EQ(p.inst.op, OpClass::Store);
    EXPECT_TRUE(p.inst.atomic);
    // Shared-memory atomics stay plain shared stores (not modelled as atomics).
    p = parse("0 00000001 1 R2 ATOMS.ADD 1 R1 4 1 0x10 4");
    EXPECT_EQ(p.inst.op, OpClass::Store);
    EXPECT_EQ(p.inst.space, MemSpace::Shared);
    EXPECT_FALSE(p.inst.atomic);
    // Plain global accesses are not atomics.
    p = parse("0 00000001 1 R2 LDG.E 1 R1 4 1 0x10 4");
    EXPECT_FALSE(p.inst.atomic);
    p = parse("0 00000001 0 STG.E 1 R1 4 1 0x10 4");
    EXPECT_FALSE(p.inst.atomic);
}

TEST(TraceLine, AluWithRegistersAndRzero) {
    // "IMAD.MOV.U32 R1 <- R255, R255": RZ stays register 255 (the scoreboard's RZ).
    const ParsedLine p = parse("0000 ffffffff 1 R1 IMAD.MOV.U32 2 R255 R255 0 0 ");
    EXPECT_EQ(p.inst.pc, 0u);
    EXPECT_EQ(p.inst.activeMask, 0xffffffffu);
    EXPECT_EQ(p.inst.op, OpClass::Alu);
    EXPECT_EQ(p.inst.numDst, 1);
    EXPECT_EQ(p.inst.dst[0], 1);
    EXPECT_EQ(p.inst.dst[1], kNoReg);
    EXPECT_EQ(p.inst.numSrc, 2);
    EXPECT_EQ(p.inst.src[0], 255);
    EXPECT_EQ(p.inst.src[1], 255);
    EXPECT_EQ(p.inst.src[2], kNoReg);
    EXPECT_EQ(p.inst.accessBytes, 0);
    EXPECT_EQ(p.opcode, "IMAD.MOV.U32");
    EXPECT_TRUE(p.cls.known);
}

TEST(TraceLine, AddressMode0ListsEveryActiveLane) {
    // mask 0x00000005: lanes 0 and 2, two addresses in lane order.
    const ParsedLine p = parse("0a30 00000005 1 R4 LDG.E.64 1 R2 8 0 0x0000000000001000 0x0000000000002008 ");
    EXPECT_EQ(p.inst.pc, 0xa30u);
    EXPECT_EQ(p.inst.op, OpClass::Load);
    EXPECT_EQ(p.inst.space, MemSpace::Global);
    EXPECT_EQ(p.inst.accessBytes, 8);
    EXPECT_EQ(p.inst.addr[0], 0x1000u);
    EXPECT_EQ(p.inst.addr[1], 0u);
    EXPECT_EQ(p.inst.addr[2], 0x2008u);
}

TEST(TraceLine, AddressMode1IsBaseAndStrideOverOneRun) {
    // mask 0x000000f0: lanes 4..7, base 0x7f00, stride -4: 0x7f00, 0x7efc, 0x7ef8, 0x7ef4.
    const ParsedLine p = parse("0040 000000f0 0 STG.E 2 R2 R3 4 1 0x7f00 -4 0 ");
    EXPECT_EQ(p.inst.op, OpClass::Store);
    EXPECT_EQ(p.inst.accessBytes, 4);
    EXPECT_EQ(p.inst.addr[3], 0u);
    EXPECT_EQ(p.inst.addr[4], 0x7f00u);
    EXPECT_EQ(p.inst.addr[5], 0x7efcu);
    EXPECT_EQ(p.inst.addr[7], 0x7ef4u);
    EXPECT_EQ(p.inst.addr[8], 0u);
}

TEST(TraceLine, AddressMode1WithEmptyMaskIsWhatTheTracerWrites) {
    const ParsedLine p = parse("0040 00000000 1 R4 LDG.E 1 R2 4 1 0x0 0 0 ");
    EXPECT_EQ(p.inst.op, OpClass::Load);
    EXPECT_EQ(p.inst.activeMask, 0u);
}

TEST(TraceLine, AddressMode2IsBaseAndDeltaFromThePreviousActiveLane) {
    // mask 0x80000003: lanes 0, 1, 31. Base 0x100; lane 1 = 0x100 + 16 = 0x110;
    // lane 31 = 0x110 - 0x10 (-16) = 0x100.
    const ParsedLine p = parse("0050 80000003 1 R6 LDS.U.128 1 R9 16 2 0x100 16 -16 0 ");
    EXPECT_EQ(p.inst.op, OpClass::Load);
    EXPECT_EQ(p.inst.space, MemSpace::Shared);
    EXPECT_EQ(p.inst.accessBytes, 16);
    EXPECT_EQ(p.inst.addr[0], 0x100u);
    EXPECT_EQ(p.inst.addr[1], 0x110u);
    EXPECT_EQ(p.inst.addr[30], 0u);
    EXPECT_EQ(p.inst.addr[31], 0x100u);
}

TEST(TraceLine, VersionsThreeAndFourHaveNoImmediate) {
    for (unsigned v : {3u, 4u}) {
        const ParsedLine p = parse("0010 0000ffff 1 R0 S2R 0 0 ", v);
        EXPECT_EQ(p.inst.activeMask, 0xffffu);
        EXPECT_EQ(errorOf("0010 0000ffff 1 R0 S2R 0 0 7", v),
                  "unexpected '7' after the instruction (a count does not match its list?)");
    }
}

TEST(TraceLine, VersionFiveImmediateIsOptionalAndMayBeNegative) {
    EXPECT_EQ(parse("0010 0000ffff 0 DEPBAR.LE 0 0 1").inst.pc, 0x10u);
    EXPECT_EQ(parse("0010 0000ffff 0 DEPBAR.LE 0 0 -3").inst.pc, 0x10u);
    EXPECT_EQ(parse("0010 0000ffff 0 DEPBAR.LE 0 0").inst.pc, 0x10u);
    EXPECT_EQ(errorOf("0010 0000ffff 0 DEPBAR.LE 0 0 1 2"),
              "unexpected '2' after the instruction (a count does not match its list?)");
    EXPECT_EQ(errorOf("0010 0000ffff 0 DEPBAR.LE 0 0 x1"), "bad immediate 'x1'");
}

TEST(TraceLine, LineinfoPrefixIsSkipped) {
    const ParsedLine p = parse("42 0020 00000001 0 EXIT 0 0 0", 5, true);
    EXPECT_EQ(p.inst.pc, 0x20u);
    EXPECT_EQ(p.inst.op, OpClass::Exit);
        // Without the number the fields shift: 0020 is read as the line number, 00000001 as the PC,
    // 0 as the mask, and EXIT lands on dest_num.
    EXPECT_EQ(errorOf("0020 00000001 0 EXIT 0 0 0", 5, true), "bad dest_num 'EXIT'");
}

TEST(TraceLine, OpcodeTable) {
    struct Case {
        const char* line;
        OpClass op;
        MemSpace space;
        bool known;
    };
    const Case cases[] = {
        {"0 1 0 STL 1 R1 4 1 0x10 4", OpClass::Store, MemSpace::Local, true},
        {"0 1 1 R2 LDL 1 R1 4 1 0x10 4", OpClass::Load, MemSpace::Local, true},
        {"0 1 1 R2 LD.E 1 R1 4 1 0x10 4", OpClass::Load, MemSpace::Global, true},
        {"0 1 0 ST.E 1 R1 4 1 0x10 4", OpClass::Store, MemSpace::Global, true},
        {"0 1 0 STS 1 R1 4 1 0x10 4", OpClass::Store, MemSpace::Shared, true},
        {"0 1 1 R2 ATOM.E.ADD 1 R1 4 1 0x10 4", OpClass::Load, MemSpace::Global, true},
        {"0 1 1 R2 ATOMG.E.ADD.F32 1 R1 4 1 0x10 4", OpClass::Load, MemSpace::Global, true},
        {"0 1 0 RED.E.ADD 1 R1 4 1 0x10 4", OpClass::Store, MemSpace::Global, true},
        {"0 1 1 R2 ATOMS.ADD 1 R1 4 1 0x10 4", OpClass::Store, MemSpace::Shared, true},
        {"0 1 0 BAR.SYNC 0 0", OpClass::Barrier, MemSpace::Global, true},
        {"0 1 1 R2 MUFU.RSQ 1 R1 0", OpClass::Sfu, MemSpace::Global, true},
        {"0 1 1 R2 DFMA 2 R1 R1 0", OpClass::Alu, MemSpace::Global, true},
        {"0 1 0 BRA 0 0", OpClass::Alu, MemSpace::Global, true},
        {"0 1 1 R2 FADD 2 R1 R1 0", OpClass::Alu, MemSpace::Global, true},
        {"0 1 2 R4 R5 HMMA.884.F32.F32.STEP0 2 R8 R10 0", OpClass::Tensor, MemSpace::Global, true},
        // Constant and texture loads with addresses go to their caches; without (mem_width 0,
        // Accel-Sim's tracer) they run as ALU. A surface load is not modelled: ALU, its addresses
        // checked and dropped.
        {"0 1 1 R2 TEX.B 1 R1 4 1 0x10 4", OpClass::Load, MemSpace::Texture, true},
        {"0 1 1 R2 TEX.B 1 R1 0", OpClass::Alu, MemSpace::Global, true},
        {"0 1 1 R2 LDC.64 1 R1 8 1 0x10 0", OpClass::Load, MemSpace::Constant, true},
        {"0 1 1 R2 LDC 0 0", OpClass::Alu, MemSpace::Global, true},
        {"0 1 1 R2 ULDC.64 0 8 1 0x10 0", OpClass::Load, MemSpace::Constant, true},
        {"0 1 1 R2 SULD.P.2D 1 R1 4 1 0x10 4", OpClass::Alu, MemSpace::Global, true},
        {"0 1 1 R2 FROBNICATE 1 R1 0", OpClass::Alu, MemSpace::Global, false},
    };
    for (const Case& c : cases) {
        const ParsedLine p = parse(c.line);
        EXPECT_EQ(p.inst.op, c.op) << c.line;
        EXPECT_EQ(p.cls.known, c.known) << c.line;
        if (p.inst.isMemory()) {
            EXPECT_EQ(p.inst.space, c.space) << c.line;
        } else {
            EXPECT_EQ(p.inst.accessBytes, 0) << c.line;
        }
    }
}

TEST(TraceLine, FifthSourceIsDropped) {
    const ParsedLine p = parse("0 1 0 SHFL.IDX 5 R1 R2 R3 R4 R5 0");
    EXPECT_EQ(p.inst.numSrc, 4);
    EXPECT_EQ(p.inst.src[3], 4);
}

TEST(TraceLine, MalformedLinesGiveExactReasons) {
    const std::pair<const char*, const char*> cases[] = {
        {"00g0 ffffffff 0 EXIT 0 0", "bad hex PC '00g0'"},
        {"0000 fffffffff 0 EXIT 0 0", "active mask 'fffffffff' is wider than 32 lanes"},
        {"0000 xyz 0 EXIT 0 0", "bad hex active mask 'xyz'"},
        {"0000 ffffffff", "line ends before the dest_num"},
        {"0000 ffffffff 3 R1 R2 R3 IADD 0 0", "dest_num 3 exceeds 2"},
        {"0000 ffffffff 2 R1 IADD 0 0", "bad register 'IADD' (expected R0 .. R255, RZ, UR0 .. UR63, URZ, P0 .. P7, PT, UP0 .. UP7 or UPT)"},
        {"0000 ffffffff 1 R256 IADD 0 0", "bad register 'R256' (expected R0 .. R255, RZ, UR0 .. UR63, URZ, P0 .. P7, PT, UP0 .. UP7 or UPT)"},
        {"0000 ffffffff 0 7ADD 0 0", "bad opcode '7ADD' (dest_num does not match the registers?)"},
        {"0000 ffffffff 0 IADD 6 R1 R1 R1 R1 R1 R1 0", "src_num 6 exceeds 5"},
        {"0000 ffffffff 0 IADD 2 R1 0", "bad register '0' (expected R0 .. R255, RZ, UR0 .. UR63, URZ, P0 .. P7, PT, UP0 .. UP7 or UPT)"},
        {"0000 ffffffff 0 IADD 1 R1", "line ends before the mem_width"},
        {"0000 ffffffff 1 R1 LDG.E 1 R2 3 1 0x0 4", "mem_width 3 (expected 0, 1, 2, 4, 8 or 16)"},
        {"0000 ffffffff 1 R1 LDG.E 1 R2 0", "LDG without memory addresses (mem_width 0)"},
        {"0000 ffffffff 1 R1 LDG.E 1 R2 4 3 0x0", "address mode 3 (expected 0, 1 or 2)"},
        {"0000 00000003 1 R1 LDG.E 1 R2 4 0 0x10", "line ends before the address of an active lane (mode 0)"},
        {"0000 00000003 1 R1 LDG.E 1 R2 4 0 0x10 0x2z", "bad hex address '0x2z'"},
        {"0000 00000005 1 R1 LDG.E 1 R2 4 1 0x10 4", "address mode 1 needs the active lanes in one run, mask is 00000005"},
        {"0000 00000003 1 R1 LDG.E 1 R2 4 1 0x10", "line ends before the stride (mode 1)"},
        {"0000 00000007 1 R1 LDG.E 1 R2 4 2 0x10 4", "line ends before the delta of an active lane (mode 2)"},
        {"0000 00000003 1 R1 LDG.E 1 R2 4 2 0x10 4.5", "bad delta '4.5'"},
        {"0000 00000003 1 R1 LDG.E 1 R2 4 2 0x10000000000000000", "base address '0x10000000000000000' exceeds 64 bits"},
    };
    for (const auto& [line, reason] : cases) EXPECT_EQ(errorOf(line), reason) << line;
}

} // namespace trace_line_test
