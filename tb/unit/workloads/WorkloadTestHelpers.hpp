#pragma once
// Shared by the workload unit tests: pulling whole streams (small sizes only) and comparing
// instructions field by field.
#include <cstdint>
#include <set>
#include <vector>

#include "workloads/Kernel.hpp"

namespace gpusim::test {

inline std::vector<WarpInstruction> drain(const Kernel& k, uint64_t cta, unsigned warp) {
    std::vector<WarpInstruction> out;
    auto s = k.warp(cta, warp);
    WarpInstruction in;
    while (s->next(in)) out.push_back(in);
    return out;
}

inline std::vector<WarpInstruction> drainByLinearWarp(const Kernel& k, uint64_t globalWarp) {
    const unsigned wpc = k.info().warpsPerCta();
    return drain(k, globalWarp / wpc, static_cast<unsigned>(globalWarp % wpc));
}

inline uint64_t countInstructions(const Kernel& k) {
    uint64_t total = 0;
    for (uint64_t cta = 0; cta < k.info().ctas(); ++cta)
        for (unsigned w = 0; w < k.info().warpsPerCta(); ++w) {
            auto s = k.warp(cta, w);
            WarpInstruction in;
            while (s->next(in)) ++total;
        }
    return total;
}

constexpr uint64_t kLineBytes = 128;

inline size_t distinctLines(const WarpInstruction& in) {
    std::set<uint64_t> lines;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
        if (in.activeMask >> lane & 1u) lines.insert(in.addr[lane] / kLineBytes);
    return lines.size();
}

// Addresses count only where the SM reads them: active lanes of memory instructions.
inline bool sameInstruction(const WarpInstruction& a, const WarpInstruction& b) {
    if (!(a.pc == b.pc && a.op == b.op && a.space == b.space && a.activeMask == b.activeMask &&
          a.numDst == b.numDst && a.numSrc == b.numSrc && a.dst == b.dst && a.src == b.src &&
          a.accessBytes == b.accessBytes))
        return false;
    if (!a.isMemory()) return true;
    for (unsigned lane = 0; lane < kWarpSize; ++lane)
        if ((a.activeMask >> lane & 1u) && a.addr[lane] != b.addr[lane]) return false;
    return true;
}

} // namespace gpusim::test
