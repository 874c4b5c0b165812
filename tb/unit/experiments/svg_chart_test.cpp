// experiments/SvgChart: bar positions and heights of small charts against hand-computed layout
// (derivations below, from the constants in SvgChart.hpp), the geometric mean, the choice of
// nice ticks and their labels, escaping of markup characters, gaps (no bar, a cross) for missing
// values, scatter plots (point positions on linear and log axes, decade ticks, the y = x line and
// its bands, rejected log values), and that every chart is well-formed XML.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "experiments/SvgChart.hpp"
#include "tb/common/XmlWellFormed.hpp"

namespace svg_chart_test {

using namespace gpusim::chart;
using gpusim::tb::xmlWellFormedError;

namespace {

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
    return n;
}

bool has(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

} // namespace

// Two workloads a, b; two series s1 = {1, 2}, s2 = {0.5, missing}.
// Axis: range [0, 2], raw step 2/5 = 0.4 -> nice 0.5 (0.1, 0.2, 0.25 need 20, 10, 8 intervals),
// ticks 0 .. 2 by 0.5, labels "0" "0.5" "1.0" "1.5" "2.0": widest 3 chars * 0.6 * 11 = 19.8 px,
// 30 + 19.8 + 8 < 64 -> left = 64. Labels "a", "b" are 6.6 px <= group 2*16+12 = 44 minus 4: not
// rotated. One legend row -> plot top 36 + 18 + 10 = 64, bottom 64 + 240 = 304, 120 px per unit.
// Group 0 starts at 64, its bars at 64 + 6 = 70 (s1) and 86 (s2); group 1 at 108: 114, 130.
// s1/a = 1: y 304 - 120 = 184, height 120. s1/b = 2: y 64, height 240. s2/a = 0.5: y 244,
// height 60. s2/b: no bar, a cross at x 130 + 8 = 138, y 304 - 3 = 301.
// Width: the plot (88 px) is narrower than the 360 px minimum -> 64 + 360 + 20 = 444; height
// 304 + 26 = 330.
TEST(SvgChart, GroupedBarPositionsAndHeightsMatchHandLayout) {
    BarChart c;
    c.title = "T";
    c.yLabel = "y";
    c.categories = {"a", "b"};
    c.series = {{"s1", {1.0, 2.0}}, {"s2", {0.5, std::nullopt}}};
    const std::string svg = renderSvg(c);
    EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
    EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"444\" height=\"330\"", 0), 0u) << svg;
    EXPECT_TRUE(has(svg, "<rect class=\"bar\" x=\"70\" y=\"184\" width=\"16\" height=\"120\" fill=\"#0072B2\"")) << svg;
    EXPECT_TRUE(has(svg, "<rect class=\"bar\" x=\"114\" y=\"64\" width=\"16\" height=\"240\" fill=\"#0072B2\"")) << svg;
    EXPECT_TRUE(has(svg, "<rect class=\"bar\" x=\"86\" y=\"244\" width=\"16\" height=\"60\" fill=\"#E69F00\"")) << svg;
    EXPECT_EQ(count(svg, "<rect class=\"bar\""), 3u);  // the missing value is a gap, not a zero bar
    EXPECT_FALSE(has(svg, "<rect class=\"bar\" x=\"130\"")) << svg;
    EXPECT_TRUE(has(svg, "<text class=\"missing\" x=\"138\" y=\"301\"")) << svg;
    EXPECT_TRUE(has(svg, "s2, b: no value"));
    // The tick at 1 sits on y = 184, its label 6 px left of the axis.
    EXPECT_TRUE(has(svg, "<line class=\"grid\" x1=\"64\" y1=\"184\" x2=\"152\" y2=\"184\"")) << svg;
    EXPECT_TRUE(has(svg, "<text class=\"tick\" x=\"58\" y=\"188\" text-anchor=\"end\">1.0</text>")) << svg;
    EXPECT_TRUE(has(svg, "<text class=\"category\" x=\"86\" y=\"320\" text-anchor=\"middle\">a</text>")) << svg;
    EXPECT_EQ(count(svg, "<rect class=\"swatch\""), 2u);
    EXPECT_FALSE(has(svg, "gmean"));
    EXPECT_FALSE(has(svg, "class=\"reference\""));
}

