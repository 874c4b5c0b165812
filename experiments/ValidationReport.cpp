#include "experiments/ValidationReport.hpp"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "experiments/SvgChart.hpp"
#include "experiments/ValidationShare.hpp"

namespace gpusim::validation {

std::string fixed3(const std::optional<double>& v) {
    if (!v) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", *v);
    return buf;
}

std::string pointsDifference(double ours, double paper) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f pp", (ours - paper) * 100.0);
    return buf;
}

std::string cell(const std::string& s) {
    std::string out;
    for (char c : s) out += c == '|' ? std::string("\\|") : std::string(1, c);
    return out;
}

namespace {

const WorkloadGroup* groupOf(const Study& s, const std::string& workload) {
    for (const auto& g : s.groups)
        if (std::find(g.workloads.begin(), g.workloads.end(), workload) != g.workloads.end()) return &g;
    return nullptr;
}

} // namespace

std::string extraText(const StudyData& d, const ExtraColumn& e, const std::string& workload) {
    const auto s = d.rows.find(e.series);
    if (s == d.rows.end()) return "-";
    const auto w = s->second.find(workload);
    if (w == s->second.end() || !w->second.contains(e.stat) || w->second[e.stat].is_null()) return "-";
    const auto& v = w->second[e.stat];
    std::string text = v.is_number_float() ? chart::formatValue(v.get<double>()) : v.is_string() ? v.get<std::string>() : v.dump();
    if (v.is_number()) {
        const double x = v.get<double>();
        if (x == double(static_cast<long long>(x))) text = std::to_string(static_cast<long long>(x));
    }
    if (const auto n = e.valueNames.find(text); n != e.valueNames.end()) return n->second;
    return text;
}

std::string tableHead(const Study& s, const std::vector<std::string>& numberColumns) {
    std::string head = "| workload | group |", rule = "\n|---|---|";
    if (!s.workloadNotes.empty()) {
        head += " paper's class |";
        rule += "---|";
    }
    for (const auto& c : numberColumns) {
        head += " " + c + " |";
        rule += "---:|";
    }
    for (const auto& e : s.extras) {
        head += " " + cell(e.heading) + " |";
        rule += "---|";
    }
    return head + rule + "\n";
}

std::string rowLead(const Study& s, const std::string& workload) {
    const WorkloadGroup* g = groupOf(s, workload);
    std::string lead = "| " + cell(workload) + " | " + (g ? g->name : "-") + " |";
    if (!s.workloadNotes.empty()) {
        const auto n = s.workloadNotes.find(workload);
        lead += " " + (n == s.workloadNotes.end() ? "" : cell(n->second)) + " |";
    }
    return lead;
}

std::string sectionEnd(const StudyData& d, const std::string& notes) {
    std::string end;
    if (!d.notOk.empty()) {
        end += "Jobs that did not finish (no bar, not in the means):\n\n";
        for (const auto& n : d.notOk) end += "- " + n + "\n";
        end += "\n";
    }
    if (!notes.empty()) end += notes + (notes.back() == '\n' ? "" : "\n") + "\n";
    return end;
}

std::vector<chart::ReferenceMark> paperMarks(const Study& s, const std::vector<std::string>& names, size_t firstMean,
                                             double scale) {
    std::vector<chart::ReferenceMark> out;
    for (size_t gi = 0; gi < s.groups.size(); ++gi) {
        const auto p = s.paper.find(s.groups[gi].name);
        if (p == s.paper.end()) continue;
        for (size_t si = 0; si < names.size(); ++si) {
            const auto v = p->second.find(names[si]);
            if (v != p->second.end()) out.push_back({firstMean + gi, si, v->second * scale});
        }
    }
    return out;
}

