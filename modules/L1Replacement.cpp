#include "modules/L1Replacement.hpp"

#include "common/SimError.hpp"
#include "modules/LpcReplacement.hpp"
#include "modules/LruReplacement.hpp"

namespace gpusim {

std::unique_ptr<L1Replacement> makeL1Replacement(L1ReplacementKind kind, unsigned sets, unsigned ways,
                                                 StatRegistry& stats, const std::string& prefix) {
    if (kind == L1ReplacementKind::Lpc) return std::make_unique<LpcReplacement>(sets, ways, stats, prefix);
    return std::make_unique<LruReplacement>(sets, ways);
}

std::unique_ptr<L1Replacement> makeL1Replacement(const std::string& name, unsigned sets, unsigned ways,
                                                 StatRegistry& stats, const std::string& prefix) {
    if (name == "lru") return makeL1Replacement(L1ReplacementKind::Lru, sets, ways, stats, prefix);
    if (name == "lpc") return makeL1Replacement(L1ReplacementKind::Lpc, sets, ways, stats, prefix);
    throw ModelError("L1D: unknown replacement policy '" + name + "'");
}

const std::vector<std::string>& l1ReplacementNames() {
    static const std::vector<std::string> names{"lru", "lpc"};
    return names;
}

} // namespace gpusim