// s1 = {2, 8, missing}: gmean sqrt(2 * 8) = 4 over its two values; s2 = {1, 1, 1}: 1.
// Axis [0, 8] (raw step 1.6 -> 2, four intervals), 240 / 8 = 30 px per unit, left 64, plot top 64,
// bottom 304. "gmean" (5 * 6.6 = 33 px <= 40) is not rotated. The gmean group is group 3:
// 64 + 3 * 44 = 196 (the dashed separator), bars at 202 (s1: 4 -> height 120, y 184) and 218
// (s2: 1 -> height 30, y 274). The reference line at 1 is at y 274.
TEST(SvgChart, GeomeanGroupAndReferenceLine) {
    BarChart c;
    c.title = "norm";
    c.yLabel = "IPC / IPC of s2";
    c.categories = {"a", "b", "c"};
    c.series = {{"s1", {2.0, 8.0, std::nullopt}}, {"s2", {1.0, 1.0, 1.0}}};
    c.geomeanGroup = true;
    c.referenceLine = 1.0;
    const std::string svg = renderSvg(c);
    EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
    EXPECT_TRUE(has(svg, "<rect class=\"bar\" x=\"202\" y=\"184\" width=\"16\" height=\"120\"")) << svg;
    EXPECT_TRUE(has(svg, "<title>s1, gmean: 4</title>")) << svg;
    EXPECT_TRUE(has(svg, "<rect class=\"bar\" x=\"218\" y=\"274\" width=\"16\" height=\"30\"")) << svg;
    EXPECT_TRUE(has(svg, "<line class=\"separator\" x1=\"196\" y1=\"64\" x2=\"196\" y2=\"304\"")) << svg;
    EXPECT_TRUE(has(svg, "<line class=\"reference\" x1=\"64\" y1=\"274\" x2=\"240\" y2=\"274\"")) << svg;
    EXPECT_TRUE(has(svg, ">gmean</text>"));
    EXPECT_EQ(count(svg, "<rect class=\"bar\""), 7u);  // s1: a, b, gmean; s2: a, b, c, gmean
}

TEST(SvgChart, GeometricMean) {
    EXPECT_DOUBLE_EQ(geometricMean({1, 2, 4}), 2.0);    // cube root of 8
    EXPECT_DOUBLE_EQ(geometricMean({2, 8}), 4.0);       // sqrt(16)
    EXPECT_NEAR(geometricMean({0.5, 2, 3}), std::cbrt(3.0), 1e-12);
    EXPECT_DOUBLE_EQ(geometricMean({7}), 7.0);
    EXPECT_THROW(geometricMean({}), std::invalid_argument);
    EXPECT_THROW(geometricMean({1, 0}), std::invalid_argument);
    EXPECT_THROW(geometricMean({1, -2}), std::invalid_argument);
    EXPECT_THROW(geometricMean({1, std::nan("")}), std::invalid_argument);
    EXPECT_DOUBLE_EQ(*geomeanOfPresent({2.0, std::nullopt, 8.0}), 4.0);
    EXPECT_FALSE(geomeanOfPresent({std::nullopt}).has_value());
    EXPECT_FALSE(geomeanOfPresent({}).has_value());
    EXPECT_FALSE(geomeanOfPresent({2.0, 0.0}).has_value());  // undefined, not silently skipped
}

TEST(SvgChart, NiceTicks) {
    // raw step 0.4 -> 0.5 (0.1, 0.2, 0.25 give 20, 10, 8 intervals > 5)
    Axis a = niceAxis(0, 2);
    EXPECT_DOUBLE_EQ(a.step, 0.5);
    EXPECT_DOUBLE_EQ(a.hi, 2.0);
    EXPECT_EQ(tickLabels(a), (std::vector<std::string>{"0", "0.5", "1.0", "1.5", "2.0"}));
    // raw 1.46 -> 1 would need 8 intervals, 2 needs ceil(3.65) = 4: [0, 8]
    a = niceAxis(0, 7.3);
    EXPECT_DOUBLE_EQ(a.step, 2);
    EXPECT_DOUBLE_EQ(a.hi, 8);
    EXPECT_EQ(a.ticks.size(), 5u);
    // raw 0.274: 0.25 needs ceil(5.48) = 6 intervals, 0.5 needs 3: [0, 1.5]
    a = niceAxis(0, 1.37);
    EXPECT_DOUBLE_EQ(a.step, 0.5);
    EXPECT_DOUBLE_EQ(a.hi, 1.5);
    // raw 0.05 -> 0.05 exactly fits in 5: labels with two decimals
    EXPECT_EQ(tickLabels(niceAxis(0, 0.25)), (std::vector<std::string>{"0", "0.05", "0.10", "0.15", "0.20", "0.25"}));
    // negative part rounded outwards: raw 0.3 -> 0.5 from floor(-0.6) = -1 to ceil(2.4) = 3
    a = niceAxis(-0.3, 1.2);
    EXPECT_DOUBLE_EQ(a.lo, -0.5);
    EXPECT_DOUBLE_EQ(a.hi, 1.5);
    EXPECT_EQ(tickLabels(a).front(), "-0.5");
    // empty range -> [0, 1] by 0.2
    a = niceAxis(0, 0);
    EXPECT_DOUBLE_EQ(a.hi, 1);
    EXPECT_DOUBLE_EQ(a.step, 0.2);
    // large counts in k and M: raw 8600 -> 10000; raw 5e5 -> 5e5
    EXPECT_EQ(tickLabels(niceAxis(0, 43000)), (std::vector<std::string>{"0", "10k", "20k", "30k", "40k", "50k"}));
    EXPECT_EQ(tickLabels(niceAxis(0, 2.5e6)), (std::vector<std::string>{"0", "0.5M", "1.0M", "1.5M", "2.0M", "2.5M"}));
    // tick spacing never exceeds five intervals over many ranges
    for (double hi : {0.013, 0.9, 3.3, 17.0, 99.0, 101.0, 12345.0, 9.9e8}) {
        const Axis x = niceAxis(0, hi);
        EXPECT_LE(x.ticks.size(), 6u) << hi;
        EXPECT_GE(x.hi, hi) << hi;
        EXPECT_LT(x.hi - x.step, hi) << hi;  // no empty interval at the top
    }
}

