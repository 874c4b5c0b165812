#pragma once
// CWLP (Zhang et al., "CWLP: coordinated warp scheduling and locality-protected cache allocation
// on GPUs", FITEE 2018): LPC replacement in the L1D (modules/LpcReplacement, asked for through
// l1Replacement()) plus locality-information-based warp reordering (section 5.2, Algorithm 2,
// Fig. 9) on top of the base LRR order.
// - The locality information score (LocalityInfoScore) sums the PCAU's reuse predictions of the
//   last 10 L1D accesses; with locality (> 5 of 10) the LRR order is kept, otherwise the queue
//   is reordered.
// - Reordering interleaves long- and short-latency warps (Fig. 7) with Fig. 9's priority: the
//   oldest warp whose latency class differs from the last warp issued (the XOR term) first, then
//   any warp whose class differs, then the oldest, then by warp number. As the issue stage takes
//   the first qualifying warp of the order, sorting by (class equal to the last issued, age,
//   slot) yields exactly that choice among the ready warps.
// Choices where the paper is silent (docs/schedulers.md, "lpc and cwlp"):
// - Latency class (long_class = 0): a warp is long when its next instruction is a global/local
//   load or store ("long latency warps have accesses to the global memory"); long_class = 1 uses
//   the scoreboard instead: long while the warp has loads in flight.
// - The last issued class is per issue scheduler; before a scheduler's first issue no class
//   differs, so the order is oldest first. "Oldest" is the warp's launch order in the SM.
// - The LIS is per SM (one L1D), shared by both schedulers, and kept across kernels.
#include <array>
#include <cstdint>
#include <vector>

#include "scheduler/LocalityInfoScore.hpp"
#include "scheduler/LrrPolicy.hpp"

namespace gpusim {

class Counter;

class CwlpPolicy : public SchedulerPolicy {
public:
    struct Params {
        LocalityInfoScore::Params lis;
        unsigned longClass = 0;  // 0: next instruction accesses global memory; 1: loads in flight
    };
    explicit CwlpPolicy(const Params& p) : p_(p), lis_(p.lis) {}

    std::string name() const override { return "cwlp"; }
    std::optional<L1ReplacementKind> l1Replacement() const override { return L1ReplacementKind::Lpc; }
    void registerStats(StatRegistry& stats, const std::string& prefix) override;
    void order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) override;
    void onIssue(unsigned sched, unsigned warp, const SmView& sm) override;
    void onL1Access(const L1AccessEvent& e) override;

    bool isLong(const WarpView& w) const;
    const LocalityInfoScore& lis() const { return lis_; }

private:
    static constexpr unsigned kSchedulers = 2;
    static constexpr int8_t kNone = -1, kShort = 0, kLong = 1;
    Params p_;
    LocalityInfoScore lis_;
    LrrPolicy lrr_;
    std::array<int8_t, kSchedulers> lastClass_{kNone, kNone};
    std::array<bool, kSchedulers> reordered_{false, false};  // the order given this cycle
    std::vector<int8_t> classAtOrder_;                        // per slot, from the last order()
    Counter *windows_ = nullptr, *localityWindows_ = nullptr, *reorderedCycles_ = nullptr,
            *reorderedIssues_ = nullptr, *alternatingIssues_ = nullptr;
};

} // namespace gpusim
