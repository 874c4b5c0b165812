#pragma once
// `gpusim diff A.json B.json [--threshold 1%]`: the statistics two runs' files (or a run and a
// regression golden) disagree on, largest relative change first. A statistic's figure is its
// number, or an average's or histogram's mean; the relative change is (B - A) / |A|, infinite
// when A is 0 and B is not. Statistics present in one file only are listed after the changes.
// Exit status 0 when nothing differs by more than the threshold, 1 when something does, 2 on
// bad input.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpusim {

struct StatDifference {
    std::string name;
    std::optional<double> a, b;  // nullopt: absent from that file
    double relative = 0;         // (b - a) / |a|; +-inf when a == 0; 0 for a one-sided entry
};

// Every statistic whose relative change exceeds `threshold` (a fraction, >= 0) in magnitude,
// sorted by |relative| descending (ties by name), then those present in one file only (by name).
std::vector<StatDifference> statDifferences(const nlohmann::json& a, const nlohmann::json& b, double threshold,
                                            const std::string& whereA, const std::string& whereB);

// "1%" -> 0.01, "0.5%" -> 0.005, "0.02" -> 0.02; throws InputError naming --threshold otherwise.
double parseThreshold(const std::string& text);

int cmdDiff(const std::vector<std::string>& args);

} // namespace gpusim
