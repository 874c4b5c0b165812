#pragma once
// `lpc`: CWLP's cache part alone (the paper's "LPC" bars in Figs. 10-11): the L1D uses the
// PC-based locality-protected replacement (modules/LpcReplacement) and warps issue in the base
// LRR order, unchanged.
#include "scheduler/LrrPolicy.hpp"

namespace gpusim {

class LpcPolicy : public LrrPolicy {
public:
    std::string name() const override { return "lpc"; }
    std::optional<L1ReplacementKind> l1Replacement() const override { return L1ReplacementKind::Lpc; }
};

} // namespace gpusim