StudySection renderStudy(const Study& study, const StudyData& data, const std::string& chartLink,
                         const std::vector<std::string>& specFiles, const std::string& notes) {
    if (!study.shares.empty()) return renderShareStudy(study, data, chartLink, specFiles, notes);
    StudySection out;
    std::ostringstream md;
    std::vector<std::string> compared;  // every series but the baseline
    for (const auto& s : data.series)
        if (s != study.baseline) compared.push_back(s);
    const std::string mean = meanName(study.mean);

    md << "## " << study.title << "\n\n";
    md << "Source: " << study.source << ".";
    if (!study.platformNote.empty()) md << " Platform: " << study.platformNote << ".";
    md << " Figures: `" << study.metric << "` of each series divided by `" << study.baseline
       << "`'s on the same workload; group means are " << mean << "s over the workloads where both ran.";
    md << " Sweeps:";
    for (size_t i = 0; i < specFiles.size(); ++i) md << (i ? ", " : " ") << "`" << specFiles[i] << "`";
    md << ".\n\n";

    // The normalised chart: workloads, then one mean group per workload group.
    chart::BarChart bars;
    bars.title = study.title.substr(0, study.title.find(':')) + ": " + study.metric + " normalised to " + study.baseline;
    bars.yLabel = study.metric + " / " + study.baseline;
    bars.referenceLine = 1.0;
    bars.categories = data.workloads;
    for (const auto& g : study.groups) bars.categories.push_back(mean + " " + g.name);
    for (const auto& s : compared) {
        chart::Series series{s, {}};
        for (const auto& w : data.workloads) series.values.push_back(normalised(data, study, s, w));
        for (const auto& g : study.groups) series.values.push_back(groupMean(data, study, s, g).value);
        bars.series.push_back(std::move(series));
    }
    bars.marksName = "paper";
    bars.marks = paperMarks(study, compared, data.workloads.size());
    const std::string mainChart = study.id + "-" + study.metric + ".svg";
    out.charts.push_back({mainChart, chart::renderSvg(bars)});
    md << "![" << study.id << " " << study.metric << "](" << chartLink << "/" << mainChart << ")\n\n";
    md << "*Chart: `" << study.metric << "` of each series over `" << study.baseline
       << "`'s per workload (dashed line at 1: " << study.baseline << " itself), then the " << mean
       << " of each workload group" << (bars.marks.empty() ? "" : "; diamonds: the paper's figures for those means")
       << ".*\n\n";

    // The table.
    std::vector<std::string> numbers{cell(study.baseline) + " " + study.metric};
    for (const auto& s : compared) numbers.push_back(cell(s));
    md << tableHead(study, numbers);
    for (const auto& w : data.workloads) {
        md << rowLead(study, w);
        md << " " << fixed3(valueOf(data, study.baseline, w, study.metric)) << " |";
        for (const auto& s : compared) md << " " << fixed3(normalised(data, study, s, w)) << " |";
        for (const auto& e : study.extras) md << " " << cell(extraText(data, e, w)) << " |";
        md << "\n";
    }
    const size_t pad = (study.workloadNotes.empty() ? 0 : 1) + 1;
    auto blankCells = [&](size_t n) {
        std::string s;
        for (size_t i = 0; i < n; ++i) s += " |";
        return s;
    };
    for (const auto& g : study.groups) {
        std::vector<MeanValue> means;  // per compared series, used by the mean, paper and difference rows
        for (const auto& s : compared) means.push_back(groupMean(data, study, s, g));
        md << "| **" << mean << "** | " << g.name << " |" << blankCells(pad);
        for (const MeanValue& m : means) {
            md << " **" << fixed3(m.value) << "**" << (m.value && m.count < m.of ? " (" + std::to_string(m.count) + "/" + std::to_string(m.of) + ")" : "") << " |";
        }
        md << blankCells(study.extras.size()) << "\n";
        const auto p = study.paper.find(g.name);
        if (p == study.paper.end()) continue;
        md << "| paper | " << g.name << " |" << blankCells(pad);
        for (const auto& s : compared) {
            const auto v = p->second.find(s);
            md << " " << (v == p->second.end() ? std::string("-") : fixed3(v->second)) << " |";
        }
        md << blankCells(study.extras.size()) << "\n";
        md << "| ours - paper | " << g.name << " |" << blankCells(pad);
        for (size_t i = 0; i < compared.size(); ++i) {
            const std::string& s = compared[i];
            const auto v = p->second.find(s);
            const MeanValue& m = means[i];
            md << " " << (v == p->second.end() || !m.value ? std::string("-") : pointsDifference(*m.value, v->second)) << " |";
            if (v != p->second.end())
                out.summaryRows.push_back("| " + study.id + " | " + g.name + " | " + cell(s) + " | " + fixed3(m.value) +
                                          (m.value && m.count < m.of ? " (" + std::to_string(m.count) + "/" + std::to_string(m.of) + ")" : "") +
                                          " | " + fixed3(v->second) + " | " +
                                          (m.value ? pointsDifference(*m.value, v->second) : "-") + " |");
        }
        md << blankCells(study.extras.size()) << "\n";
    }
    md << "\n";
    if (!study.paperNote.empty()) md << "Paper figures: " << study.paperNote << "\n\n";

    if (study.missChart) {
        chart::BarChart miss;
        miss.title = study.title.substr(0, study.title.find(':')) + ": " + *study.missChart;
        miss.yLabel = *study.missChart;
        miss.categories = data.workloads;
        for (const auto& s : data.series) {
            chart::Series series{s, {}};
            for (const auto& w : data.workloads) series.values.push_back(valueOf(data, s, w, *study.missChart));
            miss.series.push_back(std::move(series));
        }
        const std::string name = study.id + "-miss.svg";
        out.charts.push_back({name, chart::renderSvg(miss)});
        md << "![" << study.id << " " << *study.missChart << "](" << chartLink << "/" << name << ")\n\n";
        md << "*Chart: `" << *study.missChart << "` of every series (" << study.baseline
           << " included) per workload, as measured (not normalised).*\n\n";
    }
    if (study.stallChart) {
        // Each workload's stacks are scaled by the baseline's total, as the paper's Figure 9.
        chart::StackedBarChart st;
        st.title = study.title.substr(0, study.title.find(':')) + ": " + study.stallChart->what + ", normalised to " +
                   study.baseline + "'s total";
        st.yLabel = study.stallChart->what + " / " + study.baseline + " total";
        const WorkloadGroup* g = nullptr;
        for (const auto& x : study.groups)
            if (x.name == study.stallChart->group) g = &x;
        for (const auto& stat : study.stallChart->stats) st.layers.push_back({stat, {}});
        for (const auto& w : g->workloads) {
            double base = 0;
            for (const auto& stat : study.stallChart->stats) base += valueOf(data, study.baseline, w, stat).value_or(0);
            for (const auto& s : data.series) {
                st.groups.push_back(w);
                st.bars.push_back(s);
                for (size_t i = 0; i < st.layers.size(); ++i) {
                    const auto v = valueOf(data, s, w, study.stallChart->stats[i]);
                    st.layers[i].values.push_back(v && base > 0 ? std::optional<double>(*v / base) : std::nullopt);
                }
            }
        }
        const std::string name = study.id + "-stalls.svg";
        out.charts.push_back({name, chart::renderSvg(st)});
        md << "![" << study.id << " stalls](" << chartLink << "/" << name << ")\n\n";
        md << "*Chart: " << study.stallChart->what << " of every series on the " << g->name
           << " workloads, one bar per series under each workload, stacked (";
        for (size_t i = 0; i < study.stallChart->stats.size(); ++i) md << (i ? ", " : "") << "`" << study.stallChart->stats[i] << "`";
        md << "); each workload's bars divided by the total of " << study.baseline << "'s bar.*\n\n";
    }
    md << sectionEnd(data, notes);
    out.markdown = md.str();
    return out;
}

std::string renderPage(const PageInfo& info, const std::vector<StudySection>& sections, const std::string& preamble) {
    std::ostringstream md;
    md << "# Validation against the papers\n\n";
    md << "<!-- Generated by `" << info.command << "`: edit validation/ (studies.json, notes/*.md) and rerun, not this file. -->\n\n";
    md << "Generated on " << info.date << " by `" << info.command << "` from gpusim " << info.version << ": " << info.jobs
       << " simulations (" << info.jobsOk << " finished), " << static_cast<long long>(info.hostSeconds + 0.5)
       << " CPU-seconds of simulation.\n\n";
    if (!preamble.empty()) md << preamble << (preamble.back() == '\n' ? "" : "\n") << "\n";
    md << "## Summary: group means next to the papers' figures\n\n";
    md << "| study | group | series | ours | paper | ours - paper |\n|---|---|---|---:|---:|---:|\n";
    for (const auto& s : sections)
        for (const auto& r : s.summaryRows) md << r << "\n";
    md << "\n";
    for (const auto& s : sections) md << s.markdown;
    return md.str();
}

} // namespace gpusim::validation
