#pragma once
// Line charts as standalone SVG documents, for values over time (a run's time series): one
// polyline per series over shared x values, a gap where a value is missing (nullopt: nothing is
// drawn there, so a gap is never mistaken for a zero), a legend above the plot, nice ticks on both
// axes (chart::niceAxis), grid lines, the Okabe-Ito colours of SvgChart.hpp in order. The y axis
// includes 0. Pure rendering, as SvgChart.
//
// Layout (pixels): the plot is kLineWidth x chart::layout::kPlotHeight, starting kMinLeft from the
// left and kLegendTop + legend rows x kLegendRow + kPlotGap from the top; x ticks 16 px under it.
// Left out: markers, log scales, a second y axis, labels that avoid each other.
#include <optional>
#include <string>
#include <vector>

#include "experiments/SvgChart.hpp"

namespace gpusim::chart {

struct LineChart {
    std::string title, xLabel, yLabel;
    std::vector<double> x;      // ascending
    std::vector<Series> lines;  // values per x
};

namespace layout {
constexpr double kLineWidth = 640;
}

std::string renderSvg(const LineChart&);

} // namespace gpusim::chart
