#include "cli/RunDocument.hpp"

#include <cmath>
#include <cstdio>
#include <fstream>

#include "common/SimError.hpp"

namespace gpusim {

nlohmann::json readRunDocument(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw InputError(path + ": cannot open");
    nlohmann::json doc;
    try {
        doc = nlohmann::json::parse(in);
    } catch (const nlohmann::json::parse_error& e) {
        throw InputError(path + ": not valid JSON (" + e.what() + ")");
    }
    if (!doc.is_object() || !doc.contains("stats") || !doc["stats"].is_object())
        throw InputError(path + ": no \"stats\" object (not a file written by gpusim run --stats)");
    return doc;
}

StatValue statValue(const nlohmann::json& v, const std::string& name, const std::string& where) {
    StatValue s;
    if (v.is_number()) {
        s.value = v.get<double>();
        return s;
    }
    if (v.is_object() && v.contains("mean") && v.contains("count") && v["mean"].is_number() &&
        v["count"].is_number()) {
        s.sampled = true;
        s.value = v["mean"].get<double>();
        s.count = v["count"].get<double>();
        s.sum = v.contains("sum") && v["sum"].is_number() ? v["sum"].get<double>() : s.value * s.count;
        s.min = v.value("min", 0.0);
        s.max = v.value("max", 0.0);
        return s;
    }
    throw InputError(where + ": stats." + name + ": expected a number or an object with mean and count");
}

std::string formatStat(double v) {
    char buf[64];
    if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else
        std::snprintf(buf, sizeof buf, "%.6g", v);
    return buf;
}

} // namespace gpusim
