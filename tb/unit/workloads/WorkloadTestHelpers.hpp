#pragma once
// Shared by the workload unit tests: pulling whole streams (small sizes only), comparing
// instructions field by field, and counting what a kernel executes (census) to check against
// the formulas each test derives from the CUDA source and the modelled SASS.
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "workloads/Kernel.hpp"
#include "workloads/Workload.hpp"

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

namespace gpusim::test {

// Everything a kernel's warps execute, counted by draining every stream (small sizes only).
// Lines are 128-byte lines of global accesses (what the coalescer turns into L1D accesses).
struct Census {
    uint64_t warps = 0, instructions = 0, alu = 0, sfu = 0, tensor = 0, barriers = 0, exits = 0;
    uint64_t globalLoads = 0, globalStores = 0, sharedLoads = 0, sharedStores = 0;
    uint64_t loadLines = 0, storeLines = 0;  // sum over global loads / stores of their distinct lines
    uint64_t activeLanes = 0;                // sum over all instructions
    uint64_t memoryInstructions() const { return globalLoads + globalStores + sharedLoads + sharedStores; }
};

inline void tally(Census& c, const WarpInstruction& in) {
    ++c.instructions;
    c.activeLanes += in.activeLanes();
    switch (in.op) {
    case OpClass::Alu: ++c.alu; break;
    case OpClass::Sfu: ++c.sfu; break;
    case OpClass::Tensor: ++c.tensor; break;
    case OpClass::Barrier: ++c.barriers; break;
    case OpClass::Exit: ++c.exits; break;
    case OpClass::Load:
        if (in.space == MemSpace::Shared) ++c.sharedLoads;
        else {
            ++c.globalLoads;
            c.loadLines += distinctLines(in);
        }
        break;
    case OpClass::Store:
        if (in.space == MemSpace::Shared) ++c.sharedStores;
        else {
            ++c.globalStores;
            c.storeLines += distinctLines(in);
        }
        break;
    }
}

inline Census censusOf(const std::vector<WarpInstruction>& stream) {
    Census c;
    c.warps = 1;
    for (const auto& in : stream) tally(c, in);
    return c;
}

inline Census census(const Kernel& k) {
    Census c;
    for (uint64_t cta = 0; cta < k.info().ctas(); ++cta)
        for (unsigned w = 0; w < k.info().warpsPerCta(); ++w) {
            ++c.warps;
            auto s = k.warp(cta, w);
            WarpInstruction in;
            while (s->next(in)) tally(c, in);
        }
    return c;
}

inline Census census(const Workload& w) {
    Census total;
    for (const auto& k : w.kernels()) {
        const Census c = census(*k);
        total.warps += c.warps;
        total.instructions += c.instructions;
        total.alu += c.alu;
        total.sfu += c.sfu;
        total.tensor += c.tensor;
        total.barriers += c.barriers;
        total.exits += c.exits;
        total.globalLoads += c.globalLoads;
        total.globalStores += c.globalStores;
        total.sharedLoads += c.sharedLoads;
        total.sharedStores += c.sharedStores;
        total.loadLines += c.loadLines;
        total.storeLines += c.storeLines;
        total.activeLanes += c.activeLanes;
    }
    return total;
}

// Every warp of every kernel of `a` and `b` yields the same instructions (what a seed must fix).
inline bool sameWorkload(const Workload& a, const Workload& b) {
    if (a.kernels().size() != b.kernels().size()) return false;
    for (size_t k = 0; k < a.kernels().size(); ++k) {
        const Kernel& ka = *a.kernels()[k];
        const Kernel& kb = *b.kernels()[k];
        if (ka.info().ctas() != kb.info().ctas() || ka.info().warpsPerCta() != kb.info().warpsPerCta()) return false;
        for (uint64_t cta = 0; cta < ka.info().ctas(); ++cta)
            for (unsigned w = 0; w < ka.info().warpsPerCta(); ++w) {
                auto sa = ka.warp(cta, w), sb = kb.warp(cta, w);
                WarpInstruction ia, ib;
                for (;;) {
                    const bool ma = sa->next(ia), mb = sb->next(ib);
                    if (ma != mb) return false;
                    if (!ma) break;
                    if (!sameInstruction(ia, ib)) return false;
                }
            }
    }
    return true;
}

inline std::unique_ptr<Workload> makeWorkload(const std::string& spec, uint64_t seed = 1) {
    return WorkloadRegistry::builtin().create(spec, seed);
}

// Every warp of every kernel ends with exactly one EXIT of all its existing lanes, and memory
// instructions have no inactive-lane addresses the SM would read (lane masks within existMask).
inline bool wellFormed(const Kernel& k, std::string* why = nullptr) {
    for (uint64_t cta = 0; cta < k.info().ctas(); ++cta)
        for (unsigned w = 0; w < k.info().warpsPerCta(); ++w) {
            const auto s = drain(k, cta, w);
            const uint32_t exist = s.empty() ? 0 : s.back().activeMask;
            for (size_t p = 0; p < s.size(); ++p) {
                const bool last = p + 1 == s.size();
                if ((s[p].op == OpClass::Exit) != last || s[p].activeMask == 0 || (s[p].activeMask & ~exist) ||
                    s[p].pc % 16 != 0) {
                    if (why) *why = k.info().name + " cta " + std::to_string(cta) + " warp " + std::to_string(w) +
                                    " position " + std::to_string(p);
                    return false;
                }
            }
        }
    return true;
}

} // namespace gpusim::test
