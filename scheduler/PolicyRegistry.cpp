#include "scheduler/PolicyRegistry.hpp"

#include <cmath>
#include <sstream>

#include "common/Spec.hpp"
#include "scheduler/GtoPolicy.hpp"
#include "scheduler/LrrPolicy.hpp"

namespace gpusim {

nlohmann::json PolicyChoice::toJson() const {
    nlohmann::json j = {{"name", info ? info->name : ""}, {"params", nlohmann::json::object()}};
    for (const auto& [k, v] : params) j["params"][k] = v;
    return j;
}

const PolicyRegistry& PolicyRegistry::builtin() {
    static const PolicyRegistry reg = [] {
        PolicyRegistry r;
        r.add({"lrr", "loose round-robin: turns in warp-slot order, skipping warps that cannot issue",
               {},
               [](const std::map<std::string, double>&) { return std::make_unique<LrrPolicy>(); }});
        r.add({"gto", "greedy-then-oldest: the last issuer until it stalls, then the oldest warp",
               {},
               [](const std::map<std::string, double>&) { return std::make_unique<GtoPolicy>(); }});
        return r;
    }();
    return reg;
}

void PolicyRegistry::add(PolicyInfo info) { infos_.push_back(std::move(info)); }

PolicyChoice PolicyRegistry::parse(const std::string& text) const {
    const std::string what = "--scheduler";
    Spec spec = parseSpec(text, what);
    PolicyChoice choice;
    for (const auto& i : infos_)
        if (i.name == spec.name) choice.info = &i;
    if (!choice.info)
        throw InputError(what + ": unknown scheduler '" + spec.name +
                         "' (see gpusim list schedulers)");
    for (const auto& p : choice.info->params) choice.params[p.name] = p.defaultValue;
    for (const auto& [k, v] : spec.params) {
        const PolicyParam* decl = nullptr;
        for (const auto& p : choice.info->params)
            if (p.name == k) decl = &p;
        if (!decl) {
            std::string known;
            for (const auto& p : choice.info->params) known += (known.empty() ? "" : ", ") + p.name;
            throw InputError(what + ": " + spec.name + ": unknown parameter '" + k + "' (known: " +
                             (known.empty() ? "none" : known) + ")");
        }
        char* end = nullptr;
        double x = std::strtod(v.c_str(), &end);
        if (end == v.c_str() || *end != '\0' || !std::isfinite(x))
            throw InputError(what + ": " + spec.name + ": " + k + ": '" + v + "' is not a number");
        if (x < decl->min || x > decl->max) {
            std::ostringstream os;
            os << what << ": " << spec.name << ": " << k << ": " << v << " is out of range "
               << decl->min << " .. " << decl->max;
            throw InputError(os.str());
        }
        choice.params[k] = x;
    }
    return choice;
}

std::string PolicyRegistry::listing() const {
    std::ostringstream os;
    for (const auto& i : infos_) {
        os << i.name << "  " << i.description << "\n";
        for (const auto& p : i.params)
            os << "    " << p.name << "=" << p.defaultValue << "  [" << p.min << " .. " << p.max
               << "]  " << p.description << "\n";
    }
    return os.str();
}

} // namespace gpusim