TEST(SvgChart, EscapesMarkupCharacters) {
    EXPECT_EQ(escapeXml("<&\"'>"), "&lt;&amp;&quot;&#39;&gt;");
    BarChart c;
    c.title = "a<b & \"c\"";
    c.yLabel = "x<y";
    c.categories = {"w&1", "<script>"};
    c.series = {{"<s>", {1.0, 2.0}}};
    const std::string svg = renderSvg(c);
    EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
    EXPECT_TRUE(has(svg, "a&lt;b &amp; &quot;c&quot;"));
    EXPECT_TRUE(has(svg, ">w&amp;1</text>"));
    EXPECT_TRUE(has(svg, "&lt;script&gt;"));
    EXPECT_FALSE(has(svg, "<script>"));
    EXPECT_FALSE(has(svg, "<s>"));
    StackedBarChart s;
    s.title = "\"q\"";
    s.bars = {"a&b / c<d"};
    s.layers = {{"L'1", {1.0}}};
    const std::string svg2 = renderSvg(s);
    EXPECT_EQ(xmlWellFormedError(svg2), "") << svg2;
    EXPECT_TRUE(has(svg2, "a&amp;b / c&lt;d"));
    EXPECT_TRUE(has(svg2, "L&#39;1"));
}

TEST(SvgChart, LongLabelsAreRotatedAndCut) {
    BarChart c;
    c.title = "t";
    c.categories = {"vectoradd:n=1024", "trace:/a/very/long/path/to/some/trace/directory"};
    c.series = {{"gto", {1.0, 1.0}}, {"lrr", {1.0, 1.0}}};
    const std::string svg = renderSvg(c);
    EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
    EXPECT_EQ(count(svg, "text-anchor=\"end\" transform=\"rotate(-45"), 2u) << svg;
    // 31 characters and an ellipsis; the full text as the label's tooltip.
    EXPECT_TRUE(has(svg, "<title>trace:/a/very/long/path/to/some/trace/directory</title>trace:/a/very/long/path/to/some\xE2\x80\xA6</text>"))
        << svg;
    // Rotated labels hang to the left of their slot's centre by width * cos 45: they must start 6 px
    // inside the picture. The second (32 chars, 211.2 px) reaches 149.34 px left of its centre,
    // 1.5 groups (66 px) from the plot's edge: left = 149.34 + 6 - 66 = 89.34 (the first needs
    // 74.67 + 6 - 22 = 58.67, and the ticks 64). Its first label's centre: 89.34 + 22 = 111.34; the
    // labels hang from 10 px under the plot (304 + 10).
    EXPECT_TRUE(has(svg, "<text class=\"category\" x=\"111.34\" y=\"314\"")) << svg;
}

