#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/SimError.hpp"
#include "platforms/TraceOutputFile.hpp"

namespace trace_output_file_test {

using namespace gpusim;

TEST(TraceOutputFile, UnopenablePathIsAnInputErrorNamingOptionAndPath) {
    try {
        TraceOutputFile f("/nonexistent-dir/t.csv", "--trace-tlm");
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "--trace-tlm: /nonexistent-dir/t.csv: cannot open for writing");
    }
}

TEST(TraceOutputFile, WritesReachTheFileAtCloseAndCloseTwiceIsHarmless) {
    const auto path = std::filesystem::temp_directory_path() / "gpusim_trace_output_file_test.txt";
    TraceOutputFile f(path.string(), "--trace-warps");
    ASSERT_TRUE(f.open());
    std::fputs("a line\n", f.get());
    f.close();
    EXPECT_FALSE(f.open());
    EXPECT_EQ(f.get(), nullptr);
    f.close();
    std::ifstream in(path);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "a line");
    std::filesystem::remove(path);
}

TEST(TraceOutputFile, AWriteFailureShownAtCloseIsAWarningNamingOptionAndPath) {
    testing::internal::CaptureStderr();
    {
        TraceOutputFile f("/dev/full", "--trace-warps");
        std::fputs("more than nothing\n", f.get());  // buffered: fails when flushed at close
    }
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "gpusim: warning: --trace-warps: /dev/full: write failed\n");
}

} // namespace trace_output_file_test
