#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "common/SimError.hpp"
#include "platforms/ProgressReporter.hpp"

namespace progress_reporter_test {

using namespace gpusim;

// 90 of 240 CTAs finished after 6 host seconds, at cycle 120000 with 360000 warp instructions;
// kernel0 of two runs, 90 of its 120 CTAs done.
ProgressSnapshot snapshot() {
    ProgressSnapshot s;
    s.elapsedSeconds = 6;
    s.cycle = 120000;
    s.warpInstructions = 360000;
    s.work.ctasDone = 90;
    s.work.ctasTotal = 240;
    s.work.kernelsEnded = 0;
    s.work.kernels = 2;
    s.work.running.push_back({0, "atax_kernel1", 90, 120});
    return s;
}

// Captures what a reporter writes.
struct Captured {
    char* buf = nullptr;
    size_t size = 0;
    std::FILE* f = open_memstream(&buf, &size);
    std::string text() {
        std::fflush(f);
        return std::string(buf, size);
    }
    ~Captured() {
        std::fclose(f);
        std::free(buf);
    }
};

TEST(ProgressReporter, PlainLineShowsPercentEtaKernelsAndRate) {
    // 90/240 = 37.5 %; ETA = 6 s * (240 - 90) / 90 = 10 s; IPC 360000 / 120000 = 3;
    // 120000 cycles / 6 s = 20000 cycles/s.
    EXPECT_EQ(ProgressReporter::plainLine(snapshot()),
              "[gpusim] 37.5 % done (90/240 CTAs), ETA 0:10, 0:06 elapsed; kernels 0/2 ended, running kernel0 "
              "(atax_kernel1) CTA 90/120; cycle 120000, IPC 3.000, 20000 cycles/s");
}

TEST(ProgressReporter, BarFillsItsShareOfTwentyCells) {
    // 0.375 * 20 = 7.5: seven cells filled.
    EXPECT_EQ(ProgressReporter::barLine(snapshot()),
              "[gpusim] [#######.............]  37.5 %  ETA 0:10  cycle 120000  IPC 3.00  kernels 0/2 ended, running "
              "kernel0 (atax_kernel1) CTA 90/120");
}

TEST(ProgressReporter, NoCtaFinishedHasNoEstimateAndLongTimesShowHours) {
    ProgressSnapshot s = snapshot();
    s.work.ctasDone = 0;
    s.work.running[0].ctasDone = 0;
    EXPECT_NE(ProgressReporter::plainLine(s).find("0.0 % done (0/240 CTAs), ETA ?, 0:06 elapsed"), std::string::npos);
    // 60 of 240 after 3725 s (1 h 2 min 5 s): ETA 3725 * 180 / 60 = 11175 s = 3:06:15.
    s.work.ctasDone = 60;
    s.elapsedSeconds = 3725;
    EXPECT_NE(ProgressReporter::plainLine(s).find("ETA 3:06:15, 1:02:05 elapsed"), std::string::npos)
        << ProgressReporter::plainLine(s);
}

TEST(ProgressReporter, SeveralRunningKernelsAndNone) {
    ProgressSnapshot s = snapshot();
    s.work.kernelsEnded = 1;
    s.work.kernels = 3;
    s.work.running = {{1, "a", 3, 8}, {2, "b", 0, 4}};
    EXPECT_NE(ProgressReporter::plainLine(s).find("kernels 1/3 ended, running kernel1 (a) CTA 3/8, kernel2 (b) CTA 0/4;"),
              std::string::npos);
    s.work.running.clear();
    s.work.kernelsEnded = 3;
    EXPECT_NE(ProgressReporter::plainLine(s).find("; kernels 3/3 ended; cycle"), std::string::npos);
}

TEST(ProgressReporter, PlainLinesComeEveryIntervalTheFirstAfterOne) {
    Captured out;
    ProgressReporter r(ProgressMode::Plain, 10, out.f);
    EXPECT_FALSE(r.due(9.99));
    EXPECT_TRUE(r.due(10));
    ProgressSnapshot s = snapshot();
    s.elapsedSeconds = 10.5;
    r.show(s);
    EXPECT_FALSE(r.due(20.4));  // the next at 10.5 + 10
    EXPECT_TRUE(r.due(20.5));
    r.finish();  // a plain line is already ended
    EXPECT_EQ(out.text(), ProgressReporter::plainLine(s) + "\n");
}

TEST(ProgressReporter, BarIsDrawnAfterTwoSecondsRedrawnInPlaceAndEndedOnce) {
    Captured out;
    ProgressReporter r(ProgressMode::Bar, 10, out.f);
    EXPECT_FALSE(r.due(1.9));
    EXPECT_TRUE(r.due(2.0));
    ProgressSnapshot s = snapshot();
    s.elapsedSeconds = 2.1;
    r.show(s);
    EXPECT_FALSE(r.due(2.5));  // redrawn every 0.5 s: next at 2.6
    EXPECT_TRUE(r.due(2.6));
    r.finish();
    r.finish();
    // Not a terminal: 80 columns assumed, the bar cut to 79 characters.
    EXPECT_EQ(out.text(), "\r" + ProgressReporter::barLine(s).substr(0, 79) + "\033[K\n");
}

TEST(ProgressReporter, TheBarIsCutOneShortOfTheTerminalsWidth) {
    EXPECT_EQ(ProgressReporter::fit("[gpusim] [####", 10), "[gpusim] ");  // 9 characters
    EXPECT_EQ(ProgressReporter::fit("short", 10), "short");
    EXPECT_EQ(ProgressReporter::fit("123456789", 10), "123456789");
    EXPECT_EQ(ProgressReporter::fit("abc", 0), "");
}

TEST(ProgressReporter, NoneIsNeverDueAndFinishWritesNothing) {
    Captured out;
    ProgressReporter r(ProgressMode::None, 10, out.f);
    EXPECT_FALSE(r.due(1e9));
    r.finish();
    EXPECT_EQ(out.text(), "");
}

TEST(ProgressReporter, ModeNamesAndAWrongOne) {
    EXPECT_EQ(progressModeFrom("bar", "--progress"), ProgressMode::Bar);
    EXPECT_EQ(progressModeFrom("plain", "--progress"), ProgressMode::Plain);
    EXPECT_EQ(progressModeFrom("none", "--progress"), ProgressMode::None);
    try {
        progressModeFrom("fancy", "--progress");
        FAIL() << "expected an InputError";
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "--progress: 'fancy' is not a progress display (bar, plain or none)");
    }
}

} // namespace progress_reporter_test