// Bars p, q, r; layers L1 = {1, 2, -}, L2 = {3, 1, -}. Stacks 4 and 3 -> axis [0, 4] by 1 (0.5
// would need 8 intervals), 60 px per unit, left 64, plot top 64, bottom 304, slots 30 wide with
// the bar 4 px in: p at 68, q at 98. p: L1 0..1 -> y 244 h 60; L2 1..4 -> y 64 h 180.
// q: L1 0..2 -> y 184 h 120; L2 2..3 -> y 124 h 60. r has no value at all: a cross, no segment.
TEST(SvgChart, StackedBarsMatchHandLayout) {
    StackedBarChart c;
    c.title = "stalls";
    c.yLabel = "cycles";
    c.bars = {"p", "q", "r"};
    c.layers = {{"L1", {1.0, 2.0, std::nullopt}}, {"L2", {3.0, 1.0, std::nullopt}}};
    const std::string svg = renderSvg(c);
    EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
    EXPECT_TRUE(has(svg, "<rect class=\"segment\" x=\"68\" y=\"244\" width=\"22\" height=\"60\" fill=\"#0072B2\"")) << svg;
    EXPECT_TRUE(has(svg, "<rect class=\"segment\" x=\"68\" y=\"64\" width=\"22\" height=\"180\" fill=\"#E69F00\"")) << svg;
    EXPECT_TRUE(has(svg, "<rect class=\"segment\" x=\"98\" y=\"184\" width=\"22\" height=\"120\" fill=\"#0072B2\"")) << svg;
    EXPECT_TRUE(has(svg, "<rect class=\"segment\" x=\"98\" y=\"124\" width=\"22\" height=\"60\" fill=\"#E69F00\"")) << svg;
    EXPECT_EQ(count(svg, "<rect class=\"segment\""), 4u);
    EXPECT_TRUE(has(svg, "<text class=\"missing\" x=\"139\" y=\"301\"")) << svg;  // r: 124 + 4 + 11
    EXPECT_TRUE(has(svg, "<title>q: L2 1</title>"));
}

// Scatter points a (0, 0), b (4, 2), c (1, 0.5), separate axes. x: [0, 4] by 1 (raw 0.8; 0.5 would
// need 8 intervals); y: [0, 2] by 0.5 (as in the grouped bars above), widest tick label "1.0" ->
// left 64. Plot top 36 + 10 = 46, a 300 px square: bottom 346, right edge 364; 75 px per x unit,
// 150 px per y unit. c: (64 + 75, 346 - 75) = (139, 271), its label 5 px right and up: (144, 266).
// b: (364, 46). Width 64 + 300 + 20 = 384 (b's label needs 364 + 5 + 5.4 + 4); height 346 + 44.
TEST(SvgChart, ScatterLinearPositionsMatchHandLayout) {
    ScatterChart c;
    c.title = "lin";
    c.xLabel = "reference";
    c.yLabel = "ours";
    c.points = {{"a", 0, 0}, {"b", 4, 2}, {"c", 1, 0.5}};
    const std::string svg = renderSvg(c);
    EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
    EXPECT_EQ(svg.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"384\" height=\"390\"", 0), 0u) << svg;
    EXPECT_TRUE(has(svg, "<circle class=\"point\" cx=\"139\" cy=\"271\" r=\"3\" fill=\"#0072B2\"><title>c: x=1, y=0.5</title>"))
        << svg;
    EXPECT_TRUE(has(svg, "<text class=\"point-label\" x=\"144\" y=\"266\" font-size=\"9\">c</text>")) << svg;
    EXPECT_TRUE(has(svg, "<circle class=\"point\" cx=\"364\" cy=\"46\"")) << svg;
    EXPECT_TRUE(has(svg, "<circle class=\"point\" cx=\"64\" cy=\"346\"")) << svg;
    EXPECT_EQ(count(svg, "<circle class=\"point\""), 3u);
    // x tick 2 at 64 + 150, y tick 1.0 at 346 - 150; the labels centred under and left of the plot.
    EXPECT_TRUE(has(svg, "<text class=\"x-tick\" x=\"214\" y=\"362\" text-anchor=\"middle\">2</text>")) << svg;
    EXPECT_TRUE(has(svg, "<text class=\"tick\" x=\"58\" y=\"200\" text-anchor=\"end\">1.0</text>")) << svg;
    EXPECT_TRUE(has(svg, "<text class=\"x-label\" x=\"214\" y=\"380\" text-anchor=\"middle\">reference</text>")) << svg;
    EXPECT_TRUE(has(svg, "<text class=\"y-label\" x=\"14\" y=\"196\" text-anchor=\"middle\" transform=\"rotate(-90 14 196)\">ours</text>"))
        << svg;
    EXPECT_FALSE(has(svg, "class=\"identity\""));
    EXPECT_FALSE(has(svg, "no data"));
}

