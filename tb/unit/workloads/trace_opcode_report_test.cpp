// The end-of-run report of a trace whose kernels have different -binary versions
// (workloads/trace/TraceWorkload.cpp): an opcode is unknown or known by its kernel's family, the
// unknown ones are counted in all and per binary version, and a version without an opcode table
// of its own is reported with the family whose table was used. Hand-written kernels of one warp;
// every count below is read off their lines.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/common/ProcessRunner.hpp"
#include "workloads/trace/TraceWorkload.hpp"

namespace trace_opcode_report_test {

using namespace gpusim;
using gpusim::tb::ScratchDir;
using gpusim::tb::writeFile;

namespace {

// A kernel of one CTA of one full warp, tracer version 4 (no immediates), with these lines.
std::string kernel(unsigned binaryVersion, const std::vector<std::string>& lines) {
    std::string t = "-kernel name = k" + std::to_string(binaryVersion) +
                    "\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-binary version = " +
                    std::to_string(binaryVersion) + "\n-accelsim tracer version = 4\n\n#BEGIN_TB\nthread block = 0,0,0\n" +
                    "warp = 0\ninsts = " + std::to_string(lines.size()) + "\n";
    for (const std::string& l : lines) t += l + "\n";
    return t + "#END_TB\n";
}

std::vector<WarpInstruction> warp0(const Kernel& k) {
    std::vector<WarpInstruction> out;
    auto s = k.warp(0, 0);
    WarpInstruction in;
    while (s->next(in)) out.push_back(in);
    return out;
}

const std::string kLdgsts = "0010 ffffffff 0 LDGSTS.E.BYPASS.128 2 R2 R4 16 1 0x1000 16";
const std::string kUldc = "0020 ffffffff 0 ULDC.64 0 0";
const std::string kExit = "0030 ffffffff 0 EXIT 0 0";

} // namespace

TEST(TraceOpcodeReport, UnknownOpcodesAreCountedByTheirKernelsBinaryVersion) {
    ScratchDir d;
    writeFile(d / "kernelslist.g", "kernel-1.traceg\nkernel-2.traceg\nkernel-3.traceg\nkernel-4.traceg\n");
    // Kepler: LDGSTS and ULDC (Ampere's, Turing's) are unknown there.
    writeFile(d / "kernel-1.traceg", kernel(35, {"0000 ffffffff 1 R1 IMAD 2 R2 R3 0", kLdgsts, kUldc, kExit}));
    // Ampere: both known; FROB is in no table.
    writeFile(d / "kernel-2.traceg", kernel(86, {"0000 ffffffff 1 R1 FROB 0 0", kLdgsts, kUldc, kExit}));
    // 100 has no table: Hopper's, which has HGMMA.
    writeFile(d / "kernel-3.traceg", kernel(100, {"0000 ffffffff 1 R1 HGMMA.64x64x16.F32 0 0", "0010 ffffffff 0 FROB 0 0", kExit}));
    // 20 (Fermi) is older than every family: Kepler's table.
    writeFile(d / "kernel-4.traceg", kernel(20, {"0000 ffffffff 1 R1 IMAD 2 R2 R3 0", kExit}));
    TraceWorkload wl(d.path().string());
    std::vector<std::vector<WarpInstruction>> streams;
    for (const auto& k : wl.kernels()) streams.push_back(warp0(*k));

    // The LDGSTS line: ALU in the Kepler kernel, the global read of the copy in the Ampere one.
    EXPECT_EQ(streams[0][1].op, OpClass::Alu);
    EXPECT_EQ(streams[1][1].op, OpClass::Load);
    EXPECT_EQ(streams[1][1].space, MemSpace::Global);
    EXPECT_EQ(streams[1][1].accessBytes, 16);

    const nlohmann::json r = wl.report();
    EXPECT_EQ(r["unknown_opcode_instructions"], 4);
    EXPECT_EQ(r["unknown_opcodes"], nlohmann::json({{"FROB", 2}, {"LDGSTS", 1}, {"ULDC", 1}}));
    EXPECT_EQ(r["unknown_opcodes_by_binary_version"],
              nlohmann::json({{"35", {{"LDGSTS", 1}, {"ULDC", 1}}}, {"86", {{"FROB", 1}}}, {"100", {{"FROB", 1}}}}));
    EXPECT_EQ(r["binary_versions_without_table"], nlohmann::json({{"20", "Kepler"}, {"100", "Hopper"}}));
    ASSERT_EQ(r["warnings"].size(), 3u);
    EXPECT_EQ(r["warnings"][0],
              "trace: 4 instructions with opcodes not in the opcode table ran as ALU: FROB (2), LDGSTS (1), ULDC (1)");
    EXPECT_EQ(r["warnings"][1],
              "trace: -binary version 20 has no opcode table of its own; its kernels' opcodes were looked up in the "
              "Kepler table (the oldest family)");
    EXPECT_EQ(r["warnings"][2],
              "trace: -binary version 100 has no opcode table of its own; its kernels' opcodes were looked up in the "
              "Hopper table (the nearest older family)");
}

TEST(TraceOpcodeReport, AKernelWithoutBinaryVersionKnowsEveryFamilysOpcodes) {
    ScratchDir d;
    writeFile(d / "kernelslist.g", "kernel-1.traceg\n");
    std::string text = kernel(0, {"0000 ffffffff 1 R1 ISUB 2 R2 R3 0", kLdgsts, kUldc, kExit});
    text.erase(text.find("-binary version = 0\n"), std::string("-binary version = 0\n").size());
    writeFile(d / "kernel-1.traceg", text);
    TraceWorkload wl(d.path().string());
    const std::vector<WarpInstruction> s = warp0(*wl.kernels()[0]);
    EXPECT_EQ(s[1].op, OpClass::Load);
    const nlohmann::json r = wl.report();
    EXPECT_EQ(r["unknown_opcode_instructions"], 0);
    EXPECT_EQ(r["unknown_opcodes_by_binary_version"], nlohmann::json::object());
    EXPECT_EQ(r["binary_versions_without_table"], nlohmann::json::object());
    EXPECT_EQ(r["warnings"], nlohmann::json::array());
}

} // namespace trace_opcode_report_test
