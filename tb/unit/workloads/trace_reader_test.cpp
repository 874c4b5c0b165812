// Accel-Sim trace files (workloads/trace/): every header key, thread-block sections, the lazy
// per-CTA cursor, kernelslist.g with several kernels and MemcpyHtoD lines, .xz files, and the
// exact "file:line: reason" of each malformed-input case. Line numbers in expected messages are
// looked up in the file text (lineOf), so each expectation names the line a reader must blame.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "common/SimError.hpp"
#include "tb/unit/workloads/TraceTestHelpers.hpp"
#include "tb/common/ProcessRunner.hpp"
#include "workloads/trace/KernelsList.hpp"
#include "workloads/trace/LineReader.hpp"
#include "workloads/trace/TraceFileReader.hpp"
#include "workloads/trace/TraceKernel.hpp"
#include "workloads/trace/TraceWorkload.hpp"
#include "workloads/trace/TraceWriter.hpp"

namespace trace_reader_test {

using namespace gpusim;
using gpusim::tb::ScratchDir;
using gpusim::tb::writeFile;

namespace {

const char* kFullHeader =
    "-kernel name = _Z6kernelPfS_i\n"
    "-kernel id = 7\n"
    "-grid dim = (2,1,1)\n"
    "-block dim = (40,1,1)\n"
    "-shmem = 512\n"
    "-nregs = 18\n"
    "-binary version = 70\n"
    "-cuda stream id = 94371\n"
    "-shmem base_addr = 0x00007f0000000000\n"
    "-local mem base_addr = 0x00007f0001000000\n"
    "-nvbit version = 1.5.5\n"
    "-accelsim tracer version = 4\n"
    "-enable lineinfo = 0\n"
    "\n"
    "#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] "
    "[mem_addresses]\n"
    "\n";

// Block (40,1,1): warp 0 has 32 lanes, warp 1 has 8 (mask 000000ff).
std::string block(unsigned x, const std::string& warp0, const std::string& warp1) {
    return "#BEGIN_TB\n\nthread block = " + std::to_string(x) + ",0,0\n\n" + warp0 + "\n" + warp1 + "#END_TB\n\n";
}
std::string warp(unsigned w, unsigned insts, const std::string& lines) {
    return "warp = " + std::to_string(w) + "\ninsts = " + std::to_string(insts) + "\n" + lines;
}

const std::string kWarp0 = warp(0, 4,
                                "0000 ffffffff 1 R0 S2R 0 0\n"
                                "0010 ffffffff 1 R4 LDG.E 1 R2 4 1 0x1000 4\n"
                                "0020 0000ffff 0 EXIT 0 0\n"  // lanes 0-15 leave: not the warp's end
                                "0030 ffff0000 0 EXIT 0 0\n");
const std::string kWarp1 = warp(1, 2,
                                "0000 000000ff 1 R0 S2R 0 0\n"
                                "0010 000000ff 1 R1 FROB.X 1 R0 0\n");  // no EXIT, unknown opcode

const std::string kGoodFile = std::string(kFullHeader) + block(0, kWarp0, kWarp1) + block(1, kWarp0, kWarp1);

// 1-based number of the first line containing `needle`, searching from line `after` + 1.
unsigned lineOf(const std::string& text, const std::string& needle, unsigned after = 0) {
    unsigned line = 1;
    size_t pos = 0;
    while (pos <= text.size()) {
        const size_t nl = text.find('\n', pos);
        const std::string l = text.substr(pos, nl == std::string::npos ? std::string::npos : nl - pos);
        if (line > after && l.find(needle) != std::string::npos) return line;
        if (nl == std::string::npos) break;
        pos = nl + 1;
        ++line;
    }
    ADD_FAILURE() << "no line contains " << needle;
    return 0;
}
unsigned lineCount(const std::string& text) {
    unsigned n = 0;
    for (char c : text) n += c == '\n';
    return n + (!text.empty() && text.back() != '\n');
}

std::vector<WarpInstruction> drain(WarpStream& s) {
    std::vector<WarpInstruction> v;
    WarpInstruction in;
    while (s.next(in)) v.push_back(in);
    return v;
}

// Reads every section of `text` (as file "k.traceg"); returns the error message or "".
std::string readAll(const std::string& text) { return test::traceReadError(text); }

std::string at(unsigned line) { return "k.traceg:" + std::to_string(line) + ": "; }

std::string replaced(std::string s, const std::string& from, const std::string& to) {
    const size_t p = s.find(from);
    EXPECT_NE(p, std::string::npos) << from;
    if (p != std::string::npos) s.replace(p, from.size(), to);
    return s;
}

} // namespace

TEST(TraceHeader, EveryKeyIsRead) {
    TraceFileReader r(LineReader::fromMemory("k.traceg", kGoodFile));
    const KernelTraceHeader& h = r.header();
    EXPECT_EQ(h.kernelName, "_Z6kernelPfS_i");
    EXPECT_EQ(h.kernelId, 7u);
    EXPECT_EQ(h.grid.x, 2u);
    EXPECT_EQ(h.grid.y, 1u);
    EXPECT_EQ(h.grid.z, 1u);
    EXPECT_EQ(h.block.x, 40u);
    EXPECT_EQ(h.shmem, 512u);
    EXPECT_EQ(h.nregs, 18u);
    EXPECT_EQ(h.binaryVersion, 70u);
    EXPECT_EQ(h.cudaStreamId, 94371u);
    EXPECT_EQ(h.shmemBaseAddr, 0x00007f0000000000u);
    EXPECT_EQ(h.localMemBaseAddr, 0x00007f0001000000u);
    EXPECT_EQ(h.nvbitVersion, "1.5.5");
    EXPECT_EQ(h.tracerVersion, 4u);
    EXPECT_FALSE(h.lineinfo);
    EXPECT_EQ(h.tracesFormat.substr(0, 12), "PC mask dest");
}

TEST(TraceHeader, OptionalKeysDefaultAndUnknownKeysAreIgnored) {
    const std::string text =
        "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 3\n"
        "-some future key = 12\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 0\n#END_TB\n";
    TraceFileReader r(LineReader::fromMemory("k.traceg", text));
    EXPECT_EQ(r.header().shmem, 0u);
    EXPECT_EQ(r.header().nregs, 0u);
    EXPECT_EQ(r.header().tracerVersion, 3u);
    EXPECT_EQ(readAll(text), "");
}

TEST(TraceHeader, LineinfoLinesCarryASourceLineNumber) {
    const std::string text =
        "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n-accelsim tracer version = 5\n"
        "-enable lineinfo = 1\n#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n17 0040 ffffffff 0 EXIT 0 0 0\n"
        "#END_TB\n";
    TraceFileReader r(LineReader::fromMemory("k.traceg", text));
    EXPECT_TRUE(r.header().lineinfo);
    ThreadBlockTrace tb;
    TraceTally tally;
    r.readThreadBlock(0, tb, tally);
    WarpInstruction in;
    size_t pos = 0;
    ASSERT_TRUE(tb.warps[0].read(pos, in));
    EXPECT_EQ(in.pc, 0x40u);
    EXPECT_EQ(in.op, OpClass::Exit);
}

TEST(TraceHeader, MalformedHeaders) {
    const std::string h = kFullHeader;
    const std::string body = block(0, kWarp0, kWarp1) + block(1, kWarp0, kWarp1);
    struct Case {
        std::string text, error;
    };
    const std::string noGrid = replaced(h, "-grid dim = (2,1,1)\n", "") + body;
    const std::string twice = replaced(h, "-nregs = 18\n", "-nregs = 18\n-nregs = 20\n") + body;
    const std::string badDim = replaced(h, "(2,1,1)", "(2,1)") + body;
    const std::string zeroDim = replaced(h, "(40,1,1)", "(0,1,1)") + body;
    const std::string bigBlock = replaced(h, "(40,1,1)", "(64,32,1)") + body;
    const std::string v2 = replaced(h, "tracer version = 4", "tracer version = 2") + body;
    const std::string badHex = replaced(h, "0x00007f0000000000", "0x7f00zz") + body;
    const std::string badNum = replaced(h, "-shmem = 512", "-shmem = lots") + body;
    const std::string noEq = replaced(h, "-nvbit version = 1.5.5", "-nvbit version") + body;
    const std::string stray = replaced(h, "-kernel id = 7\n", "-kernel id = 7\nhello\n") + body;
    const std::string lineinfo2 = replaced(h, "-enable lineinfo = 0", "-enable lineinfo = 2") + body;
    const Case cases[] = {
        {noGrid, at(lineOf(noGrid, "#BEGIN_TB")) + "the header has no -grid dim"},
        {twice, at(lineOf(twice, "-nregs = 20")) + "-nregs given twice"},
        {badDim, at(lineOf(badDim, "-grid dim")) + "-grid dim: expected (X,Y,Z), found '(2,1)'"},
        {zeroDim, at(lineOf(zeroDim, "-block dim")) + "-block dim: '(0,1,1)' has a zero or too large size"},
        {bigBlock, at(lineOf(bigBlock, "-block dim")) + "-block dim '(64,32,1)' has more than 1024 threads (CUDA's limit)"},
        {v2, at(lineOf(v2, "tracer version")) + "-accelsim tracer version 2 is not supported (3 to 6)"},
        {badHex, at(lineOf(badHex, "-shmem base_addr")) + "-shmem base_addr: bad hex number '0x7f00zz'"},
        {badNum, at(lineOf(badNum, "-shmem = ")) + "-shmem: bad number 'lots'"},
        {noEq, at(lineOf(noEq, "-nvbit version")) + "header line '-nvbit version' has no '='"},
        {stray, at(lineOf(stray, "hello")) + "unexpected 'hello' in the header (before the first #BEGIN_TB)"},
        {lineinfo2, at(lineOf(lineinfo2, "lineinfo")) + "-enable lineinfo: expected 0 or 1, found '2'"},
        {"-kernel name = k\n", "k.traceg:1: the header has no -grid dim (or the file ends before the first #BEGIN_TB)"},
    };
    for (const Case& c : cases) EXPECT_EQ(readAll(c.text), c.error);
}

TEST(TraceSections, ThreadBlocksBecomePackedWarps) {
    TraceFileReader r(LineReader::fromMemory("k.traceg", kGoodFile));
    ThreadBlockTrace tb;
    TraceTally tally;
    r.readThreadBlock(0, tb, tally);
    ASSERT_EQ(tb.warps.size(), 2u);  // 40 threads: 2 warps
    // Warp 0: S2R, LDG, EXIT (lanes 0-15, not last: ALU), EXIT (last: Exit). 4 instructions.
    std::vector<WarpInstruction> w0;
    WarpInstruction in;
    for (size_t pos = 0; tb.warps[0].read(pos, in);) w0.push_back(in);
    ASSERT_EQ(w0.size(), 4u);
    EXPECT_EQ(w0[1].op, OpClass::Load);
    EXPECT_EQ(w0[1].addr[31], 0x1000u + 31 * 4);
    EXPECT_EQ(w0[2].op, OpClass::Alu);
    EXPECT_EQ(w0[2].activeMask, 0x0000ffffu);
    EXPECT_EQ(w0[3].op, OpClass::Exit);
    // Warp 1: S2R, FROB.X, then an EXIT appended at PC 0x10 + 16 with the 8 existing lanes.
    std::vector<WarpInstruction> w1;
    for (size_t pos = 0; tb.warps[1].read(pos, in);) w1.push_back(in);
    ASSERT_EQ(w1.size(), 3u);
    EXPECT_EQ(w1[1].op, OpClass::Alu);
    EXPECT_EQ(w1[2].op, OpClass::Exit);
    EXPECT_EQ(w1[2].pc, 0x20u);
    EXPECT_EQ(w1[2].activeMask, 0xffu);
    EXPECT_EQ(tally.unknownInstructions, 1u);
    EXPECT_EQ(tally.unknownOpcodes.at("FROB"), 1u);
    EXPECT_EQ(tally.appendedExits, 1u);
    r.readThreadBlock(1, tb, tally);
    r.expectEnd();
    EXPECT_EQ(tally.unknownInstructions, 2u);
}

TEST(TraceSections, MalformedSections) {
    const std::string h = kFullHeader;
    const std::string b1 = block(1, kWarp0, kWarp1);
    struct Case {
        std::string text, error;
    };
    std::vector<Case> cases;
    // Bad hex inside a section: the reason of InstructionLine, prefixed with file and line.
    {
        const std::string t = h + block(0, replaced(kWarp0, "0x1000", "0x10g0"), kWarp1) + b1;
        cases.push_back({t, at(lineOf(t, "0x10g0")) + "bad hex base address '0x10g0'"});
    }
    // insts says more than follows (the next warp = line closes the warp).
    {
        const std::string t = h + block(0, replaced(kWarp0, "insts = 4", "insts = 5"), kWarp1) + b1;
        cases.push_back({t, at(lineOf(t, "warp = 1")) + "warp 0: insts = 5 but 4 instruction lines follow"});
    }
    // insts says fewer than follow.
    {
        const std::string t = h + block(0, replaced(kWarp0, "insts = 4", "insts = 3"), kWarp1) + b1;
        cases.push_back({t, at(lineOf(t, "0030 ffff0000")) + "warp 0: more instruction lines than insts = 3"});
    }
    // Missing #END_TB: the next section starts inside this one.
    {
        const std::string t = h + replaced(block(0, kWarp0, kWarp1), "#END_TB\n", "") + b1;
        cases.push_back({t, at(lineOf(t, "#BEGIN_TB", lineOf(t, "thread block = 0"))) +
                                "#BEGIN_TB inside thread block 0,0,0 (missing #END_TB)"});
    }
    // Missing #END_TB at the end of the file.
    {
        const std::string t = h + block(0, kWarp0, kWarp1) + replaced(b1, "#END_TB\n", "");
        cases.push_back({t, at(lineCount(t)) + "unexpected end of file inside thread block 1,0,0 (missing #END_TB)"});
    }
    // Truncated in the middle of a warp.
    {
        const std::string full = h + block(0, kWarp0, kWarp1) + b1;
        const std::string t = full.substr(0, full.rfind("0010 ffffffff 1 R4"));
        cases.push_back({t, at(lineCount(t)) + "unexpected end of file: warp 0 has 1 of 4 instructions (truncated file?)"});
    }
    // Truncated between sections.
    {
        const std::string t = h + block(0, kWarp0, kWarp1);
        cases.push_back({t, at(lineCount(t)) + "unexpected end of file: 1 of 2 thread blocks read (truncated file?)"});
    }
    // Truncated in the middle of a line.
    {
        const std::string full = h + block(0, kWarp0, kWarp1) + b1;
        const size_t cut = full.rfind("0010 ffffffff 1 R4 LDG.E") + 20;
        const std::string t = full.substr(0, cut);
        cases.push_back({t, at(lineCount(t)) + "line ends before the src_num"});
    }
    // Sections out of linear order.
    {
        const std::string t = h + b1 + block(0, kWarp0, kWarp1);
        cases.push_back({t, at(lineOf(t, "thread block = 1")) +
                                "thread block 1,0,0 where 0,0,0 was expected (sections must be in linear block order, x fastest)"});
    }
    // A warp missing from a block, a warp that does not exist, a warp given twice.
    {
        const std::string t = h + block(0, kWarp0, "") + b1;
        cases.push_back({t, at(lineOf(t, "#END_TB")) + "thread block 0,0,0 has no warp 1 (-block dim 40,1,1 has 2 warps)"});
    }
    {
        const std::string t = h + block(0, kWarp0, replaced(kWarp1, "warp = 1", "warp = 2")) + b1;
        cases.push_back({t, at(lineOf(t, "warp = 2")) + "warp 2 does not exist (-block dim 40,1,1 has 2 warps)"});
    }
    {
        const std::string t = h + block(0, kWarp0, replaced(kWarp1, "warp = 1", "warp = 0")) + b1;
        cases.push_back({t, at(lineOf(t, "warp = 0", lineOf(t, "0030 ffff0000"))) + "warp 0 appears twice in thread block 0,0,0"});
    }
    // Instruction before warp/insts; insts without warp; bad insts number.
    {
        const std::string t = h + replaced(block(0, kWarp0, kWarp1), "warp = 0\ninsts = 4\n", "") + b1;
        cases.push_back({t, at(lineOf(t, "0000 ffffffff 1 R0")) + "instruction line before warp = and insts = lines"});
    }
    {
        const std::string t = h + block(0, replaced(kWarp0, "insts = 4", "insts = four"), kWarp1) + b1;
        cases.push_back({t, at(lineOf(t, "insts = four")) + "insts: bad number 'four'"});
    }
    // More sections than the grid has.
    {
        const std::string t = h + block(0, kWarp0, kWarp1) + b1 + block(2, kWarp0, kWarp1);
        cases.push_back({t, at(lineOf(t, "thread block = 2") - 2) + "more thread blocks than -grid dim (2,1,1) holds"});
    }
    for (const Case& c : cases) EXPECT_EQ(readAll(c.text), c.error);
}

TEST(TraceFiles, XzFilesAreReadAndTruncatedXzIsAnError) {
    // The checked-in file was compressed with the xz tool (an independent encoder).
    const std::string dir = GPUSIM_SOURCE_DIR "/tb/data/traces/small";
    TraceFileReader plain(LineReader::openFile(dir + "/kernel-1.traceg"));
    auto xzReader = LineReader::openFile(dir + "/kernel-2.traceg.xz");
    EXPECT_TRUE(xzReader->compressed());
    TraceFileReader xz(std::move(xzReader));
    EXPECT_EQ(xz.header().kernelName, "small_kernel2");
    ThreadBlockTrace tb;
    TraceTally tally;
    for (uint64_t c = 0; c < xz.header().grid.size(); ++c) xz.readThreadBlock(c, tb, tally);
    xz.expectEnd();

    // Cut the compressed bytes in half: the decoder finds the stream truncated.
    const std::string bytes = tb::readFile(dir + "/kernel-2.traceg.xz");
    try {
        TraceFileReader r(LineReader::fromMemory("cut.xz", bytes.substr(0, bytes.size() / 2)));
        for (uint64_t c = 0; c < r.header().grid.size(); ++c) r.readThreadBlock(c, tb, tally);
        FAIL() << "a truncated xz file was accepted";
    } catch (const InputError& e) {
        const std::string m = e.what();
        EXPECT_EQ(m.substr(0, 7), "cut.xz:");
        EXPECT_NE(m.find(": xz data truncated (file ends inside the compressed stream)"), std::string::npos) << m;
    }
    // Our own encoder (trace export --xz) reads back too: TraceExportTest covers the round trip.
}

TEST(KernelsListFile, KernelsInOrderAndCopiesRecorded) {
    const std::string text =
        "MemcpyHtoD,0x00007f1234500000,4096\n"
        "kernel-1.traceg\n"
        "\n"
        "MemcpyHtoD,0x00007f1234600000,128\n"
        "kernel-2.traceg.xz\n";
    auto in = LineReader::fromMemory("kernelslist.g", text);
    const KernelsList l = parseKernelsList(*in, "/d");
    ASSERT_EQ(l.kernelFiles.size(), 2u);
    EXPECT_EQ(l.kernelFiles[0], "/d/kernel-1.traceg");
    EXPECT_EQ(l.kernelFiles[1], "/d/kernel-2.traceg.xz");
    ASSERT_EQ(l.memcpys.size(), 2u);
    EXPECT_EQ(l.memcpys[0].address, 0x00007f1234500000u);
    EXPECT_EQ(l.memcpys[0].bytes, 4096u);
    EXPECT_EQ(l.memcpys[0].beforeKernel, 0u);
    EXPECT_EQ(l.memcpys[1].beforeKernel, 1u);
}

TEST(KernelsListFile, MalformedLists) {
    const std::pair<std::string, std::string> cases[] = {
        {"MemcpyHtoD,0x10\nkernel-1.traceg\n", "kernelslist.g:1: expected MemcpyHtoD,0xADDRESS,BYTES"},
        {"kernel-1.traceg\nMemcpyHtoD,10,4\n", "kernelslist.g:2: MemcpyHtoD: bad hex address '10'"},
        {"MemcpyHtoD,0x10,four\n", "kernelslist.g:1: MemcpyHtoD: bad byte count 'four'"},
        {"kernel-1.traceg\nlaunch it\n",
         "kernelslist.g:2: expected a kernel-N.traceg file name or a MemcpyHtoD line, found 'launch it'"},
        {"MemcpyHtoD,0x10,4\n", "kernelslist.g: no kernel listed"},
    };
    for (const auto& [text, error] : cases) {
        auto in = LineReader::fromMemory("kernelslist.g", text);
        try {
            parseKernelsList(*in, "/d");
            ADD_FAILURE() << "accepted: " << text;
        } catch (const InputError& e) {
            EXPECT_EQ(std::string(e.what()), error);
        }
    }
}

TEST(TraceWorkloadDir, MultiKernelDirectoryLoadsHeadersEagerly) {
    const std::string dir = GPUSIM_SOURCE_DIR "/tb/data/traces/small";
    TraceWorkload wl(dir);
    ASSERT_EQ(wl.kernels().size(), 2u);
    EXPECT_EQ(wl.kernels()[0]->info().name, "small_kernel1");
    EXPECT_EQ(wl.kernels()[1]->info().name, "small_kernel2");
    EXPECT_EQ(wl.list().memcpys.size(), 3u);
    EXPECT_EQ(wl.params()["kernels"], 2);
    // Nothing has been read past the headers: no unknown opcode seen yet.
    EXPECT_EQ(wl.report()["unknown_opcode_instructions"], 0);
}

TEST(TraceWorkloadDir, MissingFilesAndBadHeadersFailAtLoad) {
    ScratchDir d;
    EXPECT_THROW(TraceWorkload w(d.path().string()), InputError);  // no kernelslist.g
    writeFile(d / "kernelslist.g", "kernel-1.traceg\n");
    try {
        TraceWorkload w(d.path().string());
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), (d / "kernel-1.traceg").string() + ": cannot open (No such file or directory)");
    }
    writeFile(d / "kernel-1.traceg", replaced(kGoodFile, "tracer version = 4", "tracer version = 7"));
    try {
        TraceWorkload w(d.path().string());
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), (d / "kernel-1.traceg").string() + ":" +
                                             std::to_string(lineOf(kGoodFile, "tracer version")) +
                                             ": -accelsim tracer version 7 is not supported (3 to 6)");
    }
}

