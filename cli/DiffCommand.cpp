#include "cli/DiffCommand.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <limits>
#include <set>

#include <boost/program_options.hpp>

#include "cli/CommandLine.hpp"
#include "cli/RunDocument.hpp"
#include "common/SimError.hpp"

namespace po = boost::program_options;
using nlohmann::json;

namespace gpusim {

std::vector<StatDifference> statDifferences(const json& a, const json& b, double threshold, const std::string& whereA,
                                            const std::string& whereB) {
    const json& sa = a["stats"];
    const json& sb = b["stats"];
    std::set<std::string> names;
    for (const auto& [n, v] : sa.items()) names.insert(n);
    for (const auto& [n, v] : sb.items()) names.insert(n);
    std::vector<StatDifference> changed, oneSided;
    for (const std::string& n : names) {
        StatDifference d{n, std::nullopt, std::nullopt, 0};
        if (sa.contains(n)) d.a = statValue(sa[n], n, whereA).value;
        if (sb.contains(n)) d.b = statValue(sb[n], n, whereB).value;
        if (!d.a || !d.b) {
            oneSided.push_back(d);
            continue;
        }
        if (*d.a == *d.b) continue;
        d.relative = *d.a != 0 ? (*d.b - *d.a) / std::fabs(*d.a)
                               : std::copysign(std::numeric_limits<double>::infinity(), *d.b);
        if (std::fabs(d.relative) > threshold) changed.push_back(d);
    }
    std::stable_sort(changed.begin(), changed.end(), [](const StatDifference& x, const StatDifference& y) {
        return std::fabs(x.relative) > std::fabs(y.relative);
    });
    changed.insert(changed.end(), oneSided.begin(), oneSided.end());
    return changed;
}

double parseThreshold(const std::string& text) {
    const bool percent = !text.empty() && text.back() == '%';
    const std::string number = percent ? text.substr(0, text.size() - 1) : text;
    size_t used = 0;
    double v = -1;
    try {
        v = std::stod(number, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (number.empty() || used != number.size() || !std::isfinite(v) || v < 0)
        throw InputError("--threshold: '" + text + "' is not a non-negative number or percentage (e.g. 1% or 0.01)");
    return percent ? v / 100 : v;
}

namespace {

std::string cell(const std::optional<double>& v) { return v ? formatStat(*v) : "-"; }

std::string change(const StatDifference& d) {
    if (!d.a) return "only in B";
    if (!d.b) return "only in A";
    if (std::isinf(d.relative)) return d.relative > 0 ? "+inf (A is 0)" : "-inf (A is 0)";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.2f%%", 100 * d.relative);
    return buf;
}

} // namespace

int cmdDiff(const std::vector<std::string>& args) {
    std::vector<std::string> files;
    std::string threshold = "0";
    po::options_description d("gpusim diff options");
    d.add_options()("files", po::value(&files)->value_name("FILE"),
                    "two statistics files (gpusim run --stats, or regression goldens)")(
        "threshold", po::value(&threshold)->value_name("CHANGE")->default_value(threshold),
        "list only relative changes larger than this (e.g. 1% or 0.01)")("help,h", "show these options");
    po::positional_options_description pos;
    pos.add("files", 2);
    const auto vm = parseCommandLine(d, args, &pos);
    if (vm.count("help")) {
        std::cout << helpText("usage: gpusim diff A.json B.json [--threshold 1%]",
                              "The statistics that differ, largest relative change (B - A) / |A| first.\n"
                              "Exit status 0: no difference above the threshold; 1: some.",
                              d);
        return 0;
    }
    if (files.size() != 2) throw InputError("diff: expected two statistics files, A.json and B.json");
    const double t = parseThreshold(threshold);
    const json a = readRunDocument(files[0]), b = readRunDocument(files[1]);
    const std::vector<StatDifference> diffs = statDifferences(a, b, t, files[0], files[1]);
    size_t width = 9;
    for (const auto& x : diffs) width = std::max(width, x.name.size());
    char buf[512];
    std::printf("# A: %s\n# B: %s\n", files[0].c_str(), files[1].c_str());
    if (diffs.empty()) {
        std::printf("no statistic differs by more than %s\n", threshold.c_str());
        return 0;
    }
    std::snprintf(buf, sizeof buf, "%-*s  %14s  %14s  %s\n", int(width), "statistic", "A", "B", "change");
    std::cout << buf;
    for (const auto& x : diffs) {
        std::snprintf(buf, sizeof buf, "%-*s  %14s  %14s  %s\n", int(width), x.name.c_str(), cell(x.a).c_str(),
                      cell(x.b).c_str(), change(x).c_str());
        std::cout << buf;
    }
    std::cout << diffs.size() << " statistics differ by more than " << threshold << "\n";
    return 1;
}

} // namespace gpusim
