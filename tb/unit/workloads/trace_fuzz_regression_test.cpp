// Replays the fuzz targets' inputs under the normal (g++) build, so a crash once found by
// fuzzing stays fixed even where clang/libFuzzer is not installed: every file of
// tb/fuzz/regressions/<target>/ (inputs that crashed once) and of the seed corpus
// tb/fuzz/corpus/<target>/ goes through the same harness as the fuzz target
// (tb/fuzz/targets/*Harness.hpp). Passing means: no crash, no exception other than InputError,
// and the harness's invariants hold (it aborts otherwise).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tb/common/ProcessRunner.hpp"
#include "tb/fuzz/targets/ConfigLoaderHarness.hpp"
#include "tb/fuzz/targets/TraceParserHarness.hpp"

namespace trace_fuzz_regression_test {

namespace {

// Sorted for a stable order; dotfiles (.gitkeep) skipped.
std::vector<std::filesystem::path> inputs(const std::string& target) {
    std::vector<std::filesystem::path> v;
    for (const char* kind : {"regressions", "corpus"}) {
        const std::filesystem::path dir = std::filesystem::path(GPUSIM_SOURCE_DIR) / "tb/fuzz" / kind / target;
        for (const auto& e : std::filesystem::directory_iterator(dir))
            if (e.is_regular_file() && e.path().filename().string()[0] != '.') v.push_back(e.path());
    }
    std::sort(v.begin(), v.end());
    return v;
}

void replay(const std::string& target, void (*run)(const uint8_t*, size_t)) {
    const auto files = inputs(target);
    EXPECT_FALSE(files.empty());
    for (const auto& f : files) {
        SCOPED_TRACE(f.string());
        const std::string bytes = gpusim::tb::readFile(f);
        EXPECT_NO_THROW(run(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
    }
}

} // namespace

TEST(FuzzRegression, TraceParserInputs) { replay("trace_parser", gpusim::fuzz::runTraceParser); }

TEST(FuzzRegression, ConfigLoaderInputs) { replay("config_loader", gpusim::fuzz::runConfigLoader); }

TEST(FuzzRegression, HarnessCatchesAnExporterReaderMismatch) {
    // The invariant the trace harness checks, on a line where it holds and on a pair that differ.
    gpusim::ParsedLine a, b;
    gpusim::parseInstructionLine("0040 00000003 1 R4 LDG.E 1 R2 4 1 0x1000 4", {5, false}, a);
    gpusim::parseInstructionLine(gpusim::formatInstructionLine(a.inst), {5, false}, b);
    EXPECT_TRUE(gpusim::fuzz::sameInstruction(a.inst, b.inst));
    b.inst.addr[1] += 4;
    EXPECT_FALSE(gpusim::fuzz::sameInstruction(a.inst, b.inst));
}

} // namespace trace_fuzz_regression_test
