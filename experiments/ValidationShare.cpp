#include "experiments/ValidationShare.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "experiments/SvgChart.hpp"

namespace gpusim::validation {

std::optional<double> shareOf(const StudyData& d, const Share& s, const std::string& workload) {
    const auto part = valueOf(d, s.series, workload, s.part);
    const auto whole = valueOf(d, s.series, workload, s.whole);
    if (!part || !whole || *whole <= 0) return std::nullopt;
    return *part / *whole;
}

MeanValue shareMean(const StudyData& d, const Share& s, const WorkloadGroup& g) {
    MeanValue out;
    out.of = g.workloads.size();
    std::vector<double> v;
    for (const auto& w : g.workloads)
        if (const auto x = shareOf(d, s, w)) v.push_back(*x);
    out.count = v.size();
    if (!v.empty()) out.value = meanOf(v, Mean::Arithmetic);
    return out;
}

double shareTolerance(double paper) { return std::max(paper / 2, 0.05); }

bool shareWithin(double ours, double paper) {
    // A hair of slack so that a difference of exactly the tolerance, computed in doubles, is in.
    return std::abs(ours - paper) <= shareTolerance(paper) + 1e-12;
}

std::string percent(const std::optional<double>& v) {
    if (!v) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f %%", *v * 100.0);
    return buf;
}

namespace {

// "-3.1 pp (±5.0 pp: within)"
std::string verdict(double ours, double paper) {
    char buf[64];
    std::snprintf(buf, sizeof buf, " (±%.1f pp: %s)", shareTolerance(paper) * 100.0,
                  shareWithin(ours, paper) ? "within" : "outside");
    return pointsDifference(ours, paper) + buf;
}

std::string meanCell(const MeanValue& m) {
    return percent(m.value) +
           (m.value && m.count < m.of ? " (" + std::to_string(m.count) + "/" + std::to_string(m.of) + ")" : "");
}

} // namespace

StudySection renderShareStudy(const Study& study, const StudyData& data, const std::string& chartLink,
                              const std::vector<std::string>& specFiles, const std::string& notes) {
    StudySection out;
    std::ostringstream md;
    md << "## " << study.title << "\n\n";
    md << "Source: " << study.source << ".";
    if (!study.platformNote.empty()) md << " Platform: " << study.platformNote << ".";
    md << " Figures: per workload, a share in percent, not normalised:";
    for (size_t i = 0; i < study.shares.size(); ++i) {
        const Share& s = study.shares[i];
        md << (i ? ";" : "") << " " << s.name << " = `" << s.part << "` / `" << s.whole << "` of " << s.series;
    }
    md << ". Group means are arithmetic means over the workloads that have the share (a whole of 0 has none);"
          " the tolerance against a paper figure is half that figure, at least 5 pp. Sweeps:";
    for (size_t i = 0; i < specFiles.size(); ++i) md << (i ? ", " : " ") << "`" << specFiles[i] << "`";
    md << ".\n\n";

    chart::BarChart bars;
    bars.title = study.title;  // what the shares are is in the title
    bars.yLabel = "percent";
    bars.categories = data.workloads;
    for (const auto& g : study.groups) bars.categories.push_back("amean " + g.name);
    for (const auto& s : study.shares) {
        chart::Series series{s.name, {}};
        auto pct = [](const std::optional<double>& v) { return v ? std::optional<double>(*v * 100.0) : std::nullopt; };
        for (const auto& w : data.workloads) series.values.push_back(pct(shareOf(data, s, w)));
        for (const auto& g : study.groups) series.values.push_back(pct(shareMean(data, s, g).value));
        bars.series.push_back(std::move(series));
    }
    std::vector<std::string> names;
    for (const auto& s : study.shares) names.push_back(s.name);
    bars.marksName = "paper";
    bars.marks = paperMarks(study, names, data.workloads.size(), 100.0);  // the paper's fractions in percent
    const std::string mainChart = study.id + "-share.svg";
    out.charts.push_back({mainChart, chart::renderSvg(bars)});
    md << "![" << study.id << " share](" << chartLink << "/" << mainChart << ")\n\n";
    md << "*Chart: each share in percent per workload, then the arithmetic mean of each workload group"
       << (bars.marks.empty() ? "" : "; diamonds: the paper's figures for those means") << ".*\n\n";

    std::vector<std::string> numbers;
    for (const auto& s : study.shares) numbers.push_back(cell(s.name));
    md << tableHead(study, numbers);
    for (const auto& w : data.workloads) {
        md << rowLead(study, w);
        for (const auto& s : study.shares) md << " " << percent(shareOf(data, s, w)) << " |";
        for (const auto& e : study.extras) md << " " << cell(extraText(data, e, w)) << " |";
        md << "\n";
    }
    // The rows below the workloads leave the class and extra columns blank.
    const std::string classCell = study.workloadNotes.empty() ? "" : " |";
    std::string extraCells;
    for (size_t i = 0; i < study.extras.size(); ++i) extraCells += " |";
    for (const auto& g : study.groups) {
        std::vector<MeanValue> means;
        for (const auto& s : study.shares) means.push_back(shareMean(data, s, g));
        md << "| **amean** | " << g.name << " |" << classCell;
        for (const MeanValue& m : means) md << " **" << meanCell(m) << "** |";
        md << extraCells << "\n";
        const auto p = study.paper.find(g.name);
        if (p == study.paper.end()) continue;
        md << "| paper | " << g.name << " |" << classCell;
        for (const auto& s : study.shares) {
            const auto v = p->second.find(s.name);
            md << " " << (v == p->second.end() ? std::string("-") : percent(v->second)) << " |";
        }
        md << extraCells << "\n";
        md << "| ours - paper | " << g.name << " |" << classCell;
        for (size_t i = 0; i < study.shares.size(); ++i) {
            const auto v = p->second.find(study.shares[i].name);
            const MeanValue& m = means[i];
            md << " " << (v == p->second.end() || !m.value ? std::string("-") : verdict(*m.value, v->second)) << " |";
            if (v != p->second.end())
                out.summaryRows.push_back("| " + study.id + " | " + g.name + " | " + cell(study.shares[i].name) + " | " +
                                          meanCell(m) + " | " + percent(v->second) + " | " +
                                          (m.value ? verdict(*m.value, v->second) : "-") + " |");
        }
        md << extraCells << "\n";
    }
    md << "\n";
    if (!study.paperNote.empty()) md << "Paper figures: " << study.paperNote << "\n\n";
    md << sectionEnd(data, notes);
    out.markdown = md.str();
    return out;
}

} // namespace gpusim::validation