TEST(TraceKernelCursor, WarpsOfEachCtaComeFromItsSectionAndOutOfOrderRequestsReread) {
    ScratchDir d;
    // Block 1's first load address differs, to tell the sections apart.
    const std::string text = std::string(kFullHeader) + block(0, kWarp0, kWarp1) +
                             block(1, replaced(kWarp0, "0x1000", "0x9000"), kWarp1);
    writeFile(d / "kernelslist.g", "kernel-1.traceg\n");
    writeFile(d / "kernel-1.traceg", text);
    TraceWorkload wl(d.path().string());
    const Kernel& k = *wl.kernels()[0];
    EXPECT_EQ(k.info().warpsPerCta(), 2u);
    EXPECT_EQ(k.info().regsPerThread, 18u);
    EXPECT_EQ(k.info().smemPerCta, 512u);
    // Dispatcher order: CTA 0 warps 0, 1; CTA 1 warps 0, 1.
    auto s00 = k.warp(0, 0);
    auto s01 = k.warp(0, 1);
    auto s10 = k.warp(1, 0);
    auto s11 = k.warp(1, 1);
    EXPECT_EQ(drain(*s00)[1].addr[0], 0x1000u);
    EXPECT_EQ(drain(*s01).size(), 3u);
    EXPECT_EQ(drain(*s10)[1].addr[0], 0x9000u);
    EXPECT_EQ(drain(*s11).size(), 3u);
    // Out of order (a second pass over CTA 0): reopened and read forward, same instructions.
    auto again = k.warp(0, 0);
    const auto v = drain(*again);
    ASSERT_EQ(v.size(), 4u);
    EXPECT_EQ(v[1].addr[0], 0x1000u);
    EXPECT_EQ(drain(*k.warp(1, 0))[1].addr[0], 0x9000u);
    EXPECT_THROW(k.warp(2, 0), ModelError);
}