// Log-log, separate axes: x 1, 10, 100 -> decades 0..2, 150 px each; y 0.1, 0.5, 10 -> decades
// -1..1, 150 px each. Left 64 ("0.1"), plot 46..346. x = 10 is the middle: 64 + 150 = 214. y = 0.5
// is log10 0.5 + 1 = 0.69897 decades up: 346 - 104.8455 = 241.15.
TEST(SvgChart, ScatterLogPositionsMatchHandLayout) {
    ScatterChart c;
    c.title = "log";
    c.logScale = true;
    c.points = {{"lo", 1, 0.1}, {"m", 10, 0.5}, {"hi", 100, 10}};
    const std::string svg = renderSvg(c);
    EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
    EXPECT_TRUE(has(svg, "<circle class=\"point\" cx=\"214\" cy=\"241.15\" r=\"3\" fill=\"#0072B2\"><title>m: x=10, y=0.5</title>"))
        << svg;
    EXPECT_TRUE(has(svg, "<circle class=\"point\" cx=\"64\" cy=\"346\"")) << svg;
    EXPECT_TRUE(has(svg, "<circle class=\"point\" cx=\"364\" cy=\"46\"")) << svg;
    EXPECT_TRUE(has(svg, "<text class=\"x-tick\" x=\"214\" y=\"362\" text-anchor=\"middle\">10</text>")) << svg;
    EXPECT_TRUE(has(svg, "<text class=\"tick\" x=\"58\" y=\"200\" text-anchor=\"end\">1</text>")) << svg;  // y 1 mid-height
    EXPECT_TRUE(has(svg, "<text class=\"tick\" x=\"58\" y=\"350\" text-anchor=\"end\">0.1</text>")) << svg;
    EXPECT_EQ(count(svg, "class=\"x-tick\""), 3u);
    EXPECT_EQ(count(svg, "class=\"tick\""), 3u);
}

// Points 0.01 and 5000 with identityLine: both axes decades -2..4 (log10 5000 = 3.7 rounds up),
// 50 px each. Widest tick label 4 characters ("0.01", "1000"): 30 + 26.4 + 8 -> left 64.4, so the
// plot spans x 64.4..364.4, y 346..46. Band y = 2x is y = x shifted up by log10 2 = 0.30103 decades
// (15.05 px): it enters at the left edge at y 346 - 15.05 = 330.95 and leaves at the top at x
// 364.4 - 15.05 = 349.35; y = 0.5x enters at the bottom at x 79.45, leaves the right edge at 61.05.
TEST(SvgChart, ScatterLogDecadeTicksIdentityAndBands) {
    ScatterChart c;
    c.title = "decades";
    c.logScale = true;
    c.identityLine = true;
    c.bandFactors = {2, 0.5};
    c.points = {{"p", 0.01, 0.02}, {"q", 5000, 300}};
    const std::string svg = renderSvg(c);
    EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
    const std::vector<std::string> labels = {"0.01", "0.1", "1", "10", "100", "1000", "10k"};
    for (size_t k = 0; k < labels.size(); ++k) {
        const std::string x = std::to_string(64 + 50 * k) + ".4", y = std::to_string(350 - 50 * k);
        EXPECT_TRUE(has(svg, "<text class=\"x-tick\" x=\"" + x + "\" y=\"362\" text-anchor=\"middle\">" + labels[k] + "</text>"))
            << labels[k] << "\n" << svg;
        EXPECT_TRUE(has(svg, "<text class=\"tick\" x=\"58.4\" y=\"" + y + "\" text-anchor=\"end\">" + labels[k] + "</text>"))
            << labels[k] << "\n" << svg;
    }
    EXPECT_EQ(count(svg, "class=\"x-tick\""), 7u);
    EXPECT_TRUE(has(svg, "<line class=\"identity\" x1=\"64.4\" y1=\"346\" x2=\"364.4\" y2=\"46\"")) << svg;
    EXPECT_TRUE(has(svg, "<line class=\"band\" x1=\"64.4\" y1=\"330.95\" x2=\"349.35\" y2=\"46\"")) << svg;
    EXPECT_TRUE(has(svg, "<line class=\"band\" x1=\"79.45\" y1=\"346\" x2=\"364.4\" y2=\"61.05\"")) << svg;
    EXPECT_TRUE(has(svg, "<title>y = 0.5 x</title>"));
}

