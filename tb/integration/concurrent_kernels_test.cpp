// Concurrent kernels through the gpusim executable (issue 18): a small hand-written Accel-Sim trace
// whose kernels carry two `-cuda stream id`s runs both streams at once under
// gpu.kernel_concurrency spatial and mixed (the kernels' [start, end] overlap) while one
// stream's kernels still run one after the other; serial, the default, runs them in launch
// order as before. Also the workload concurrent:A+B, the per-kernel and per-stream statistics in
// the stats JSON and the summary's kernel table, and the input errors (exit status 2, one line).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/common/ProcessRunner.hpp"

namespace concurrent_kernels_test {

using namespace gpusim::tb;

namespace {

std::string hex(uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
}

// A tracer-version-5 kernel file: `ctas` blocks of 64 threads (2 warps); each warp loads 16
// consecutive 128-B lines from its own region (base + block/warp offset) and adds them up.
std::string kernelFile(const std::string& name, unsigned id, const std::string& stream, unsigned ctas, uint64_t base) {
    std::string t = "-kernel name = " + name + "\n-kernel id = " + std::to_string(id) + "\n-grid dim = (" +
                    std::to_string(ctas) +
                    ",1,1)\n-block dim = (64,1,1)\n-shmem = 0\n-nregs = 16\n-binary version = 70\n"
                    "-cuda stream id = " + stream + "\n-shmem base_addr = 0x0\n-local mem base_addr = 0x0\n"
                    "-nvbit version = 1.5.5\n-accelsim tracer version = 5\n-enable lineinfo = 0\n\n"
                    "#traces format = [line_num] PC mask dest_num [reg_dests] opcode src_num [reg_srcs] "
                    "mem_width [adrrescompress?] [mem_addresses] immediate\n\n";
    constexpr unsigned kLoads = 16;
    for (unsigned c = 0; c < ctas; ++c) {
        t += "#BEGIN_TB\n\nthread block = " + std::to_string(c) + ",0,0\n\n";
        for (unsigned w = 0; w < 2; ++w) {
            t += "warp = " + std::to_string(w) + "\ninsts = " + std::to_string(2 * kLoads + 1) + "\n";
            const uint64_t region = base + (uint64_t(c) * 2 + w) * kLoads * 128;
            unsigned pc = 0;
            for (unsigned i = 0; i < kLoads; ++i) {
                char line[160];
                std::snprintf(line, sizeof line, "%04x ffffffff 1 R4 LDG.E 1 R2 4 1 %s 4 0\n", pc,
                              hex(region + i * 128).c_str());
                t += line;
                pc += 0x10;
                std::snprintf(line, sizeof line, "%04x ffffffff 1 R5 FFMA 2 R4 R5 0 0\n", pc);
                t += line;
                pc += 0x10;
            }
            char line[64];
            std::snprintf(line, sizeof line, "%04x ffffffff 0 EXIT 0 0 0\n\n", pc);
            t += line;
        }
        t += "#END_TB\n\n";
    }
    return t;
}

// kernelslist.g: a (stream 0), b (stream 0), c (stream 7); 4 blocks each.
std::string writeTrace(const ScratchDir& d, const std::string& streamOfC = "7") {
    const std::string dir = (d / "trace").string();
    std::filesystem::create_directories(dir);
    writeFile(dir + "/kernel-1.traceg", kernelFile("a", 1, "0", 4, 0x10000000));
    writeFile(dir + "/kernel-2.traceg", kernelFile("b", 2, "0", 4, 0x20000000));
    writeFile(dir + "/kernel-3.traceg", kernelFile("c", 3, streamOfC, 4, 0x30000000));
    writeFile(dir + "/kernelslist.g", "kernel-1.traceg\nkernel-2.traceg\nkernel-3.traceg\n");
    return dir;
}

struct RunOut {
    nlohmann::json doc;
    std::string out;
    // The kernels array of the stats JSON by launch position.
    nlohmann::json kernel(size_t index) const {
        for (const auto& k : doc["kernels"])
            if (k["index"] == index) return k;
        return nullptr;
    }
    uint64_t start(size_t i) const { return kernel(i)["start_cycle"].get<uint64_t>(); }
    uint64_t end(size_t i) const { return kernel(i)["end_cycle"].get<uint64_t>(); }
    bool overlap(size_t i, size_t j) const { return start(i) <= end(j) && start(j) <= end(i); }
};

RunOut run(const ScratchDir& d, const std::string& workload, const std::string& concurrency) {
    const std::string s = (d / ("s-" + concurrency + ".json")).string();
    const std::vector<std::string> args = {"run", "--platform", "fermi15", "--set", "gpu.num_sms=4",
                                           "--set", "gpu.kernel_concurrency=" + concurrency,
                                           "--workload", workload, "--stats", s};
    const ProcessResult r = runGpusim(args);
    EXPECT_EQ(r.status, 0) << commandLine(args) << "\n" << r.err;
    EXPECT_EQ(r.err, "");
    return {nlohmann::json::parse(readFile(s)), r.out};
}

void expectInputError(const std::vector<std::string>& args, const std::string& message) {
    const ProcessResult r = runGpusim(args);
    EXPECT_EQ(r.status, 2) << commandLine(args) << "\n" << r.err;
    ASSERT_EQ(r.errLines().size(), 1u) << r.err;
    EXPECT_EQ(r.errLines()[0], "gpusim: error: " + message);
}

} // namespace

TEST(ConcurrentKernels, TwoStreamsOverlapOneStreamInOrder) {
    ScratchDir d;
    const std::string trace = "trace:" + writeTrace(d);
    for (const std::string mode : {"spatial", "mixed"}) {
        SCOPED_TRACE(mode);
        const RunOut r = run(d, trace, mode);
        ASSERT_EQ(r.doc["kernels"].size(), 3u);
        // a (stream 0) and c (stream 7) start together; b waits for a.
        EXPECT_EQ(r.start(0), r.start(2));
        EXPECT_TRUE(r.overlap(0, 2)) << r.doc["kernels"].dump();
        EXPECT_EQ(r.start(1), r.end(0) + 1);
        EXPECT_FALSE(r.overlap(0, 1));
        EXPECT_EQ(r.kernel(2)["stream"], 7);
        // Per kernel: 4 blocks x 2 warps x 33 instructions; per stream: the sum of its kernels.
        const auto& st = r.doc["stats"];
        for (const std::string k : {"kernel0", "kernel1", "kernel2"})
            EXPECT_EQ(st[k + ".warp_instructions"], 264) << k;
        EXPECT_EQ(st["stream0.kernels"], 2);
        EXPECT_EQ(st["stream0.warp_instructions"], 528);
        EXPECT_EQ(st["stream7.kernels"], 1);
        EXPECT_EQ(st["stream0.first_start_cycle"], r.start(0));
        EXPECT_EQ(st["stream0.last_end_cycle"], r.end(1));
        EXPECT_EQ(st["stream7.last_end_cycle"], r.end(2));
        EXPECT_EQ(st["gpu.warp_instructions"], 3 * 264);
        EXPECT_NE(r.out.find("kernels, in start order:"), std::string::npos) << r.out;
    }
}

TEST(ConcurrentKernels, SerialRunsTheTraceInLaunchOrder) {
    ScratchDir d;
    const RunOut r = run(d, "trace:" + writeTrace(d), "serial");
    ASSERT_EQ(r.doc["kernels"].size(), 3u);
    EXPECT_EQ(r.start(1), r.end(0) + 1);
    EXPECT_EQ(r.start(2), r.end(1) + 1);
    EXPECT_FALSE(r.overlap(0, 2));
}

TEST(ConcurrentKernels, ConcurrentWorkloadOverlapsItsParts) {
    ScratchDir d;
    const std::string w = "concurrent:vectoradd:n=8192+vectoradd:n=8192";
    const RunOut m = run(d, w, "mixed");
    ASSERT_EQ(m.doc["kernels"].size(), 2u);
    EXPECT_EQ(m.kernel(1)["stream"], 1);
    EXPECT_TRUE(m.overlap(0, 1));
    EXPECT_EQ(m.doc["workload"]["name"], "concurrent");
    EXPECT_EQ(m.doc["workload"]["params"]["parts"][1]["spec"], "vectoradd:n=8192");
    const RunOut s = run(d, w, "serial");
    EXPECT_EQ(s.start(1), s.end(0) + 1);
    // The same work either way.
    EXPECT_EQ(m.doc["stats"]["gpu.warp_instructions"], s.doc["stats"]["gpu.warp_instructions"]);
}

TEST(ConcurrentKernels, BadInputIsNamed) {
    ScratchDir d;
    const std::string dir = writeTrace(d, "first");
    expectInputError({"run", "--workload", "trace:" + dir},
                     dir + "/kernel-3.traceg:8: -cuda stream id: bad number 'first'");
    expectInputError({"run", "--set", "gpu.kernel_concurrency=parallel", "--workload", "vectoradd"},
                     "--set: gpu.kernel_concurrency: 'parallel' is not one of: serial, spatial, mixed");
    expectInputError({"run", "--workload", "concurrent:vectoradd"},
                     "--workload: concurrent: needs at least two workloads (expected concurrent:SPEC+SPEC[+...], "
                     "e.g. concurrent:kmeans+blackscholes)");
}

} // namespace concurrent_kernels_test
