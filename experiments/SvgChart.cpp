#include "experiments/SvgChart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace gpusim::chart {

using namespace layout;

namespace {

constexpr double kSin45 = 0.70710678118654752;

// A coordinate: at most two decimals, no trailing zeros, never "-0".
std::string num(double v) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    return s == "-0" ? "0" : s;
}

size_t charCount(std::string_view s) {
    size_t n = 0;
    for (unsigned char c : s) n += (c & 0xC0) != 0x80;  // UTF-8: count lead bytes only
    return n;
}

double textWidth(std::string_view s, double fontSize) { return double(charCount(s)) * kCharWidth * fontSize; }

// At most kMaxLabelChars characters (UTF-8 aware), the last one an ellipsis when cut.
std::string cutLabel(const std::string& s) {
    if (charCount(s) <= kMaxLabelChars) return s;
    size_t chars = 0, i = 0;
    for (; i < s.size(); ++i)
        if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80 && chars++ == kMaxLabelChars - 1) break;
    return s.substr(0, i) + "\xE2\x80\xA6";
}

bool usable(const std::optional<double>& v) { return v && std::isfinite(*v); }

// The opening of every chart: the <svg> element, its tooltip, a white background, the title.
void openSvg(std::ostringstream& o, double width, double height, const std::string& title) {
    o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << num(width) << "\" height=\"" << num(height)
      << "\" viewBox=\"0 0 " << num(width) << " " << num(height)
      << "\" font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\" font-size=\"" << num(kFontSize)
      << "\" role=\"img\">\n";
    o << "<title>" << escapeXml(title) << "</title>\n";
    o << "<rect class=\"background\" x=\"0\" y=\"0\" width=\"" << num(width) << "\" height=\"" << num(height)
      << "\" fill=\"#ffffff\"/>\n";
    o << "<text class=\"chart-title\" x=\"10\" y=\"22\" font-size=\"" << num(kTitleFontSize)
      << "\" font-weight=\"bold\">" << escapeXml(title) << "</text>\n";
}

// The y axis label, rotated, centred on the plot's height at my.
void yAxisLabel(std::ostringstream& o, const std::string& label, double my) {
    o << "<text class=\"y-label\" x=\"14\" y=\"" << num(my) << "\" text-anchor=\"middle\" transform=\"rotate(-90 14 "
      << num(my) << ")\">" << escapeXml(label) << "</text>\n";
}

