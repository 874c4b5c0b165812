#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "common/SimError.hpp"
#include "platforms/TraceOutputFile.hpp"

#include <zlib.h>

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

TEST(TraceOutputFile, AGzNameIsWrittenGzipCompressed) {
    const auto path = std::filesystem::temp_directory_path() / "gpusim_trace_output_file_test.csv.gz";
    {
        TraceOutputFile f(path.string(), "--trace-tlm");
        for (int i = 0; i < 1000; ++i) std::fprintf(f.get(), "line %d\n", i);
    }
    std::ifstream raw(path, std::ios::binary);
    char magic[2] = {};
    raw.read(magic, 2);
    EXPECT_EQ(static_cast<unsigned char>(magic[0]), 0x1fu) << "gzip magic";
    EXPECT_EQ(static_cast<unsigned char>(magic[1]), 0x8bu);
    gzFile gz = gzopen(path.string().c_str(), "rb");
    ASSERT_NE(gz, nullptr);
    std::string text;
    char buf[4096];
    for (int n; (n = gzread(gz, buf, sizeof buf)) > 0;) text.append(buf, size_t(n));
    gzclose(gz);
    // "line 0\n" .. "line 999\n": 10 * 7 + 90 * 8 + 900 * 9 = 8,890 bytes.
    EXPECT_EQ(text.size(), 8890u);
    EXPECT_EQ(text.substr(0, 14), "line 0\nline 1\n");
    EXPECT_LT(std::filesystem::file_size(path), text.size() / 2) << "compressed";
    std::filesystem::remove(path);
    EXPECT_TRUE(TraceOutputFile::isGzipPath("t.csv.gz"));
    EXPECT_FALSE(TraceOutputFile::isGzipPath("t.gzip"));
    EXPECT_TRUE(TraceOutputFile::hasFormatSuffix("t.json.gz", ".json"));
    EXPECT_TRUE(TraceOutputFile::hasFormatSuffix("t.json", ".json"));
    EXPECT_FALSE(TraceOutputFile::hasFormatSuffix("t.csv.gz", ".json"));
}

} // namespace trace_output_file_test