// a (1, 3), b (4, 2), identityLine: one axis [1, 4] by 1 for both (0.5 would need 6 intervals),
// 100 px per unit, left 64, plot 46..346. y = x: corner to corner. y = 2x: from (1, 2) at the left
// edge (y 246) to (2, 4) at the top (x 164); y = 0.5x: from (2, 1) at the bottom to (4, 2) at the
// right edge.
TEST(SvgChart, ScatterIdentityLineSharesTheRange) {
    ScatterChart c;
    c.points = {{"a", 1, 3}, {"b", 4, 2}};
    c.identityLine = true;
    c.bandFactors = {2, 0.5};
    std::string svg = renderSvg(c);
    EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
    EXPECT_TRUE(has(svg, "<line class=\"identity\" x1=\"64\" y1=\"346\" x2=\"364\" y2=\"46\"")) << svg;
    EXPECT_TRUE(has(svg, "<line class=\"band\" x1=\"64\" y1=\"246\" x2=\"164\" y2=\"46\"")) << svg;
    EXPECT_TRUE(has(svg, "<line class=\"band\" x1=\"164\" y1=\"346\" x2=\"364\" y2=\"246\"")) << svg;
    EXPECT_TRUE(has(svg, "stroke-dasharray=\"5 3\"><title>y = 2 x</title>")) << svg;
    EXPECT_TRUE(has(svg, "<circle class=\"point\" cx=\"64\" cy=\"146\"")) << svg;  // a: x 1 on the left edge, y 3
    EXPECT_TRUE(has(svg, "<text class=\"x-tick\" x=\"64\" y=\"362\" text-anchor=\"middle\">1</text>")) << svg;
    EXPECT_TRUE(has(svg, "<text class=\"tick\" x=\"58\" y=\"350\" text-anchor=\"end\">1</text>")) << svg;
    // Without identityLine the axes are separate (y: [2, 3]) and no line is drawn, bands neither.
    c.identityLine = false;
    svg = renderSvg(c);
    EXPECT_FALSE(has(svg, "class=\"identity\""));
    EXPECT_FALSE(has(svg, "class=\"band\""));
    EXPECT_TRUE(has(svg, "<circle class=\"point\" cx=\"64\" cy=\"46\"")) << svg;
}

TEST(SvgChart, ScatterRejectsUnplaceablePoints) {
    ScatterChart c;
    c.logScale = true;
    c.points = {{"ok", 1, 1}, {"zero-run", 0, 2}};
    try {
        renderSvg(c);
        ADD_FAILURE() << "no exception for log10 of 0";
    } catch (const std::invalid_argument& e) {
        EXPECT_TRUE(has(e.what(), "'zero-run'")) << e.what();
    }
    c.points = {{"neg", 1, -2}};
    EXPECT_THROW(renderSvg(c), std::invalid_argument);
    c.points = {{"nan", std::nan(""), 1}};
    EXPECT_THROW(renderSvg(c), std::invalid_argument);
    c.logScale = false;
    EXPECT_THROW(renderSvg(c), std::invalid_argument);  // not finite: nowhere to draw it
    c.points = {{"zero", 0, -2}};
    EXPECT_EQ(xmlWellFormedError(renderSvg(c)), "");  // fine on a linear scale
    c.identityLine = true;
    c.bandFactors = {0};
    EXPECT_THROW(renderSvg(c), std::invalid_argument);
}

TEST(SvgChart, ScatterEscapesLabels) {
    ScatterChart c;
    c.title = "ours & \"theirs\"";
    c.xLabel = "IPC <ref>";
    c.yLabel = "IPC 'ours'";
    c.points = {{"a<b", 1, 2}};
    const std::string svg = renderSvg(c);
    EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
    EXPECT_TRUE(has(svg, "<title>a&lt;b: x=1, y=2</title>")) << svg;
    EXPECT_TRUE(has(svg, ">a&lt;b</text>")) << svg;
    EXPECT_TRUE(has(svg, ">IPC &lt;ref&gt;</text>")) << svg;
    EXPECT_TRUE(has(svg, ">IPC &#39;ours&#39;</text>")) << svg;
    EXPECT_TRUE(has(svg, "ours &amp; &quot;theirs&quot;")) << svg;
    EXPECT_FALSE(has(svg, "a<b"));
}

TEST(SvgChart, EmptyScatterChartsHaveDefaultAxes) {
    ScatterChart c;
    std::string svg = renderSvg(c);
    EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
    EXPECT_TRUE(has(svg, "no data"));
    EXPECT_TRUE(has(svg, "text-anchor=\"middle\">0</text>")) << svg;  // [0, 1] by 0.2
    EXPECT_TRUE(has(svg, "text-anchor=\"middle\">1.0</text>")) << svg;
    c.logScale = true;
    c.identityLine = true;
    c.bandFactors = {0.65, 1.35};
    svg = renderSvg(c);
    EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
    EXPECT_EQ(count(svg, "class=\"x-tick\""), 2u);  // 1 and 10
    EXPECT_TRUE(has(svg, "text-anchor=\"middle\">10</text>")) << svg;
    EXPECT_EQ(count(svg, "<circle"), 0u);
}

TEST(SvgChart, PaletteIsFixedAndRepeatsAfterEight) {
    ASSERT_EQ(palette().size(), 8u);
    for (size_t i = 0; i < 8; ++i)
        for (size_t j = i + 1; j < 8; ++j) EXPECT_NE(palette()[i], palette()[j]);
    BarChart c;
    c.categories = {"a"};
    for (int i = 0; i < 9; ++i) c.series.push_back({"s" + std::to_string(i), {1.0}});
    const std::string svg = renderSvg(c);
    EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
    EXPECT_EQ(count(svg, "fill=\"" + palette()[0] + "\""), 4u);  // swatches and bars of s0 and s8
}

