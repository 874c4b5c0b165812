#pragma once
// The validation report's text and charts: one Markdown section per study (normalised metric per
// workload and series, the group means next to the paper's figures and the difference in
// percentage points, raw extra columns, jobs that did not finish, the hand-written discussion)
// and its SVG charts, and the page around the sections (docs/validation.md). Pure: returns
// strings; ValidateCommand writes them.
#include <string>
#include <vector>

#include "experiments/SvgChart.hpp"
#include "experiments/ValidationStudy.hpp"

namespace gpusim::validation {

struct ChartFile {
    std::string name;  // file name, e.g. "oaws-ipc.svg"
    std::string svg;
};

struct StudySection {
    std::string markdown;
    std::vector<ChartFile> charts;
    // One line per series and group with a paper figure: "| study | group | series | ours | paper |".
    std::vector<std::string> summaryRows;
};

// chartLink: the directory the page refers to the charts by (relative to the page).
// specFiles: how the page names the study's sweep specs. notes: the discussion (Markdown).
StudySection renderStudy(const Study& study, const StudyData& data, const std::string& chartLink,
                         const std::vector<std::string>& specFiles, const std::string& notes);

struct PageInfo {
    std::string command;  // the command line that produced the page
    std::string date;     // YYYY-MM-DD
    std::string version;  // gpusim version of the jobs
    size_t jobs = 0, jobsOk = 0;
    double hostSeconds = 0;
};

std::string renderPage(const PageInfo& info, const std::vector<StudySection>& sections,
                       const std::string& preamble);

// "1.234" style for tables; "-" for a missing value.
std::string fixed3(const std::optional<double>& v);
// Difference ours - paper of two normalised figures in percentage points of improvement:
// "-71.1 pp" (ours 1.020, paper 1.731).
std::string pointsDifference(double ours, double paper);

// Shared by the study renderers: a Markdown table cell (| escaped), an extra column's text for
// a workload ("-": no value).
std::string cell(const std::string& s);
std::string extraText(const StudyData& d, const ExtraColumn& e, const std::string& workload);
// The table's head and rule: workload, group, the paper's class when the study gives classes,
// the number columns (right-aligned; Markdown given) and the extra columns.
std::string tableHead(const Study& s, const std::vector<std::string>& numberColumns);
// A workload row's first cells: workload, group and, when the study gives classes, its class.
std::string rowLead(const Study& s, const std::string& workload);
// The paper's figures for the group means as marks on those bars of a chart: group i's mean is
// category firstMean + i, series j is the paper's key names[j]; values multiplied by scale.
std::vector<chart::ReferenceMark> paperMarks(const Study& s, const std::vector<std::string>& names, size_t firstMean,
                                             double scale = 1);
// What ends every study's section: the jobs that did not finish, then the study's notes.
std::string sectionEnd(const StudyData& d, const std::string& notes);

} // namespace gpusim::validation
