// Generated Accel-Sim trace directories (tb/common/AccelSimTraceGenerator.hpp, the tracer's own
// output statements) run on fermi15: an application of ten kernels in every layout, on three
// streams, with MemcpyHtoD lines between them; the cost of a dependence through a uniform
// register, and that the constant registers create none; a malformed register name ends the run
// with exit status 2 naming its file and line.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/common/AccelSimTraceExamples.hpp"
#include "tb/common/GpuTestBench.hpp"
#include "tb/common/ProcessRunner.hpp"

namespace trace_generated_run_test {

using namespace gpusim;
using namespace gpusim::tb;
using gpusim::tb::accelsim::Command;
using gpusim::tb::accelsim::Cta;
using gpusim::tb::accelsim::currentLayout;
using gpusim::tb::accelsim::ExampleLayout;
using gpusim::tb::accelsim::Inst;
using gpusim::tb::accelsim::Layout;
using gpusim::tb::accelsim::Memcpy;
using gpusim::tb::accelsim::Reg;
using gpusim::tb::accelsim::RegisterStyle;
using gpusim::tb::accelsim::exampleKernel;
using gpusim::tb::accelsim::exampleLayouts;
using gpusim::tb::accelsim::writeApplication;
using gpusim::tb::accelsim::R;
using gpusim::tb::accelsim::RZ;
using gpusim::tb::accelsim::UR;
using gpusim::tb::accelsim::URZ;

namespace {

// Kernel i + 1 in layout i of exampleLayouts(), on streams 0, 0x55d0a1e0 and 0x55d0a2f0 in
// turn, every third kernel named per CUDA context; a MemcpyHtoD before kernels 1, 4, 7 and 10.
std::vector<Command> application() {
    std::vector<Command> cmds;
    const std::vector<ExampleLayout> layouts = exampleLayouts();
    const uint64_t streams[] = {0, 0x55d0a1e0, 0x55d0a2f0};
    for (unsigned i = 0; i < layouts.size(); ++i) {
        if (i % 3 == 0) cmds.push_back(Memcpy{0x7f1000000000ull + 0x100000ull * i, 4096ull * (i + 1)});
        gpusim::tb::accelsim::Kernel k = exampleKernel(layouts[i].layout, i + 1);
        k.stream = streams[i % 3];
        if (i % 3 == 2) k.ctx = 0x5581c0de;
        cmds.push_back(k);
    }
    return cmds;
}

// One warp of S2UR `def` ; IMAD R10 <- `use`, R3, RZ ; EXIT (version 5, named registers).
std::string uniformPair(const ScratchDir& d, const std::string& name, Reg def, Reg use) {
    const Layout lay = currentLayout(5);
    gpusim::tb::accelsim::Kernel k;
    k.layout = lay;
    k.binaryVersion = 86;
    gpusim::tb::accelsim::Warp w;
    Inst s2ur;
    s2ur.pc = 0x00;
    s2ur.dst = {def};
    s2ur.opcode = "S2UR";
    Inst imad;
    imad.pc = 0x10;
    imad.dst = {R(10)};
    imad.opcode = "IMAD";
    imad.src = {use, R(3), RZ()};
    Inst exit;
    exit.pc = 0x20;
    exit.opcode = "EXIT";
    w.insts = {s2ur, imad, exit};
    Cta c;
    c.warps = {w};
    k.ctas = {c};
    const std::string dir = (d / name).string();
    writeApplication(dir, {k});
    return dir;
}

uint64_t kernelCycles(const ScratchDir& d, const std::string& dir) {
    const std::string out = (d / (std::filesystem::path(dir).filename().string() + ".json")).string();
    const ProcessResult r = runGpusim({"run", "-q", "--workload", "trace:" + dir, "--stats", out});
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.err, "");
    return nlohmann::json::parse(readFile(out))["stats"]["kernel0.cycles"].get<uint64_t>();
}

} // namespace

