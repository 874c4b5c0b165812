#pragma once
// A run's statistics document as `gpusim run --stats` writes it (platforms/RunSummary.hpp), read
// back by the commands that print or compare runs (`gpusim stats`, `gpusim diff`). Any JSON
// object with a "stats" object is accepted, so a regression golden reads too.
#include <string>

#include <nlohmann/json.hpp>

namespace gpusim {

// Throws InputError naming the path when it cannot be read, is not JSON (with the parser's
// position) or has no "stats" object.
nlohmann::json readRunDocument(const std::string& path);

// One statistic's value as the JSON holds it: a number (a counter), or an average's or a
// histogram's object (mean, count, min, max; an average also holds its sum).
struct StatValue {
    double value = 0;      // the number, or the mean
    bool sampled = false;  // an average or a histogram
    double count = 0, sum = 0, min = 0, max = 0;
};
// Throws InputError naming `where` and the statistic when the value is neither.
StatValue statValue(const nlohmann::json& v, const std::string& name, const std::string& where);

// A number as the readable dumps print it: an integer without a point, else 6 significant digits.
std::string formatStat(double v);

} // namespace gpusim