// Everything around the bars: title, legend, axis, grid, labels. Built from the slot labels and
// the value range, then the chart draws its bars through x()/y().
class Frame {
public:
    // groups: empty, or one name per slot (consecutive equal names form a group, drawn once under
    // its slots, which are then labelled small and upright; groups are groupGap apart).
    Frame(std::string title, std::string yLabel, std::vector<std::string> legend, std::vector<std::string> slots,
          double slotWidth, double lo, double hi, std::optional<double> reference,
          const std::vector<std::string>& groups = {}, double groupGap = 0, bool lastLegendIsMark = false)
        : title_(std::move(title)), yLabel_(std::move(yLabel)), legend_(std::move(legend)), slots_(std::move(slots)),
          slotWidth_(slotWidth), reference_(reference), lastLegendIsMark_(lastLegendIsMark && !legend_.empty()) {
        groupOf_.assign(slots_.size(), 0);
        if (groups.size() == slots_.size() && !slots_.empty()) {
            groupGap_ = groupGap;
            for (size_t i = 0; i < slots_.size(); ++i) {
                if (i == 0 || groups[i] != groups[i - 1]) groups_.push_back({groups[i], i, 0});
                groupOf_[i] = groups_.size() - 1;
                ++groups_.back().count;
            }
        }
        lo = std::min(lo, 0.0);
        hi = std::max(hi, 0.0);
        if (reference) {
            lo = std::min(lo, *reference);
            hi = std::max(hi, *reference);
        }
        axis_ = niceAxis(lo, hi);
        labels_ = tickLabels(axis_);
        double tickW = 0;
        for (const auto& l : labels_) tickW = std::max(tickW, textWidth(l, kFontSize));
        left_ = std::max(kMinLeft, 30 + tickW + 8);
        double maxLabel = 0;
        if (grouped()) {
            // Upright slot labels, then the group labels under them (rotated if one is wider than its group).
            for (const auto& s : slots_) subLabelH_ = std::max(subLabelH_, textWidth(cutLabel(s), kSmallFontSize));
            for (const auto& g : groups_) {
                const double w = textWidth(cutLabel(g.name), kFontSize);
                maxLabel = std::max(maxLabel, w);
                rotate_ = rotate_ || w > double(g.count) * slotWidth_ - 4;
            }
        } else {
            for (const auto& s : slots_) maxLabel = std::max(maxLabel, textWidth(cutLabel(s), kFontSize));
            rotate_ = maxLabel > slotWidth_ - 4;
        }
        if (rotate_)  // the first labels hang to the left of their slot: keep them inside the picture
            for (size_t i = 0; i < labelCount(); ++i) {
                const double fromLeft = labelCentre(i) - left_;
                left_ = std::max(left_, textWidth(cutLabel(labelText(i)), kFontSize) * kSin45 + 6 - fromLeft);
            }
        plotW_ = double(slots_.size()) * slotWidth_ + double(groups_.empty() ? 0 : groups_.size() - 1) * groupGap_;
        const double avail = std::max(plotW_, kMinPlotWidth);
        // Legend entries flow left to right from the plot's left edge, wrapping at its width.
        double x = left_;
        int row = 0;
        for (const auto& name : legend_) {
            const double w = 12 + 4 + textWidth(name, kFontSize);
            if (x > left_ && x + w > left_ + avail) {
                x = left_;
                ++row;
            }
            legendPos_.push_back({x, row});
            x += w + 14;
        }
        const int rows = legend_.empty() ? 0 : row + 1;
        plotTop_ = kLegendTop + rows * kLegendRow + kPlotGap;
        bottom_ = (rotate_ ? 12 + maxLabel * kSin45 + kFontSize * kSin45 + 6 : 26) + (grouped() ? subLabelH_ + 6 : 0);
        width_ = std::max(left_ + avail + kRight, 20 + textWidth(title_, kTitleFontSize));
        height_ = plotTop_ + kPlotHeight + bottom_;
    }

    double y(double v) const { return plotTop_ + kPlotHeight - (v - axis_.lo) * kPlotHeight / (axis_.hi - axis_.lo); }
    double slotX(size_t i) const { return left_ + double(i) * slotWidth_ + double(groupOf_[i]) * groupGap_; }
    double plotWidth() const { return plotW_; }
    double width() const { return width_; }
    double plotBottom() const { return plotTop_ + kPlotHeight; }
    double plotTop() const { return plotTop_; }

    void begin(std::ostringstream& o) const {
        openSvg(o, width_, height_, title_);
        for (size_t i = 0; i < legend_.size(); ++i) {
            const double lx = legendPos_[i].first, ly = kLegendTop + legendPos_[i].second * kLegendRow;
            if (lastLegendIsMark_ && i + 1 == legend_.size())
                mark(o, "mark-swatch", lx + 6, ly + 6, "");
            else
                o << "<rect class=\"swatch\" x=\"" << num(lx) << "\" y=\"" << num(ly)
                  << "\" width=\"12\" height=\"12\" fill=\"" << palette()[i % palette().size()] << "\"/>";
            o << "<text class=\"legend\" x=\"" << num(lx + 16) << "\" y=\"" << num(ly + 10) << "\">"
              << escapeXml(legend_[i]) << "</text>\n";
        }
        // Grid and tick labels.
        for (size_t i = 0; i < axis_.ticks.size(); ++i) {
            const double ty = y(axis_.ticks[i]);
            o << "<line class=\"grid\" x1=\"" << num(left_) << "\" y1=\"" << num(ty) << "\" x2=\"" << num(left_ + plotW_)
              << "\" y2=\"" << num(ty) << "\" stroke=\"#dddddd\" stroke-width=\"1\"/>";
            o << "<text class=\"tick\" x=\"" << num(left_ - 6) << "\" y=\"" << num(ty + 4) << "\" text-anchor=\"end\">"
              << escapeXml(labels_[i]) << "</text>\n";
        }
        yAxisLabel(o, yLabel_, plotTop_ + kPlotHeight / 2);
    }

