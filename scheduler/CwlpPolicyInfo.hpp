#pragma once
// The registry entries of CWLP: `lpc` (the locality-protected L1D replacement alone, LRR order)
// and `cwlp` (LPC plus locality-information-based reordering). Every number of the paper is a
// parameter here; defaults and the choices behind them: docs/schedulers.md, "lpc and cwlp".
#include "scheduler/PolicyRegistry.hpp"

namespace gpusim {

PolicyInfo lpcPolicyInfo();
PolicyInfo cwlpPolicyInfo();

} // namespace gpusim