TEST(SvgChart, EmptyChartsAreWellFormed) {
    for (const std::string& svg : {renderSvg(BarChart{}), renderSvg(StackedBarChart{})}) {
        EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
        EXPECT_TRUE(has(svg, "no data"));
    }
    BarChart allMissing;
    allMissing.categories = {"a"};
    allMissing.series = {{"s", {std::nullopt}}};
    allMissing.geomeanGroup = true;
    const std::string svg = renderSvg(allMissing);
    EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
    EXPECT_EQ(count(svg, "<rect class=\"bar\""), 0u);
    EXPECT_EQ(count(svg, "<text class=\"missing\""), 2u);  // a and the gmean group
}

// The grouped bars' data (categories a, b; s1 = {1, 2}, s2 = {0.5, -}) with a mark at 3 on s2/a,
// and one whose category does not exist (dropped). Axis [0, 3] (marks count): raw step 0.6 -> 1
// (0.25 needs 12, 0.5 six intervals), 80 px per unit, plot 64 .. 304. The mark's centre: group 0
// at 64, s2's bar at 64 + 6 + 16 = 86, its centre 94; y 304 - 3 * 80 = 64: a diamond of radius 4.
// Legend s1 (x 64, 12 + 4 + 6.6 * 2 = 29.2 wide, then 14), s2 (107.2), "paper" (150.4): its
// diamond centred in the 12 px swatch, (156.4, 42).
TEST(SvgChart, ReferenceMarksSitOnTheirBarAndInTheLegend) {
    BarChart c;
    c.title = "t";
    c.categories = {"a", "b"};
    c.series = {{"s1", {1.0, 2.0}}, {"s2", {0.5, std::nullopt}}};
    c.marks = {{0, 1, 3.0}, {7, 0, 1.0}};
    c.marksName = "paper";
    const std::string svg = renderSvg(c);
    EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
    EXPECT_TRUE(has(svg, "<path class=\"mark\" d=\"M94 60L98 64L94 68L90 64Z\"")) << svg;
    EXPECT_TRUE(has(svg, "<title>paper, s2, a: 3</title>"));
    EXPECT_EQ(count(svg, "<path class=\"mark\""), 1u) << "the mark of a missing category is dropped";
    EXPECT_TRUE(has(svg, "<path class=\"mark-swatch\" d=\"M156.4 38L160.4 42L156.4 46L152.4 42Z\"")) << svg;
    EXPECT_TRUE(has(svg, ">paper</text>"));
    EXPECT_TRUE(has(svg, "<text class=\"tick\" x=\"58\" y=\"68\" text-anchor=\"end\">3</text>")) << svg;
    c.marks.clear();
    EXPECT_FALSE(has(renderSvg(c), "mark")) << "no marks, no legend entry";
}

// 20 workloads x 5 series = 100 stacked bars, grouped by workload. The slots shrink to fit 1,100
// px with the 19 gaps of 8 px between groups: (1100 - 152) / 100 = 9.48 px a slot, the bar
// 9.48 * 22 / 30 = 6.952 px, 1.264 px in from the slot's edge. Plot width 948 + 152 = 1,100;
// left 64 (the rotated group labels, 11 chars = 72.6 px, hang 72.6 * 0.707 + 6 - 23.7 = 33.6
// px left of their group's centre 23.7 px in): picture 64 + 1100 + 20 = 1,184 px wide, where one
// 30 px slot a bar would be 3,084. Group 1 starts at 64 + 5 * 9.48 + 8 = 119.4, its bar at 120.66.
TEST(SvgChart, HundredStackedBarsStayWithinBoundedWidth) {
    StackedBarChart c;
    c.title = "stalls";
    c.layers = {{"L1", {}}, {"L2", {}}};
    for (int w = 0; w < 20; ++w)
        for (int s = 0; s < 5; ++s) {
            c.groups.push_back("workload-" + std::string(w < 10 ? "0" : "") + std::to_string(w));
            c.bars.push_back("series" + std::to_string(s));
            c.layers[0].values.push_back(1.0);
            c.layers[1].values.push_back(0.5);
        }
    const StackSlot slot = stackSlot(c);
    EXPECT_NEAR(slot.width, 9.48, 1e-9);
    EXPECT_NEAR(slot.bar, 6.952, 1e-9);
    const std::string svg = renderSvg(c);
    EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
    EXPECT_TRUE(has(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1184\"")) << svg.substr(0, 200);
    EXPECT_TRUE(has(svg, "<rect class=\"segment\" x=\"65.26\"")) << svg;
    EXPECT_TRUE(has(svg, "<rect class=\"segment\" x=\"120.66\""));
    EXPECT_EQ(count(svg, "<text class=\"category\""), 20u) << "each workload named once";
    EXPECT_EQ(count(svg, "<text class=\"bar-label\""), 100u) << "each bar names its series";
    EXPECT_TRUE(has(svg, "<title>workload-03 / series2: L2 0.5</title>"));
    // A few bars keep the full 30 px slot.
    c.groups.resize(3);
    c.bars.resize(3);
    EXPECT_EQ(stackSlot(c).width, layout::kStackWidth + layout::kStackGap);
}