    void end(std::ostringstream& o) const {
        o << "<line class=\"zero\" x1=\"" << num(left_) << "\" y1=\"" << num(y(0)) << "\" x2=\"" << num(left_ + plotW_)
          << "\" y2=\"" << num(y(0)) << "\" stroke=\"#333333\" stroke-width=\"1\"/>\n";
        o << "<line class=\"y-axis\" x1=\"" << num(left_) << "\" y1=\"" << num(plotTop_) << "\" x2=\"" << num(left_)
          << "\" y2=\"" << num(plotBottom()) << "\" stroke=\"#333333\" stroke-width=\"1\"/>\n";
        if (reference_)
            o << "<line class=\"reference\" x1=\"" << num(left_) << "\" y1=\"" << num(y(*reference_)) << "\" x2=\""
              << num(left_ + plotW_) << "\" y2=\"" << num(y(*reference_))
              << "\" stroke=\"#555555\" stroke-width=\"1\" stroke-dasharray=\"5 3\"/>\n";
        if (grouped())
            for (size_t i = 0; i < slots_.size(); ++i) {
                // Rotated -90 degrees about its end: reads upwards, hangs from just under the plot.
                const double cx = slotX(i) + slotWidth_ / 2 + kSmallFontSize * 0.35, ly = plotBottom() + 4;
                const std::string shown = cutLabel(slots_[i]);
                o << "<text class=\"bar-label\" x=\"" << num(cx) << "\" y=\"" << num(ly) << "\" font-size=\""
                  << num(kSmallFontSize) << "\" text-anchor=\"end\" transform=\"rotate(-90 " << num(cx) << " " << num(ly)
                  << ")\">";
                if (shown != slots_[i]) o << "<title>" << escapeXml(slots_[i]) << "</title>";
                o << escapeXml(shown) << "</text>\n";
            }
        const double labelTop = plotBottom() + (grouped() ? subLabelH_ + 6 : 0);
        for (size_t i = 0; i < labelCount(); ++i) {
            const double cx = labelCentre(i);
            const std::string& full = labelText(i);
            const std::string shown = cutLabel(full);
            if (rotate_) {
                const double ly = labelTop + 10;
                o << "<text class=\"category\" x=\"" << num(cx) << "\" y=\"" << num(ly)
                  << "\" text-anchor=\"end\" transform=\"rotate(-45 " << num(cx) << " " << num(ly) << ")\">";
            } else {
                o << "<text class=\"category\" x=\"" << num(cx) << "\" y=\"" << num(labelTop + 16)
                  << "\" text-anchor=\"middle\">";
            }
            if (shown != full) o << "<title>" << escapeXml(full) << "</title>";
            o << escapeXml(shown) << "</text>\n";
        }
        if (slots_.empty())
            o << "<text class=\"no-data\" x=\"" << num(left_ + 10) << "\" y=\"" << num(plotTop_ + kPlotHeight / 2)
              << "\">no data</text>\n";
        o << "</svg>\n";
    }

    // A value that is not there: a small grey cross on the zero line, centred at cx.
    void missing(std::ostringstream& o, double cx, const std::string& tooltip) const {
        o << "<text class=\"missing\" x=\"" << num(cx) << "\" y=\"" << num(y(0) - 3)
          << "\" text-anchor=\"middle\" font-size=\"10\" fill=\"#888888\"><title>" << escapeXml(tooltip)
          << "</title>&#215;</text>\n";
    }

    // A reference value's marker: a diamond, white inside a black outline, centred at (cx, cy).
    static void mark(std::ostringstream& o, const char* cls, double cx, double cy, const std::string& tooltip) {
        const double r = kMarkRadius;
        o << "<path class=\"" << cls << "\" d=\"M" << num(cx) << " " << num(cy - r) << "L" << num(cx + r) << " " << num(cy)
          << "L" << num(cx) << " " << num(cy + r) << "L" << num(cx - r) << " " << num(cy)
          << "Z\" fill=\"#ffffff\" stroke=\"#000000\" stroke-width=\"1.5\">";
        if (!tooltip.empty()) o << "<title>" << escapeXml(tooltip) << "</title>";
        o << "</path>\n";
    }

