#pragma once
// OWL's CTA grouping rule (Jog et al., ASPLOS 2013, "CTA-aware two-level warp scheduling"): the
// CTAs resident on an SM are split, on CTA boundaries, into groups of consecutive CTAs, each
// with at least `minWarps` warps (the paper: at least the pipeline depth; best at 8). Groups are
// filled greedily in CTA order; a remainder that would fall short of `minWarps` joins the last
// group. The paper's example: 10 CTAs of 2 warps, minimum 5 -> 3 + 3 + 4 CTAs (a fourth group
// of 1 CTA would have only 2 warps). With fewer than `minWarps` warps in all, one group.
// Pure logic: no SystemC, no SM; the policy (OwlPolicy) decides when to regroup.
#include <cstdint>
#include <vector>

namespace gpusim {

struct OwlCta {
    uint64_t ctaId;    // linear CTA id in the kernel (the order groups follow)
    unsigned slot;     // CTA slot in the SM
    unsigned warps;    // warps of the CTA
};

// Groups of `ctas` (any order on input; each group lists its CTAs in ctaId order, groups in the
// order of their first CTA). No CTA: no group.
std::vector<std::vector<OwlCta>> formOwlGroups(std::vector<OwlCta> ctas, unsigned minWarps);

} // namespace gpusim
