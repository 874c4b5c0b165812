// --trace-window and --trace-sms parsing: the window is FROM included, TO excluded, in core
// cycles; the SM list takes ids and ranges below the platform's SM count.
#include <gtest/gtest.h>

#include <string>

#include "common/SimError.hpp"
#include "platforms/TraceFilter.hpp"

namespace trace_filter_test {

using namespace gpusim;

std::string errorOf(const std::string& window, const std::string& sms, unsigned numSms = 15) {
    try {
        TraceFilter::parse(window, sms, numSms);
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

TEST(TraceFilter, NoOptionsKeepEverything) {
    const TraceFilter f = TraceFilter::parse("", "", 15);
    EXPECT_TRUE(f.everySm());
    EXPECT_TRUE(f.inWindow(0));
    EXPECT_TRUE(f.inWindow(TraceFilter::kEnd - 1));
    EXPECT_TRUE(f.smKept(14));
    EXPECT_TRUE(f.smKept(-1)) << "L2 traffic is kept without an SM filter";
    EXPECT_EQ(f.toPs(714), TraceFilter::kEnd);
}

TEST(TraceFilter, WindowIncludesFromAndExcludesTo) {
    const TraceFilter f = TraceFilter::parse("100:400", "", 15);
    EXPECT_FALSE(f.inWindow(99));
    EXPECT_TRUE(f.inWindow(100));
    EXPECT_TRUE(f.inWindow(399));
    EXPECT_FALSE(f.inWindow(400));
    // 1400 MHz: 714 ps a cycle; 100 * 714 = 71,400 and 400 * 714 = 285,600 ps.
    EXPECT_EQ(f.fromPs(714), 71400u);
    EXPECT_EQ(f.toPs(714), 285600u);
    const TraceFilter open = TraceFilter::parse("5:", "", 15);
    EXPECT_FALSE(open.inWindow(4));
    EXPECT_TRUE(open.inWindow(1u << 30));
}

TEST(TraceFilter, SmListTakesIdsAndRanges) {
    const TraceFilter f = TraceFilter::parse("", "0,3-5", 15);
    EXPECT_FALSE(f.everySm());
    for (int sm : {0, 3, 4, 5}) EXPECT_TRUE(f.smKept(sm)) << sm;
    for (int sm : {1, 2, 6, 14, 15}) EXPECT_FALSE(f.smKept(sm)) << sm;
    EXPECT_FALSE(f.smKept(-1)) << "with a filter, L2 traffic (sm -1) is left out";
    EXPECT_TRUE(TraceFilter::parse("", "14", 15).smKept(14));
}

TEST(TraceFilter, MalformedValuesAreInputErrorsNamingTheOption) {
    EXPECT_EQ(errorOf("400:100", ""), "--trace-window: '400:100': TO must be greater than FROM (TO is excluded)");
    EXPECT_EQ(errorOf("10:10", ""), "--trace-window: '10:10': TO must be greater than FROM (TO is excluded)");
    EXPECT_EQ(errorOf("100", ""), "--trace-window: '100': expected FROM:TO (core cycles)");
    EXPECT_EQ(errorOf("1e3:2000", ""), "--trace-window: '1e3:2000': expected a number, got '1e3'");
    EXPECT_EQ(errorOf(":5", ""), "--trace-window: ':5': expected a number, got ''");
    EXPECT_EQ(errorOf("", "15"), "--trace-sms: '15': SM 15 does not exist (the platform has 15: 0-14)");
    EXPECT_EQ(errorOf("", "2-20"), "--trace-sms: '2-20': SM 20 does not exist (the platform has 15: 0-14)");
    EXPECT_EQ(errorOf("", "5-3"), "--trace-sms: '5-3': range '5-3' is empty");
    EXPECT_EQ(errorOf("", "1,,2"), "--trace-sms: '1,,2': expected a number, got ''");
    EXPECT_EQ(errorOf("", "-1"), "--trace-sms: '-1': expected a number, got ''");
    EXPECT_EQ(errorOf("", "0,"), "--trace-sms: '0,': expected a number, got ''");
}

} // namespace trace_filter_test