    void rect(std::ostringstream& o, const char* cls, double x, double w, double v0, double v1, size_t colour,
              const std::string& tooltip) const {
        const double ya = y(v0), yb = y(v1);
        o << "<rect class=\"" << cls << "\" x=\"" << num(x) << "\" y=\"" << num(std::min(ya, yb)) << "\" width=\""
          << num(w) << "\" height=\"" << num(std::fabs(ya - yb)) << "\" fill=\"" << palette()[colour % palette().size()]
          << "\"><title>" << escapeXml(tooltip) << "</title></rect>\n";
    }

private:
    struct Group {
        std::string name;
        size_t first, count;
    };
    bool grouped() const { return !groups_.empty(); }
    // The labels along the axis: one per slot, or one per group.
    size_t labelCount() const { return grouped() ? groups_.size() : slots_.size(); }
    const std::string& labelText(size_t i) const { return grouped() ? groups_[i].name : slots_[i]; }
    // x of a label's centre, relative to the picture for a slot, computed from left_ as set so far.
    double labelCentre(size_t i) const {
        if (!grouped()) return slotX(i) + slotWidth_ / 2;
        const Group& g = groups_[i];
        return slotX(g.first) + double(g.count) * slotWidth_ / 2;
    }

    std::string title_, yLabel_;
    std::vector<std::string> legend_, slots_;
    std::vector<Group> groups_;
    std::vector<size_t> groupOf_;
    double groupGap_ = 0, subLabelH_ = 0;
    double slotWidth_;
    std::optional<double> reference_;
    bool lastLegendIsMark_ = false;
    Axis axis_;
    std::vector<std::string> labels_;
    std::vector<std::pair<double, int>> legendPos_;
    double left_ = 0, plotW_ = 0, plotTop_ = 0, bottom_ = 0, width_ = 0, height_ = 0;
    bool rotate_ = false;
};

} // namespace

const std::vector<std::string>& palette() {
    static const std::vector<std::string> p = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                               "#56B4E9", "#D55E00", "#000000", "#F0E442"};
    return p;
}

std::string escapeXml(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

double geometricMean(const std::vector<double>& values) {
    if (values.empty()) throw std::invalid_argument("geometric mean of no values");
    double logSum = 0;
    for (double v : values) {
        if (!(v > 0) || !std::isfinite(v))
            throw std::invalid_argument("geometric mean of a value that is not positive: " + formatValue(v));
        logSum += std::log(v);
    }
    return std::exp(logSum / double(values.size()));
}

std::optional<double> geomeanOfPresent(const std::vector<std::optional<double>>& values) {
    std::vector<double> present;
    for (const auto& v : values)
        if (usable(v)) {
            if (!(*v > 0)) return std::nullopt;
            present.push_back(*v);
        }
    if (present.empty()) return std::nullopt;
    return geometricMean(present);
}

Axis niceAxis(double lo, double hi, int maxIntervals) {
    if (!(hi > lo)) hi = lo + 1;
    if (maxIntervals < 1) maxIntervals = 1;
    const double raw = (hi - lo) / maxIntervals;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    Axis a;
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0, 20.0}) {
        const double step = m * mag;
        // The small tolerances keep an exact multiple (2 / 0.5) from being rounded outwards.
        const double first = std::floor(lo / step + 1e-9), last = std::ceil(hi / step - 1e-9);
        if (last - first <= maxIntervals) {
            a.step = step;
            a.lo = first * step;
            a.hi = last * step;
            for (double k = first; k <= last + 0.5; k += 1) a.ticks.push_back(k * step);
            return a;
        }
    }
    throw std::logic_error("niceAxis: no step found");  // 20 x mag always fits
}

std::vector<std::string> tickLabels(const Axis& axis) {
    const double maxAbs = std::max(std::fabs(axis.lo), std::fabs(axis.hi));
    double div = 1;
    const char* suffix = "";
    if (maxAbs >= 1e9) div = 1e9, suffix = "G";
    else if (maxAbs >= 1e6) div = 1e6, suffix = "M";
    else if (maxAbs >= 1e4) div = 1e3, suffix = "k";
    const double step = axis.step / div;
    int decimals = 0;
    for (; decimals < 9; ++decimals) {
        const double scaled = step * std::pow(10.0, decimals);
        if (std::fabs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled)) break;
    }
    std::vector<std::string> out;
    for (double t : axis.ticks) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "%.*f", decimals, t / div);
        std::string s = buf;
        if (s.find_first_not_of("-0.") == std::string::npos) s = "0";  // "-0.0" and "0.00" alike
        else s += suffix;
        out.push_back(s);
    }
    return out;
}

