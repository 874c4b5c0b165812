// A trace warp read a window at a time (workloads/trace/TraceWarpStream.hpp): the same
// instructions as a whole read of the section, host memory that does not grow with the warp's
// length, and lines that fail when read again (the file changed during the run) blamed on their
// own line. Warps here are longer than TraceWarpStream::kHeld, so most of each comes from the
// later windows.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "common/SimError.hpp"
#include "tb/common/ProcessRunner.hpp"
#include "tb/unit/workloads/WorkloadTestHelpers.hpp"
#include "workloads/trace/LineReader.hpp"
#include "workloads/trace/TraceFileReader.hpp"
#include "workloads/trace/TraceWarpStream.hpp"
#include "workloads/trace/TraceWorkload.hpp"
#include "workloads/trace/TraceWriter.hpp"

namespace trace_stream_test {

using namespace gpusim;
using gpusim::tb::ScratchDir;
using gpusim::tb::writeFile;

namespace {

std::string hex(uint64_t v, int digits = 0) {
    char b[32];
    std::snprintf(b, sizeof b, "%0*llx", digits, static_cast<unsigned long long>(v));
    return b;
}

constexpr uint64_t kBase = 0x10000000;

// Instruction i of the long warp, PC 16 i: i % 5 == 0 a load in mode 1 from kBase + 128 i
// (lanes 4 bytes apart), i % 7 == 0 (not % 5) a gather in mode 2 whose deltas alternate 4224 and
// 4096 (every address held), i == 100 an EXIT of lanes 0-15 (not the warp's end: runs as ALU),
// otherwise FFMA R(i % 200) <- R1, R2.
std::string longLine(uint64_t i) {
    const std::string pc = hex(16 * i, 4);
    if (i == 100) return pc + " 0000ffff 0 EXIT 0 0 0 ";
    if (i % 5 == 0) return pc + " ffffffff 1 R4 LDG.E 1 R2 4 1 0x" + hex(kBase + 128 * i) + " 4 0 ";
    if (i % 7 == 0) {
        std::string deltas;
        for (unsigned l = 1; l < 32; ++l) deltas += l % 2 ? "4224 " : "4096 ";
        return pc + " ffffffff 1 R5 LDG.E 1 R2 4 2 0x" + hex(kBase + 0x1000000 + 128 * i) + " " + deltas + "0 ";
    }
    return pc + " ffffffff 1 R" + std::to_string(i % 200) + " FFMA 2 R1 R2 0 0 ";
}

// One kernel, one block of 40 threads: warp 0 has `n` instructions of longLine, with a blank line
// after every 50th and a cluster line after every 77th (both allowed among a warp's lines), the
// lines of odd i ending in CR LF; warp 1 (8 lanes) has 2 FFMA and no EXIT.
std::string longTrace(uint64_t n) {
    std::string t =
        "-kernel name = long\n-grid dim = (1,1,1)\n-block dim = (40,1,1)\n-binary version = 70\n"
        "-accelsim tracer version = 5\n-enable lineinfo = 0\n\n#BEGIN_TB\nthread block = 0,0,0\n"
        "warp = 0\ninsts = " + std::to_string(n) + "\n";
    for (uint64_t i = 0; i < n; ++i) {
        t += longLine(i) + (i % 2 ? "\r\n" : "\n");
        if (i % 50 == 49) t += "\n";
        if (i % 77 == 76) t += "cluster = 0,0,0\n";
    }
    t += "warp = 1\ninsts = 2\n0000 000000ff 1 R1 FFMA 0 0 0 \n0010 000000ff 1 R2 FFMA 0 0 0 \n#END_TB\n";
    return t;
}

// 1-based number of the line holding instruction `i` of warp 0 in longTrace: 11 lines before
// the first (six header lines, a blank, #BEGIN_TB, thread block, warp, insts), then one per instruction, one blank after every 50th and a cluster line after
// every 77th of those before it.
uint64_t lineOfInstruction(uint64_t i) { return 12 + i + i / 50 + i / 77; }

std::vector<WarpInstruction> drain(WarpStream& s) {
    std::vector<WarpInstruction> v;
    WarpInstruction in;
    while (s.next(in)) v.push_back(in);
    return v;
}

// The warps of CTA 0 as a whole read (no window) gives them.
std::vector<std::vector<WarpInstruction>> wholeRead(const std::string& text) {
    TraceFileReader r(LineReader::fromMemory("k.traceg", text));
    ThreadBlockTrace tb;
    TraceTally tally;
    r.readThreadBlock(0, tb, tally);
    std::vector<std::vector<WarpInstruction>> out;
    for (const PackedWarp& w : tb.warps) {
        out.emplace_back();
        size_t pos = 0;
        WarpInstruction in;
        while (w.read(pos, in)) out.back().push_back(in);
    }
    return out;
}

struct TraceDir {
    ScratchDir dir;
    std::string file;
    explicit TraceDir(const std::string& text, const std::string& name = "kernel-1.traceg") {
        file = (dir / name).string();
        writeFile(dir / "kernelslist.g", name + "\n");
        writeFile(file, text);
    }
};

// Overwrites text at `offset` of `file` without changing its length (a file edited during a run).
void patch(const std::string& file, size_t offset, const std::string& bytes) {
    std::FILE* f = std::fopen(file.c_str(), "r+b");
    ASSERT_NE(f, nullptr);
    std::fseek(f, static_cast<long>(offset), SEEK_SET);
    std::fwrite(bytes.data(), 1, bytes.size(), f);
    std::fclose(f);
}

} // namespace

TEST(TraceWarpStream, AWindowedWarpGivesTheInstructionsOfAWholeRead) {
    const uint64_t n = 700;  // kHeld (64) held, 636 from later windows
    const std::string text = longTrace(n);
    TraceDir d(text);
    TraceWorkload wl(d.dir.path().string());
    const Kernel& k = *wl.kernels()[0];
    const auto whole = wholeRead(text);
    const std::vector<WarpInstruction> v = drain(*k.warp(0, 0)), w1 = drain(*k.warp(0, 1));
    for (unsigned w = 0; w < 2; ++w) {
        const auto& got = w == 0 ? v : w1;
        ASSERT_EQ(got.size(), whole[w].size()) << "warp " << w;
        for (size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(test::sameInstruction(got[i], whole[w][i])) << i;
    }
    // By hand: 700 lines + the appended EXIT (the last line, i = 699, is FFMA).
    ASSERT_EQ(v.size(), 701u);
    EXPECT_EQ(v[100].op, OpClass::Alu);  // the early EXIT
    EXPECT_EQ(v[100].activeMask, 0x0000ffffu);
    EXPECT_EQ(v[655].op, OpClass::Load);  // 655 = 5 x 131: mode 1 from kBase + 128 x 655 = 0x10014780
    EXPECT_EQ(v[655].addr[0], 0x10014780u);
    EXPECT_EQ(v[655].addr[31], 0x10014780u + 31 * 4);
    EXPECT_EQ(v[679].op, OpClass::Load);  // 679 = 7 x 97: lane 2 = base + 4224 + 4096
    EXPECT_EQ(v[679].addr[0], kBase + 0x1000000 + 128 * 679);
    EXPECT_EQ(v[679].addr[2], kBase + 0x1000000 + 128 * 679 + 4224 + 4096);
    EXPECT_EQ(v[699].dst[0], 699 % 200);
    EXPECT_EQ(v[700].op, OpClass::Exit);
    EXPECT_EQ(v[700].pc, 16u * 700);  // 0x2bc0: the PC after the last line's
    EXPECT_EQ(v[700].activeMask, 0xffffffffu);
    ASSERT_EQ(w1.size(), 3u);
    EXPECT_EQ(w1[2].op, OpClass::Exit);
    EXPECT_EQ(w1[2].pc, 0x20u);
    EXPECT_EQ(w1[2].activeMask, 0xffu);  // lanes 32-39 of the 40-thread block
    // The tally is the section read's: one appended EXIT per warp.
    EXPECT_EQ(wl.report()["warps_without_exit"], 2);
}

TEST(TraceWarpStream, XzWarpsReadThroughTheDecodedCopyAlike) {
    // The long trace exported again with xz compression (TraceWriter, liblzma), read back.
    const std::string text = longTrace(700);
    TraceDir d(text);
    ScratchDir xzDir;
    {
        TraceWorkload plain(d.dir.path().string());
        TraceExportOptions opt;
        opt.xz = true;
        exportTrace(plain, xzDir.path().string(), opt);
    }
    ASSERT_TRUE(std::filesystem::exists(xzDir / "kernel-1.traceg.xz"));
    TraceWorkload wl(xzDir.path().string());
    const auto whole = wholeRead(text);
    for (unsigned w = 0; w < 2; ++w) {
        const auto got = drain(*wl.kernels()[0]->warp(0, w));
        ASSERT_EQ(got.size(), whole[w].size());
        for (size_t i = 0; i < got.size(); ++i) EXPECT_TRUE(test::sameInstruction(got[i], whole[w][i])) << i;
    }
}

TEST(TraceWarpStream, HeldMemoryDoesNotGrowWithTheWarp) {
    // Per warp, the most the stream holds at any time, for a warp 20 times longer.
    const auto peak = [](uint64_t n) {
        TraceDir d(longTrace(n));
        TraceWorkload wl(d.dir.path().string());
        auto s = wl.kernels()[0]->warp(0, 0);
        auto* stream = dynamic_cast<TraceWarpStream*>(s.get());
        EXPECT_NE(stream, nullptr);
        size_t most = 0, mostLater = 0;
        WarpInstruction in;
        for (uint64_t i = 0; stream && stream->next(in); ++i) {
            most = std::max(most, stream->bytes());
            if (i >= TraceWarpStream::kHeld) mostLater = std::max(mostLater, stream->bytes());
        }
        EXPECT_LE(mostLater, TraceWarpStream::kWindowBytes) << n;
        return most;
    };
    const size_t at1k = peak(1000), at20k = peak(20000);
    EXPECT_EQ(at1k, at20k);
    // The held part: 64 instructions, at most 35 words each (3 + 32 addresses): 17,920 bytes,
    // a vector of at most twice that.
    EXPECT_LE(at20k, 2u * 64 * 35 * 8);
}

TEST(TraceWarpStream, StreamsOnSeveralThreadsReadTheirOwnWindows) {
    const std::string text = longTrace(2000);
    TraceDir d(text);
    TraceWorkload wl(d.dir.path().string());
    const Kernel& k = *wl.kernels()[0];
    auto a = k.warp(0, 0);
    auto b = k.warp(0, 0);  // the same warp again: a stream of its own
    std::vector<WarpInstruction> va, vb;
    std::thread ta([&] { va = drain(*a); });
    std::thread tbt([&] { vb = drain(*b); });
    ta.join();
    tbt.join();
    const auto whole = wholeRead(text);
    ASSERT_EQ(va.size(), whole[0].size());
    ASSERT_EQ(vb.size(), whole[0].size());
    for (size_t i = 0; i < va.size(); ++i) {
        EXPECT_TRUE(test::sameInstruction(va[i], whole[0][i])) << i;
        EXPECT_TRUE(test::sameInstruction(vb[i], whole[0][i])) << i;
    }
}

TEST(TraceWarpStream, ALateErrorNamesItsFileAndLine) {
    // Instruction 650 (a load: 650 = 5 x 130) gets a bad hex digit after its section was read:
    // the stream meets it in a later window and blames its line, 12 + 650 + 13 + 8 = 683.
    const std::string text = longTrace(700);
    TraceDir d(text);
    TraceWorkload wl(d.dir.path().string());
    auto s = wl.kernels()[0]->warp(0, 0);
    const std::string good = "0x" + hex(kBase + 128 * 650);
    const size_t at = text.find(good);
    ASSERT_NE(at, std::string::npos);
    patch(d.file, at + 2, "q");
    ASSERT_EQ(lineOfInstruction(650), 683u);
    WarpInstruction in;
    uint64_t read = 0;
    try {
        while (s->next(in)) ++read;
        FAIL() << "the changed line was accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), d.file + ":683: bad hex base address '0xq0014500'");
    }
    // Every instruction before the bad line's window came out; the bad line did not.
    EXPECT_LT(read, 650u);
    EXPECT_GE(read, TraceWarpStream::kHeld);
    try {
        wl.rethrowDeferredInputError();
        FAIL() << "the error was not kept for the end of the run";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), d.file + ":683: bad hex base address '0xq0014500'");
    }
}