// Three points as close as the correlation chart's atax, bicg and mvt, labels 20 px wide
// (font 9: a box 9 px tall from 7.2 px above the baseline; circles are 6 px boxes):
//   p0 (100, 100): right-above, text at (105, 95), box y 87.8..96.8, would cover p2's circle
//      (x 101..107, y 96..102); left-above instead: text at 100 - 5 - 20 = 75.
//   p1 (102, 101): right-above, text at (107, 96), box 107..127 x 88.8..97.8: free.
//   p2 (104, 99): right-above (109, 94) overlaps p1's label, left-above (79, 94) p0's; one line
//      (10 px) up on the right, (109, 84), box y 76.8..85.8, is free: no leader (one line only).
TEST(SvgChart, ScatterLabelsOfClosePointsDoNotOverlap) {
    const std::vector<PlacedLabel> l = placePointLabels({{100, 100, 20}, {102, 101, 20}, {104, 99, 20}}, 64);
    ASSERT_EQ(l.size(), 3u);
    EXPECT_DOUBLE_EQ(l[0].textX, 75);
    EXPECT_DOUBLE_EQ(l[0].textY, 95);
    EXPECT_DOUBLE_EQ(l[1].textX, 107);
    EXPECT_DOUBLE_EQ(l[1].textY, 96);
    EXPECT_DOUBLE_EQ(l[2].textX, 109);
    EXPECT_DOUBLE_EQ(l[2].textY, 84);
    for (const auto& x : l) EXPECT_FALSE(x.leader);

    // Twelve points on top of each other: every label finds a free place, none overlaps another
    // or a point, and those moved more than a line have a leader.
    std::vector<LabelPoint> pile;
    for (int i = 0; i < 12; ++i) pile.push_back({200.0 + (i % 3), 150.0 + (i % 2), 30});
    const auto placed = placePointLabels(pile, 64);
    const auto overlaps = [](const LabelBox& a, const LabelBox& b) {
        return std::min(a.x + a.w, b.x + b.w) > std::max(a.x, b.x) && std::min(a.y + a.h, b.y + b.h) > std::max(a.y, b.y);
    };
    size_t leaders = 0;
    for (size_t i = 0; i < placed.size(); ++i) {
        leaders += placed[i].leader;
        for (size_t j = 0; j < i; ++j) EXPECT_FALSE(overlaps(placed[i].box, placed[j].box)) << i << " and " << j;
        for (const auto& p : pile) EXPECT_FALSE(overlaps(placed[i].box, {p.cx - 3, p.cy - 3, 6, 6})) << i;
        EXPECT_GE(placed[i].box.x, 64);
    }
    EXPECT_GT(leaders, 0u);
    ScatterChart sc;
    sc.title = "s";
    for (int i = 0; i < 12; ++i) sc.points.push_back({"p" + std::to_string(i), 1.0, 1.0});  // one spot
    sc.points.push_back({"far", 2.0, 2.0});
    const std::string svg = renderSvg(sc);
    EXPECT_EQ(xmlWellFormedError(svg), "") << svg;
    EXPECT_GT(count(svg, "<line class=\"leader\""), 0u);
}

TEST(SvgChart, WellFormednessCheckerRejectsBrokenXml) {
    // The check the tests above rely on must be able to fail.
    EXPECT_NE(xmlWellFormedError("<svg><g></svg>"), "");
    EXPECT_NE(xmlWellFormedError("<svg a=\"1\" a=\"2\"/>"), "");
    EXPECT_NE(xmlWellFormedError("<svg>a & b</svg>"), "");
    EXPECT_NE(xmlWellFormedError("<svg x=\"<\"/>"), "");
    EXPECT_NE(xmlWellFormedError("<svg/><svg/>"), "");
    EXPECT_NE(xmlWellFormedError("<svg x=1/>"), "");
    EXPECT_EQ(xmlWellFormedError("<svg a=\"1\"><t>x &amp; &#215;</t><!-- c --></svg>\n"), "");
}

} // namespace svg_chart_test
