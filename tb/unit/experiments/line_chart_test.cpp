// LineChart (experiments/LineChart.hpp): point positions worked out from its layout constants.
#include <gtest/gtest.h>

#include <string>

#include "experiments/LineChart.hpp"
#include "tb/common/XmlWellFormed.hpp"

namespace line_chart_test {

using namespace gpusim::chart;

size_t count(const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
    return n;
}

TEST(LineChart, PointsSitOnTheAxesItDraws) {
    // x 0..10: niceAxis gives 0..10 in steps of 2, y 0..5 in steps of 1. One legend row: the plot
    // starts 36 + 18 + 10 = 64 from the top, 64 from the left, 640 wide, 240 high. (0, 0) is at
    // (64, 304), (10, 5) at (704, 64), (5, 2.5) at (384, 184).
    const LineChart c{"t", "cycle", "ipc", {0, 5, 10}, {{"a", {0.0, 2.5, 5.0}}}};
    const std::string svg = renderSvg(c);
    EXPECT_EQ(gpusim::tb::xmlWellFormedError(svg), "");
    EXPECT_NE(svg.find("points=\"64,304 384,184 704,64\""), std::string::npos) << svg;
}

TEST(LineChart, AMissingValueBreaksTheLine) {
    const LineChart c{"t", "x", "y", {0, 1, 2, 3}, {{"a", {1.0, std::nullopt, 3.0, 4.0}}}};
    const std::string svg = renderSvg(c);
    EXPECT_EQ(count(svg, "<polyline"), 2u);  // [0] alone, then [2], [3]
}

} // namespace line_chart_test
