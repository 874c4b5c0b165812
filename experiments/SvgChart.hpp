#pragma once
// Bar charts and scatter plots as standalone SVG documents: grouped bars (categories x series,
// optionally with a geometric-mean group, a horizontal reference line and reference values
// marked on single bars), stacked bars (one bar per entry, layers stacked from zero, optionally
// grouped under a shared label, narrowed to a bounded width) and scatter plots (labelled points, optionally log-log and
// with a y = x line and bands around it, for "ours vs reference"). Pure rendering: no gpusim
// dependency, no state, safe to call from several threads at once. `gpusim report` and
// `gpusim validate` draw with it.
//
// What it draws: a title, a legend (flowing left to right above the plot, wrapping), a y axis
// with "nice" ticks (steps of 1, 2, 2.5 or 5 x 10^k; k/M/G suffixes from 10^4 up) and grid
// lines, category labels under the plot (rotated 45 degrees when one would not fit its slot,
// cut to 32 characters with the full text in a tooltip), a tooltip (<title>) on every bar. A
// missing value (nullopt) draws no bar, only a small grey cross on the zero line, so it is
// never mistaken for a zero. Colours come from the Okabe-Ito colour-blind-safe palette, in
// order, repeating after eight series. Every text is XML-escaped.
// A scatter plot has no legend: a square plot with grid lines and ticks on both axes (nice ticks
// as above, or on a log scale one tick per decade, labelled 0.01, 0.1, 1, 10, 100, 1000, 10k), the
// x label under it, the y label rotated on the left, and each point as a small circle with its
// label next to it and a tooltip "label: x=..., y=...". With identityLine both axes get the same
// range, so y = x is the diagonal; the band lines y = f * x are dashed. The axes cover the points
// only (a linear axis does not stretch to 0). A point that cannot be placed (not finite, or not
// positive on a log scale) and a band factor that is not positive throw std::invalid_argument.
//
// Left out: text is not measured (no font metrics); widths are estimated at 0.6 em per
// character, which holds for DejaVu Sans/Arial-like fonts and is what the margins are made from.
// No log scale for bars, no horizontal bars, no error bars. Scatter point labels are placed
// around each other greedily (placePointLabels), not optimally: in a cluster denser than eight
// lines above and below a point, labels may still overlap (the tooltips stay readable); all
// points share one colour (no series, no legend).
// Why not matplotlib (a dependency of the Python module): these charts are written by `gpusim
// validate`, `correlate` and `report`, which need no Python to run, give the same bytes on every
// machine (matplotlib's SVG output changes between versions), and their tests check positions
// computed by hand; label placement, the one thing matplotlib would have drawn better (with
// adjustText), is done here instead.
//
// Layout (pixels, for the tests' hand-computed positions): the plot is kPlotHeight tall and
// starts kLegendTop + rows * kLegendRow + kPlotGap from the top (rows: legend rows, none without
// series); its left edge is max(kMinLeft, what the tick labels and the first rotated label
// need). Grouped bars: a group is series * kBarWidth + kGroupGap wide, its bars start
// kGroupGap / 2 into it. Stacked bars: each slot is kStackWidth + kStackGap, the bar starts
// kStackGap / 2 into it (narrower when many bars: stackSlot). With groups, each group's slots are
// followed by kStackGroupGap; upright bar labels hang 4 px under the plot and the group labels
// sit under the longest of them. The y axis always includes 0 (and the reference line).
// Scatter: the plot is a kScatterSide square starting kLegendTop + kPlotGap from the top, its
// left edge max(kMinLeft, what the y tick labels need); the x tick labels sit 16 px under it, the
// x label 34 px, the picture ends 44 px under it and kRight right of it (or further, for the
// title and the labels of points at the right edge). A point's label starts kPointLabelGap right
// of and above its centre. An empty scatter plot gets the axis [0, 1], or 1 to 10 on a log scale.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gpusim::chart {

struct Series {
    std::string name;
    std::vector<std::optional<double>> values;  // one per category
};

// A reference value drawn on one bar (a paper's figure for it): a diamond at its height, centred
// on the bar, with a tooltip; the legend names them all once (marksName).
struct ReferenceMark {
    size_t category = 0, series = 0;  // the bar: category index (the gmean group is categories.size())
    double value = 0;
};

struct BarChart {
    std::string title, yLabel;
    std::vector<ReferenceMark> marks;       // drawn over the bars; the y axis covers them
    std::string marksName = "reference";
    std::vector<std::string> categories;  // x groups (workloads), in order
    std::vector<Series> series;           // bars within a group (schedulers)
    bool geomeanGroup = false;            // append a "gmean" group computed from the values
    std::optional<double> referenceLine;  // e.g. 1.0 for normalised charts
};

