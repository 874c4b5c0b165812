#pragma once
// Share studies of the validation report: a paper figure that is a part of a whole rather than a
// gain over a baseline (the OAWS paper's Figure 3, memory occlusion time as a percentage of the
// L1D access latency). Per workload a share is one series' statistic over another of its row;
// group means are arithmetic (a share may be 0, and the paper's "on average" over benchmarks is
// read as the mean of the per-benchmark percentages its figure draws). The tolerance against a
// paper figure is the share analogue of the normalised studies' "half the paper's improvement,
// at least 0.05": half the paper's share, at least 5 percentage points (a share's "no effect" is
// 0, as a normalised figure's is 1). validation/preamble.md states it for the page.
#include <optional>
#include <string>
#include <vector>

#include "experiments/ValidationReport.hpp"
#include "experiments/ValidationStudy.hpp"

namespace gpusim::validation {

// part / whole of the share's series on the workload; nullopt when either is missing or the
// whole is not positive (e.g. a class of load the workload never executes).
std::optional<double> shareOf(const StudyData& d, const Share& s, const std::string& workload);

// Arithmetic mean of the group's workloads that have the share.
MeanValue shareMean(const StudyData& d, const Share& s, const WorkloadGroup& g);

// How far a measured share may be from the paper's figure (both fractions): max(paper / 2, 0.05).
double shareTolerance(double paper);
bool shareWithin(double ours, double paper);

// "12.3 %" for tables; "-" for a missing value.
std::string percent(const std::optional<double>& v);

// The study's section: per workload and share the percentage, the group means, the paper's
// figures and the difference with the tolerance's verdict; one summary row per paper figure.
StudySection renderShareStudy(const Study& study, const StudyData& data, const std::string& chartLink,
                              const std::vector<std::string>& specFiles, const std::string& notes);

} // namespace gpusim::validation
