#include "modules/InstructionCache.hpp"

#include "modules/SmConfig.hpp"

namespace gpusim {

InstructionCache::InstructionCache(const SmConfig& cfg, StatRegistry& stats, const std::string& p)
    : codeBase_(cfg.l1iCodeBase),
      path_({cfg.l1iBytes, cfg.l1iLine, cfg.l1iWays, cfg.l1iMshrEntries, cfg.l1iMshrMaxMerge, cfg.l1iMissQueue}, stats,
            p, "Fetches", "Instruction fetches looked up (one per instruction)") {}

} // namespace gpusim