struct StackedBarChart {
    std::string title, yLabel;
    std::vector<std::string> bars;  // one stacked bar per entry ("atax / gto", or "gto" with groups)
    std::vector<Series> layers;     // stacked components, values per bar
    // Empty, or one name per bar: consecutive bars with the same name form a group (the workload,
    // the bars naming the series), named once under its bars; the bars' names are drawn small and
    // upright, and groups are kStackGroupGap apart.
    std::vector<std::string> groups;
};

struct ScatterPoint {
    std::string label;
    double x = 0, y = 0;
};

struct ScatterChart {
    std::string title, xLabel, yLabel;
    std::vector<ScatterPoint> points;
    bool logScale = false;            // both axes log10 (decades), for values spanning orders of magnitude
    bool identityLine = false;        // draw y = x across the plot (for "ours vs reference")
    std::vector<double> bandFactors;  // dashed lines y = f * x (0.65 and 1.35 for +-35%), only with identityLine
};

// A complete standalone <svg ...> document (xmlns set, no XML declaration, so the same text can
// be written to a .svg file or put inline in an HTML page).
std::string renderSvg(const BarChart&);
std::string renderSvg(const StackedBarChart&);
std::string renderSvg(const ScatterChart&);

// exp(mean(log v)); throws std::invalid_argument on an empty list or a value that is not a
// positive finite number.
double geometricMean(const std::vector<double>&);

// --- helpers, public for tests and other charts ---

// The "gmean" group's value of one series: the geometric mean of its present values; nullopt
// when it has none or any present value is not positive (the mean is undefined then).
std::optional<double> geomeanOfPresent(const std::vector<std::optional<double>>& values);

// A stacked chart's slot and bar width: kStackWidth + kStackGap and kStackWidth while the bars (and
// the gaps between groups) fit kMaxStackPlotWidth, then narrower in the same proportion so that
// they do, down to a kMinStackSlot slot (beyond, the chart grows again).
struct StackSlot {
    double width, bar;
};
StackSlot stackSlot(const StackedBarChart&);

// Scatter point labels: each label (in the points' order) takes the first place that covers no
// earlier label and no point: right of and above its point (kPointLabelGap), else left of it, else
// moved up or down in steps of one line (kPointFontSize + 1), trying up before down and right
// before left, up to kMaxLabelSteps lines; a label moved more than one line gets a leader line
// to its point. Where every place collides, the one with the least overlapping area. Never left
// of minX (the plot's left edge). Boxes are the text's: from 0.8 em above the baseline, 1 em tall.
struct LabelPoint {
    double cx = 0, cy = 0, width = 0;  // the point's centre and its label's estimated width, pixels
};
struct LabelBox {
    double x = 0, y = 0, w = 0, h = 0;  // top-left corner and size
};
struct PlacedLabel {
    double textX = 0, textY = 0;  // where the <text> starts (its baseline)
    LabelBox box;
    bool leader = false;
};
std::vector<PlacedLabel> placePointLabels(const std::vector<LabelPoint>& points, double minX);

struct Axis {
    double lo = 0, hi = 1, step = 1;
    std::vector<double> ticks;  // lo, lo + step, ..., hi
};
// The smallest step of 1, 2, 2.5 or 5 x 10^k that covers [lo, hi] in at most maxIntervals
// steps, with lo and hi rounded outwards to multiples of it. An empty range becomes [lo, lo + 1].
Axis niceAxis(double lo, double hi, int maxIntervals = 5);
// Tick labels of an axis: as many decimals as the step needs; from 10^4 up in k, M or G.
std::vector<std::string> tickLabels(const Axis& axis);
// A value for a tooltip or table: up to 4 significant decimals, integers without a point.
std::string formatValue(double v);

// Text with & < > " ' replaced by entities (valid in XML and HTML text and attributes).
std::string escapeXml(std::string_view text);

// The fixed colour sequence (Okabe-Ito, yellow last for contrast on white): "#RRGGBB".
const std::vector<std::string>& palette();

namespace layout {
constexpr double kLegendTop = 36, kLegendRow = 18, kPlotGap = 10, kPlotHeight = 240;
constexpr double kMinLeft = 64, kRight = 20, kMinPlotWidth = 360;
constexpr double kBarWidth = 16, kGroupGap = 12;
constexpr double kStackWidth = 22, kStackGap = 8;
constexpr double kMaxStackPlotWidth = 1100, kMinStackSlot = 8, kStackGroupGap = 8;
constexpr double kSmallFontSize = 8;
constexpr double kMarkRadius = 4;
constexpr int kMaxLabelSteps = 8;  // a reference mark's diamond: centre to corner  // the upright bar labels of grouped stacks
constexpr double kScatterSide = 300, kPointRadius = 3, kPointLabelGap = 5, kPointFontSize = 9;
constexpr double kFontSize = 11, kTitleFontSize = 15, kCharWidth = 0.6;  // em per character
constexpr size_t kMaxLabelChars = 32;
} // namespace layout

} // namespace gpusim::chart