std::string formatValue(double v) {
    char buf[64];
    if (!std::isfinite(v)) return v != v ? "nan" : (v > 0 ? "inf" : "-inf");
    if (v == std::round(v) && std::fabs(v) < 1e15) {
        std::snprintf(buf, sizeof buf, "%.0f", v);
        return std::string(buf) == "-0" ? "0" : buf;
    }
    const double a = std::fabs(v);
    if (a >= 1e15 || a < 1e-4) std::snprintf(buf, sizeof buf, "%.3e", v);
    else if (a >= 100) {
        std::snprintf(buf, sizeof buf, "%.1f", v);
        std::string s = buf;
        if (s.back() == '0') s.resize(s.size() - 2);
        return s;
    } else std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

std::string renderSvg(const BarChart& c) {
    std::vector<std::string> slots = c.categories;
    std::vector<std::vector<std::optional<double>>> values;  // [series][slot]
    for (const auto& s : c.series) {
        std::vector<std::optional<double>> v(c.categories.size());
        for (size_t i = 0; i < v.size() && i < s.values.size(); ++i)
            if (usable(s.values[i])) v[i] = s.values[i];
        if (c.geomeanGroup) v.push_back(geomeanOfPresent(v));
        values.push_back(std::move(v));
    }
    if (c.geomeanGroup) slots.push_back("gmean");
    double lo = 0, hi = 0;
    for (const auto& v : values)
        for (const auto& x : v)
            if (x) lo = std::min(lo, *x), hi = std::max(hi, *x);
    std::vector<const ReferenceMark*> marks;  // the drawable ones
    for (const auto& m : c.marks)
        if (m.category < slots.size() && m.series < c.series.size() && std::isfinite(m.value)) {
            marks.push_back(&m);
            lo = std::min(lo, m.value), hi = std::max(hi, m.value);
        }
    std::vector<std::string> legend;
    for (const auto& s : c.series) legend.push_back(s.name);
    if (!marks.empty()) legend.push_back(c.marksName);
    const double groupW = double(c.series.size()) * kBarWidth + kGroupGap;
    const Frame f(c.title, c.yLabel, legend, slots, groupW, lo, hi, c.referenceLine, {}, 0, !marks.empty());
    std::ostringstream o;
    f.begin(o);
    if (c.geomeanGroup && !c.categories.empty()) {
        const double sx = f.slotX(c.categories.size());
        o << "<line class=\"separator\" x1=\"" << num(sx) << "\" y1=\"" << num(f.plotTop()) << "\" x2=\"" << num(sx)
          << "\" y2=\"" << num(f.plotBottom()) << "\" stroke=\"#999999\" stroke-width=\"1\" stroke-dasharray=\"2 2\"/>\n";
    }
    for (size_t g = 0; g < slots.size(); ++g)
        for (size_t s = 0; s < values.size(); ++s) {
            const double x = f.slotX(g) + kGroupGap / 2 + double(s) * kBarWidth;
            const std::string where = c.series[s].name + ", " + slots[g];
            if (values[s][g]) f.rect(o, "bar", x, kBarWidth, 0, *values[s][g], s, where + ": " + formatValue(*values[s][g]));
            else f.missing(o, x + kBarWidth / 2, where + ": no value");
        }
    for (const ReferenceMark* m : marks) {
        const double cx = f.slotX(m->category) + kGroupGap / 2 + (double(m->series) + 0.5) * kBarWidth;
        f.mark(o, "mark", cx, f.y(m->value),
               c.marksName + ", " + c.series[m->series].name + ", " + slots[m->category] + ": " + formatValue(m->value));
    }
    f.end(o);
    return o.str();
}

StackSlot stackSlot(const StackedBarChart& c) {
    const size_t n = c.bars.size();
    size_t groups = 0;
    if (c.groups.size() == n)
        for (size_t i = 0; i < n; ++i) groups += i == 0 || c.groups[i] != c.groups[i - 1];
    const double full = kStackWidth + kStackGap;
    const double room = kMaxStackPlotWidth - double(groups ? groups - 1 : 0) * kStackGroupGap;
    const double w = n == 0 ? full : std::clamp(room / double(n), kMinStackSlot, full);
    return {w, w * kStackWidth / full};
}

std::string renderSvg(const StackedBarChart& c) {
    // Positive parts stack upwards from zero, negative ones downwards, each in layer order.
    double lo = 0, hi = 0;
    for (size_t b = 0; b < c.bars.size(); ++b) {
        double pos = 0, neg = 0;
        for (const auto& l : c.layers)
            if (b < l.values.size() && usable(l.values[b])) (*l.values[b] >= 0 ? pos : neg) += *l.values[b];
        hi = std::max(hi, pos);
        lo = std::min(lo, neg);
    }
    std::vector<std::string> legend;
    for (const auto& l : c.layers) legend.push_back(l.name);
    const StackSlot slot = stackSlot(c);
    const Frame f(c.title, c.yLabel, legend, c.bars, slot.width, lo, hi, std::nullopt, c.groups, kStackGroupGap);
    const double barW = slot.bar;
    std::ostringstream o;
    f.begin(o);
    for (size_t b = 0; b < c.bars.size(); ++b) {
        const double x = f.slotX(b) + (slot.width - barW) / 2;
        double pos = 0, neg = 0;
        bool any = false;
        for (size_t l = 0; l < c.layers.size(); ++l) {
            const auto& layer = c.layers[l];
            if (b >= layer.values.size() || !usable(layer.values[b])) continue;
            any = true;
            const double v = *layer.values[b];
            double& base = v >= 0 ? pos : neg;
            const std::string where = b < c.groups.size() ? c.groups[b] + " / " + c.bars[b] : c.bars[b];
            f.rect(o, "segment", x, barW, base, base + v, l, where + ": " + layer.name + " " + formatValue(v));
            base += v;
        }
        if (!any) f.missing(o, x + barW / 2, (b < c.groups.size() ? c.groups[b] + " / " : "") + c.bars[b] + ": no value");
    }
    f.end(o);
    return o.str();
}

namespace {

// A scatter plot's axis in drawing units: the values, or on a log scale their log10.
struct ScatterAxis {
    bool log = false;
    double lo = 0, hi = 1;
    std::vector<double> ticks;  // drawing units
    std::vector<std::string> labels;
    double unit(double v) const { return log ? std::log10(v) : v; }
    double fraction(double u) const { return (u - lo) / (hi - lo); }  // of the plot's side, from the lower end
};

// 10^k through tickLabels, for its decimals and k/M/G suffix ("0.01", "10k"); exponents whose
// decimals or suffixed digits would get too long as "1e-7".
std::string decadeLabel(int k) {
    if (k < -6 || k > 12) return "1e" + std::to_string(k);
    const double v = std::pow(10.0, k);
    return tickLabels(Axis{v, v, v, {v}}).front();
}

// lo > hi: no points.
ScatterAxis scatterAxis(bool log, double lo, double hi) {
    ScatterAxis a;
    a.log = log;
    if (log) {
        if (lo > hi) lo = 1, hi = 10;
        // The tolerance, as in niceAxis, keeps an exact power of ten from being rounded outwards.
        const int first = int(std::floor(std::log10(lo) + 1e-9));
        const int last = std::max(first + 1, int(std::ceil(std::log10(hi) - 1e-9)));
        a.lo = first;
        a.hi = last;
        for (int k = first; k <= last; ++k) {
            a.ticks.push_back(k);
            a.labels.push_back(decadeLabel(k));
        }
    } else {
        const Axis n = lo > hi ? niceAxis(0, 1) : niceAxis(lo, hi);
        a.lo = n.lo;
        a.hi = n.hi;
        a.ticks = n.ticks;
        a.labels = tickLabels(n);
    }
    return a;
}

} // namespace

namespace {
double overlap(const LabelBox& a, const LabelBox& b) {
    const double w = std::min(a.x + a.w, b.x + b.w) - std::max(a.x, b.x);
    const double h = std::min(a.y + a.h, b.y + b.h) - std::max(a.y, b.y);
    return w > 0 && h > 0 ? w * h : 0;
}
} // namespace

std::vector<PlacedLabel> placePointLabels(const std::vector<LabelPoint>& points, double minX) {
    const double fs = kPointFontSize, step = fs + 1;
    // Each point's circle as a box, which no label may cover.
    std::vector<LabelBox> obstacles;
    for (const auto& p : points)
        obstacles.push_back({p.cx - kPointRadius, p.cy - kPointRadius, 2 * kPointRadius, 2 * kPointRadius});
    std::vector<PlacedLabel> out;
    std::vector<LabelBox> taken;
    for (const auto& p : points) {
        std::optional<PlacedLabel> best;
        double bestCost = 0;
        for (int k = 0; k <= kMaxLabelSteps && !(best && bestCost == 0); ++k)
            for (int sign : {1, -1}) {
                if (k == 0 && sign < 0) continue;
                for (bool right : {true, false}) {
                    PlacedLabel l;
                    l.textX = right ? p.cx + kPointLabelGap : p.cx - kPointLabelGap - p.width;
                    l.textY = p.cy - kPointLabelGap - double(sign * k) * step;  // baseline; upwards first
                    l.box = {l.textX, l.textY - 0.8 * fs, p.width, fs};
                    l.leader = k > 1;
                    double cost = l.textX < minX ? 1e9 : 0;
                    for (const auto& t : taken) cost += overlap(l.box, t);
                    for (const auto& o : obstacles) cost += overlap(l.box, o);
                    if (!best || cost < bestCost) {
                        best = l;
                        bestCost = cost;
                    }
                    if (cost == 0) break;
                }
                if (best && bestCost == 0) break;
            }
        taken.push_back(best->box);
        out.push_back(*best);
    }
    return out;
}

std::string renderSvg(const ScatterChart& c) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    double xlo = inf, xhi = -inf, ylo = inf, yhi = -inf;
    for (const auto& p : c.points) {
        const bool placeable = std::isfinite(p.x) && std::isfinite(p.y) && (!c.logScale || (p.x > 0 && p.y > 0));
        if (!placeable)
            throw std::invalid_argument("scatter chart '" + c.title + "': point '" + p.label + "' (x=" + formatValue(p.x) +
                                        ", y=" + formatValue(p.y) + ") is not " +
                                        (c.logScale ? "positive and finite, as a log scale needs" : "finite"));
        xlo = std::min(xlo, p.x), xhi = std::max(xhi, p.x);
        ylo = std::min(ylo, p.y), yhi = std::max(yhi, p.y);
    }
    for (double f : c.bandFactors)
        if (!(f > 0) || !std::isfinite(f))
            throw std::invalid_argument("scatter chart '" + c.title + "': band factor " + formatValue(f) +
                                        " is not a positive number");
    if (c.identityLine) {  // one range for both, so that y = x is the diagonal
        xlo = ylo = std::min(xlo, ylo);
        xhi = yhi = std::max(xhi, yhi);
    }
    const ScatterAxis ax = scatterAxis(c.logScale, xlo, xhi), ay = scatterAxis(c.logScale, ylo, yhi);

    double tickW = 0;
    for (const auto& l : ay.labels) tickW = std::max(tickW, textWidth(l, kFontSize));
    const double left = std::max(kMinLeft, 30 + tickW + 8), top = kLegendTop + kPlotGap, bottom = top + kScatterSide;
    const auto px = [&](double u) { return left + ax.fraction(u) * kScatterSide; };  // drawing units to pixels
    const auto py = [&](double u) { return bottom - ay.fraction(u) * kScatterSide; };
    std::vector<LabelPoint> toPlace;
    for (const auto& p : c.points)
        toPlace.push_back({px(ax.unit(p.x)), py(ay.unit(p.y)), textWidth(p.label, kPointFontSize)});
    const std::vector<PlacedLabel> placed = placePointLabels(toPlace, left);
    // Wide enough for the title and for the labels of the points at the right edge.
    double width = std::max(left + kScatterSide + kRight, 20 + textWidth(c.title, kTitleFontSize));
    for (const auto& l : placed) width = std::max(width, l.box.x + l.box.w + 4);
    const double height = bottom + 44;

    std::ostringstream o;
    openSvg(o, width, height, c.title);
    for (size_t i = 0; i < ax.ticks.size(); ++i) {
        const double tx = px(ax.ticks[i]);
        o << "<line class=\"grid\" x1=\"" << num(tx) << "\" y1=\"" << num(top) << "\" x2=\"" << num(tx) << "\" y2=\""
          << num(bottom) << "\" stroke=\"#dddddd\" stroke-width=\"1\"/>";
        o << "<text class=\"x-tick\" x=\"" << num(tx) << "\" y=\"" << num(bottom + 16) << "\" text-anchor=\"middle\">"
          << escapeXml(ax.labels[i]) << "</text>\n";
    }
    for (size_t i = 0; i < ay.ticks.size(); ++i) {
        const double ty = py(ay.ticks[i]);
        o << "<line class=\"grid\" x1=\"" << num(left) << "\" y1=\"" << num(ty) << "\" x2=\"" << num(left + kScatterSide)
          << "\" y2=\"" << num(ty) << "\" stroke=\"#dddddd\" stroke-width=\"1\"/>";
        o << "<text class=\"tick\" x=\"" << num(left - 6) << "\" y=\"" << num(ty + 4) << "\" text-anchor=\"end\">"
          << escapeXml(ay.labels[i]) << "</text>\n";
    }
    o << "<line class=\"x-axis\" x1=\"" << num(left) << "\" y1=\"" << num(bottom) << "\" x2=\"" << num(left + kScatterSide)
      << "\" y2=\"" << num(bottom) << "\" stroke=\"#333333\" stroke-width=\"1\"/>\n";
    o << "<line class=\"y-axis\" x1=\"" << num(left) << "\" y1=\"" << num(top) << "\" x2=\"" << num(left) << "\" y2=\""
      << num(bottom) << "\" stroke=\"#333333\" stroke-width=\"1\"/>\n";
    o << "<text class=\"x-label\" x=\"" << num(left + kScatterSide / 2) << "\" y=\"" << num(bottom + 34)
      << "\" text-anchor=\"middle\">" << escapeXml(c.xLabel) << "</text>\n";
    yAxisLabel(o, c.yLabel, top + kScatterSide / 2);

    if (c.identityLine) {
        // y = f * x in drawing units is u = f * t, or u = t + log10 f on a log scale: increasing, so
        // it crosses the square between the t where it enters at the bottom or left and leaves at the
        // top or right.
        const auto line = [&](const char* cls, double f, const char* dash, const std::string& tooltip) {
            const auto along = [&](double t) { return c.logScale ? t + std::log10(f) : f * t; };
            const auto back = [&](double u) { return c.logScale ? u - std::log10(f) : u / f; };
            const double t0 = std::max(ax.lo, back(ay.lo)), t1 = std::min(ax.hi, back(ay.hi));
            if (!(t1 > t0)) return;  // misses the plot
            o << "<line class=\"" << cls << "\" x1=\"" << num(px(t0)) << "\" y1=\"" << num(py(along(t0))) << "\" x2=\""
              << num(px(t1)) << "\" y2=\"" << num(py(along(t1))) << "\" stroke=\"#555555\" stroke-width=\"1\"" << dash
              << "><title>" << escapeXml(tooltip) << "</title></line>\n";
        };
        line("identity", 1, "", "y = x");
        for (double f : c.bandFactors) line("band", f, " stroke-dasharray=\"5 3\"", "y = " + formatValue(f) + " x");
    }

    for (size_t i = 0; i < c.points.size(); ++i) {
        const ScatterPoint& p = c.points[i];
        const double cx = toPlace[i].cx, cy = toPlace[i].cy;
        const PlacedLabel& l = placed[i];
        if (l.leader) {  // from the point's edge to the label box's nearest point
            const double bx = std::clamp(cx, l.box.x, l.box.x + l.box.w), by = std::clamp(cy, l.box.y, l.box.y + l.box.h);
            const double d = std::hypot(bx - cx, by - cy);
            if (d > kPointRadius)
                o << "<line class=\"leader\" x1=\"" << num(cx + (bx - cx) * kPointRadius / d) << "\" y1=\""
                  << num(cy + (by - cy) * kPointRadius / d) << "\" x2=\"" << num(bx) << "\" y2=\"" << num(by)
                  << "\" stroke=\"#999999\" stroke-width=\"0.6\"/>";
        }
        o << "<circle class=\"point\" cx=\"" << num(cx) << "\" cy=\"" << num(cy) << "\" r=\"" << num(kPointRadius)
          << "\" fill=\"" << palette()[0] << "\"><title>"
          << escapeXml(p.label + ": x=" + formatValue(p.x) + ", y=" + formatValue(p.y)) << "</title></circle>";
        o << "<text class=\"point-label\" x=\"" << num(l.textX) << "\" y=\"" << num(l.textY)
          << "\" font-size=\"" << num(kPointFontSize) << "\">" << escapeXml(p.label) << "</text>\n";
    }
    if (c.points.empty())
        o << "<text class=\"no-data\" x=\"" << num(left + 10) << "\" y=\"" << num(top + kScatterSide / 2)
          << "\">no data</text>\n";
    o << "</svg>\n";
    return o.str();
}

} // namespace gpusim::chart