TEST(TraceWarpStream, AFileCutDuringTheRunIsAnErrorAtTheCut) {
    // Cut at the start of instruction 600's line: 100 instructions of warp 0 are missing.
    const std::string text = longTrace(700);
    TraceDir d(text);
    TraceWorkload wl(d.dir.path().string());
    auto s = wl.kernels()[0]->warp(0, 0);
    std::filesystem::resize_file(d.file, text.find(longLine(600)));
    try {
        drain(*s);
        FAIL() << "the cut file was accepted";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), d.file + ":" + std::to_string(lineOfInstruction(600)) +
                                             ": the file ends before the warp's last 100 instructions (was it "
                                             "changed during the run?)");
    }
}

TEST(TraceWarpStream, ErrorsLateInALongWarpAreFoundWhenItsSectionIsRead) {
    // A bad line far past the held part still fails the section read, at its own line.
    std::string text = longTrace(5000);
    const std::string good = "0x" + hex(kBase + 128 * 4995);
    text.replace(text.find(good) + 2, 1, "q");
    TraceDir d(text);
    TraceWorkload wl(d.dir.path().string());
    try {
        wl.kernels()[0]->warp(0, 0);
        FAIL();
    } catch (const InputError& e) {
        // 12 + 4995 + 4995 / 50 (99) + 4995 / 77 (64) = 5170.
        EXPECT_EQ(lineOfInstruction(4995), 5170u);
        EXPECT_EQ(std::string(e.what()), d.file + ":5170: bad hex base address '0xq009c180'");
    }
}

} // namespace trace_stream_test