TEST(TraceKernelCursor, SectionErrorsAreThrownAndKeptForTheEndOfTheRun) {
    ScratchDir d;
    const std::string text = std::string(kFullHeader) + block(0, kWarp0, kWarp1) +
                             block(1, replaced(kWarp0, "0x1000", "0xq"), kWarp1);
    writeFile(d / "kernelslist.g", "kernel-1.traceg\n");
    writeFile(d / "kernel-1.traceg", text);
    TraceWorkload wl(d.path().string());
    EXPECT_NO_THROW(wl.rethrowDeferredInputError());
    const Kernel& k = *wl.kernels()[0];
    k.warp(0, 0);
    k.warp(0, 1);
    const std::string expected = (d / "kernel-1.traceg").string() + ":" +
                                 std::to_string(lineOf(text, "0xq")) + ": bad hex base address '0xq'";
    try {
        k.warp(1, 0);
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), expected);
    }
    try {
        wl.rethrowDeferredInputError();
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), expected);
    }
}

TEST(TraceWorkloadDir, ReportListsCopiesUnknownOpcodesAndAppendedExits) {
    ScratchDir d;
    writeFile(d / "kernelslist.g", "MemcpyHtoD,0x00007f1234500000,4096\nkernel-1.traceg\n");
    writeFile(d / "kernel-1.traceg", kGoodFile);
    TraceWorkload wl(d.path().string());
    const Kernel& k = *wl.kernels()[0];
    for (uint64_t c = 0; c < 2; ++c)
        for (unsigned w = 0; w < 2; ++w) drain(*k.warp(c, w));
    const nlohmann::json r = wl.report();
    EXPECT_EQ(r["memcpy_htod"][0]["address"], "0x00007f1234500000");
    EXPECT_EQ(r["memcpy_htod"][0]["bytes"], 4096);
    EXPECT_EQ(r["unknown_opcodes"]["FROB"], 2);  // once per CTA
    EXPECT_EQ(r["unknown_opcode_instructions"], 2);
    EXPECT_EQ(r["warps_without_exit"], 2);
    ASSERT_EQ(r["warnings"].size(), 2u);
    EXPECT_EQ(r["warnings"][0], "trace: 2 instructions with opcodes not in the opcode table ran as ALU: FROB (2)");
    EXPECT_EQ(r["warnings"][1], "trace: 2 warps did not end with EXIT; an EXIT was appended to each");
}

