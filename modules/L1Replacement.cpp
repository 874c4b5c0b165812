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

L1ReplacementKind parseL1Replacement(const std::string& name) {
    if (name == "lru") return L1ReplacementKind::Lru;
    if (name == "lpc") return L1ReplacementKind::Lpc;
    throw ModelError("L1D: unknown replacement policy '" + name + "'");
}

const std::vector<std::string>& l1ReplacementNames() {
    static const std::vector<std::string> names{"lru", "lpc"};
    return names;
}

} // namespace gpusim
