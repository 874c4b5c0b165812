#pragma once
// "name:k=v,k=v" as used by --scheduler and --workload. Values stay strings; the consumer
// validates them against its own parameter declarations.
#include <map>
#include <string>

#include "common/SimError.hpp"

namespace gpusim {

struct Spec {
    std::string name;
    std::map<std::string, std::string> params;  // sorted: deterministic iteration
};

// `what` names the option in error messages ("--workload").
inline Spec parseSpec(const std::string& text, const std::string& what) {
    Spec s;
    auto colon = text.find(':');
    s.name = text.substr(0, colon);
    if (s.name.empty()) throw InputError(what + ": '" + text + "': missing name");
    if (colon == std::string::npos) return s;
    std::string rest = text.substr(colon + 1);
    size_t pos = 0;
    while (pos <= rest.size()) {
        size_t comma = rest.find(',', pos);
        std::string item = rest.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        auto eq = item.find('=');
        if (item.empty() || eq == std::string::npos || eq == 0 || eq + 1 == item.size())
            throw InputError(what + ": '" + text + "': expected name:key=value[,key=value...]");
        std::string key = item.substr(0, eq);
        if (s.params.count(key)) throw InputError(what + ": '" + text + "': " + key + " given twice");
        s.params[key] = item.substr(eq + 1);
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    return s;
}

} // namespace gpusim