// An HMMA of a Volta trace (-binary version 70) runs on the SM's tensor pipeline with its
// registers; the same line in a Pascal kernel (60: HMMA is Volta's) is unknown and runs as ALU.
TEST(TraceWorkloadDir, HmmaOfAVoltaTraceBecomesATensorInstruction) {
    ScratchDir d;
    const std::string hmma = "0000 ffffffff 2 R4 R5 HMMA.884.F32.F32.STEP0 3 R8 R10 R4 0\n"
                             "0010 ffffffff 0 EXIT 0 0\n";
    const std::string hmma1 = "0000 000000ff 2 R4 R5 HMMA.884.F32.F32.STEP0 3 R8 R10 R4 0\n"
                              "0010 000000ff 0 EXIT 0 0\n";
    const std::string body = block(0, warp(0, 2, hmma), warp(1, 2, hmma1)) + block(1, warp(0, 2, hmma), warp(1, 2, hmma1));
    writeFile(d / "kernelslist.g", "kernel-1.traceg\nkernel-2.traceg\n");
    writeFile(d / "kernel-1.traceg", std::string(kFullHeader) + body);
    writeFile(d / "kernel-2.traceg",
              replaced(kFullHeader, "-binary version = 70\n", "-binary version = 60\n") + body);
    TraceWorkload wl(d.path().string());
    const auto volta = drain(*wl.kernels()[0]->warp(0, 0));
    ASSERT_EQ(volta.size(), 2u);
    EXPECT_EQ(volta[0].op, OpClass::Tensor);
    EXPECT_EQ(volta[0].numDst, 2);
    EXPECT_EQ(volta[0].dst[0], 4);
    EXPECT_EQ(volta[0].dst[1], 5);
    EXPECT_EQ(volta[0].numSrc, 3);
    EXPECT_EQ(volta[0].src[0], 8);
    EXPECT_EQ(volta[0].src[1], 10);
    EXPECT_EQ(volta[0].src[2], 4);
    EXPECT_EQ(volta[0].accessBytes, 0);
    EXPECT_EQ(volta[1].op, OpClass::Exit);
    const auto pascal = drain(*wl.kernels()[1]->warp(0, 0));
    ASSERT_EQ(pascal.size(), 2u);
    EXPECT_EQ(pascal[0].op, OpClass::Alu);
    // Reading warp 0 read its CTA's section: both warps' HMMA lines are counted.
    EXPECT_EQ(wl.report()["unknown_opcodes"]["HMMA"], 2);
}

TEST(TraceWorkloadDir, RegistrySpecTakesTheRestVerbatim) {
    // A path with ',' and '=' (which name:k=v parsing would split) still works.
    ScratchDir d;
    const auto sub = d / "a,b=c";
    std::filesystem::create_directory(sub);
    writeFile(sub / "kernelslist.g", "kernel-1.traceg\n");
    writeFile(sub / "kernel-1.traceg", kGoodFile);
    auto wl = WorkloadRegistry::builtin().create("trace:" + sub.string(), 1);
    EXPECT_EQ(wl->name(), "trace");
    EXPECT_EQ(wl->kernels().size(), 1u);
    try {
        WorkloadRegistry::builtin().create("trace", 1);
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "--workload: trace: expected trace:DIR (a directory holding kernelslist.g)");
    }
    EXPECT_NE(WorkloadRegistry::builtin().listing().find("trace:DIR  Accel-Sim SASS trace"), std::string::npos);
}

} // namespace trace_reader_test