TEST(GeneratedTraceRun, ManyKernelsInEveryLayoutOnThreeStreams) {
    // 10 kernels x 2 CTAs: 18 warp instructions, 42 read lines and 2 write lines per CTA, every
    // line its own (AccelSimTraceExamples.hpp), so every read line is an L1D miss and a NoC read.
    ScratchDir d;
    const std::string dir = (d / "app").string();
    writeApplication(dir, application());
    GpuTestBench b("gto", "trace:" + dir);
    const RunResult r = b.run();
    EXPECT_EQ(b.checkers.violationCount(), 0u) << b.checkers.report();
    EXPECT_TRUE(b.gpu->dispatcher().done());
    EXPECT_EQ(r.instructions, 10u * 2 * 18);                   // 360
    EXPECT_EQ(b.sum("sm", ".issued"), 360u);
    for (unsigned k = 0; k < 10; ++k) EXPECT_EQ(b.stat("kernel" + std::to_string(k) + ".ctas"), 2u) << k;
    EXPECT_EQ(b.sum("sm", ".l1d.read_misses"), 10u * 2 * 42);  // 840
    EXPECT_EQ(b.sum("sm", ".l1d.read_hits"), 0u);
    EXPECT_EQ(b.sum("sm", ".l1d.writes"), 10u * 2 * 2);        // 40
    EXPECT_EQ(b.stat("noc.req.packets"), 840u + 40u);
    const nlohmann::json rep = b.workload->report();
    EXPECT_EQ(rep["memcpy_htod"].size(), 4u);  // before kernels 1, 4, 7 and 10
    EXPECT_EQ(rep["unknown_opcode_instructions"], 0);
    EXPECT_EQ(rep["warps_without_exit"], 0);
}

TEST(GeneratedTraceRun, AUniformRegisterDependenceCostsTheAluLatencyLessOne) {
    // One warp, fermi15 (ALU latency 4, 2 ALUs): S2UR issues at c, its UR4 due at c + 4.
    //   independent (IMAD reads UR5): IMAD at c + 1 (R10 due c + 5), EXIT at c + 2; the warp
    //     ends when R10 is in: c + 5;
    //   dependent (IMAD reads UR4): IMAD at c + 4, when UR4 is written back (R10 due c + 8),
    //     EXIT at c + 5; the warp ends at c + 8.
    // So the kernel takes 3 cycles more. Writing URZ and reading it back is no dependence.
    ScratchDir d;
    const uint64_t independent = kernelCycles(d, uniformPair(d, "independent", UR(4), UR(5)));
    const uint64_t dependent = kernelCycles(d, uniformPair(d, "dependent", UR(4), UR(4)));
    const uint64_t zero = kernelCycles(d, uniformPair(d, "zero", URZ(), URZ()));
    EXPECT_EQ(dependent, independent + 3);
    EXPECT_EQ(zero, independent);
    // UR4 and R4 are different registers.
    EXPECT_EQ(kernelCycles(d, uniformPair(d, "vector", UR(4), R(4))), independent);
}

TEST(GeneratedTraceRun, AMalformedRegisterNameEndsTheRunNamingItsLine) {
    // Line 27 is the first warp's first instruction (trace_generated_test.cpp counts it).
    ScratchDir d;
    const Layout lay = currentLayout(5);
    const std::string dir = (d / "bad").string();
    writeApplication(dir, {exampleKernel(lay, 1)});
    const std::string file = dir + "/kernel-1.traceg";
    std::string text = readFile(file);
    const size_t at = text.find(" UR4 S2UR");
    ASSERT_NE(at, std::string::npos);
    text.replace(at, 4, " UR64");
    writeFile(file, text);
    const ProcessResult r = runGpusim({"run", "-q", "--workload", "trace:" + dir});
    EXPECT_EQ(r.status, 2) << r.err;
    ASSERT_EQ(r.errLines().size(), 1u) << r.err;
    EXPECT_EQ(r.errLines()[0], "gpusim: error: " + file +
                                   ":27: bad register 'UR64' (expected R0 .. R255, RZ, UR0 .. UR63, URZ, "
                                   "P0 .. P7, PT, UP0 .. UP7 or UPT)");
}

} // namespace trace_generated_run_test
