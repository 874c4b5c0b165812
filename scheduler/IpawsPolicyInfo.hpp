#pragma once
// The registry entries of iPAWS: `ipaws` (RR/GTO) and, given the greedy policy's own entry,
// `ipaws-<greedy>` (the paper's section 4.2, RR/CCWS: `ipaws-ccws`), whose parameters are iPAWS's
// followed by the greedy policy's. Parameters and defaults: docs/schedulers.md.
#include "scheduler/PolicyRegistry.hpp"

namespace gpusim {

// `greedy`: null for GTO; otherwise the entry whose make() builds the Adapt/concave policy.
PolicyInfo ipawsPolicyInfo(const PolicyInfo* greedy = nullptr);

} // namespace gpusim
