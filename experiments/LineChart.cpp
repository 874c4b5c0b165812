#include "experiments/LineChart.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace gpusim::chart {

std::string renderSvg(const LineChart& c) {
    using namespace layout;
    double xlo = c.x.empty() ? 0 : c.x.front(), xhi = c.x.empty() ? 1 : c.x.back();
    double ylo = 0, yhi = 0;
    for (const Series& s : c.lines)
        for (const auto& v : s.values)
            if (v && std::isfinite(*v)) {
                ylo = std::min(ylo, *v);
                yhi = std::max(yhi, *v);
            }
    const Axis xa = niceAxis(xlo, xhi), ya = niceAxis(ylo, yhi);
    // Legend: one row per up to four series.
    const size_t rows = c.lines.empty() ? 0 : (c.lines.size() + 3) / 4;
    const double top = kLegendTop + double(rows) * kLegendRow + kPlotGap, left = kMinLeft;
    const double width = left + kLineWidth + kRight, height = top + kPlotHeight + 44;
    auto px = [&](double v) { return left + (v - xa.lo) / (xa.hi - xa.lo) * kLineWidth; };
    auto py = [&](double v) { return top + kPlotHeight - (v - ya.lo) / (ya.hi - ya.lo) * kPlotHeight; };
    std::ostringstream o;
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << width << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << width << " " << height << "\" font-family=\"DejaVu Sans, Arial, sans-serif\" font-size=\""
      << kFontSize << "\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"" << left << "\" y=\"20\" font-size=\"" << kTitleFontSize << "\">" << escapeXml(c.title) << "</text>\n";
    for (size_t i = 0; i < c.lines.size(); ++i) {
        const double lx = left + double(i % 4) * 160, ly = kLegendTop + double(i / 4) * kLegendRow;
        const std::string& col = palette()[i % palette().size()];
        o << "<line x1=\"" << lx << "\" y1=\"" << ly - 4 << "\" x2=\"" << lx + 16 << "\" y2=\"" << ly - 4
          << "\" stroke=\"" << col << "\" stroke-width=\"2\"/><text x=\"" << lx + 20 << "\" y=\"" << ly << "\">"
          << escapeXml(c.lines[i].name) << "</text>\n";
    }
    const auto yl = tickLabels(ya), xl = tickLabels(xa);
    for (size_t i = 0; i < ya.ticks.size(); ++i) {
        const double y = py(ya.ticks[i]);
        o << "<line x1=\"" << left << "\" y1=\"" << y << "\" x2=\"" << left + kLineWidth << "\" y2=\"" << y
          << "\" stroke=\"#ddd\"/><text x=\"" << left - 4 << "\" y=\"" << y + 4 << "\" text-anchor=\"end\">" << yl[i]
          << "</text>\n";
    }
    for (size_t i = 0; i < xa.ticks.size(); ++i) {
        const double x = px(xa.ticks[i]);
        o << "<line x1=\"" << x << "\" y1=\"" << top << "\" x2=\"" << x << "\" y2=\"" << top + kPlotHeight
          << "\" stroke=\"#eee\"/><text x=\"" << x << "\" y=\"" << top + kPlotHeight + 16 << "\" text-anchor=\"middle\">"
          << xl[i] << "</text>\n";
    }
    o << "<rect x=\"" << left << "\" y=\"" << top << "\" width=\"" << kLineWidth << "\" height=\"" << kPlotHeight
      << "\" fill=\"none\" stroke=\"#888\"/>\n"
      << "<text x=\"" << left + kLineWidth / 2 << "\" y=\"" << top + kPlotHeight + 34 << "\" text-anchor=\"middle\">"
      << escapeXml(c.xLabel) << "</text>\n<text transform=\"translate(14," << top + kPlotHeight / 2
      << ") rotate(-90)\" text-anchor=\"middle\">" << escapeXml(c.yLabel) << "</text>\n";
    for (size_t i = 0; i < c.lines.size(); ++i) {
        const Series& s = c.lines[i];
        const std::string& col = palette()[i % palette().size()];
        // A run of present values is one polyline; a missing value ends it.
        std::ostringstream pts;
        size_t n = 0;
        auto flush = [&] {
            if (n > 0)
                o << "<polyline fill=\"none\" stroke=\"" << col << "\" stroke-width=\"1.5\" points=\"" << pts.str()
                  << "\"><title>" << escapeXml(s.name) << "</title></polyline>\n";
            pts.str("");
            n = 0;
        };
        for (size_t k = 0; k < c.x.size() && k < s.values.size(); ++k) {
            if (!s.values[k] || !std::isfinite(*s.values[k])) {
                flush();
                continue;
            }
            pts << (n++ ? " " : "") << px(c.x[k]) << "," << py(*s.values[k]);
        }
        flush();
    }
    o << "</svg>\n";
    return o.str();
}

} // namespace gpusim::chart
