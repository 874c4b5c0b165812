#include "scheduler/OwlCtaGroups.hpp"

#include <algorithm>

namespace gpusim {

std::vector<std::vector<OwlCta>> formOwlGroups(std::vector<OwlCta> ctas, unsigned minWarps) {
    std::sort(ctas.begin(), ctas.end(), [](const OwlCta& a, const OwlCta& b) {
        return a.ctaId != b.ctaId ? a.ctaId < b.ctaId : a.slot < b.slot;
    });
    std::vector<std::vector<OwlCta>> groups;
    std::vector<OwlCta> open;
    unsigned warps = 0;
    for (const OwlCta& c : ctas) {
        open.push_back(c);
        warps += c.warps;
        if (warps >= minWarps) {
            groups.push_back(std::move(open));
            open.clear();
            warps = 0;
        }
    }
    if (!open.empty()) {
        // Short remainder: it joins the last group rather than form one below the minimum.
        if (groups.empty())
            groups.push_back(std::move(open));
        else
            groups.back().insert(groups.back().end(), open.begin(), open.end());
    }
    return groups;
}

} // namespace gpusim
