#pragma once
// `gpusim report RESULTS`: the charts and HTML page of a sweep's results table
// (experiments/SweepReport.hpp) written to files: DIR/report.html, DIR/NAME.svg per chart and,
// with --png, DIR/NAME.png through rsvg-convert (Debian librsvg2-bin). RESULTS is a sweep's
// output directory or its results.json; DIR defaults to RESULTS' directory + "/report".
#include <string>
#include <vector>

namespace gpusim {

int cmdReport(const std::vector<std::string>& args);

} // namespace gpusim
