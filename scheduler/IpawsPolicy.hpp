#pragma once
// iPAWS, instruction-issue pattern-based adaptive warp scheduling (Lee et al., the iPAWS paper in
// shared/papers, sections 3.1-3.4, 4.2 and 5.4). Three phases per kernel (Fig. 6):
// - Adapt: the greedy policy (GTO for `ipaws`, CCWS for `ipaws-ccws`) schedules while per-warp
//   counters record instructions issued, barrier wait (the barrier score of section 3.3) and
//   issue stalls, until the SM's first warp finishes. IssuePatternClassifier then decides: concave
//   keeps the greedy policy, convex switches to round-robin.
// - Recover (convex only): least-instructions-issued first, until the warp that had issued the
//   least at the end of Adapt (the newest of equals) has issued as many instructions as the
//   SM's most advanced warp had then (the paper: "matches the number of instruction issued from
//   the oldest warp"), or ends.
// - Execute: the chosen policy (LRR, or the greedy one) until the kernel ends.
// Shared decision: by default every SM applies the decision of the first SM to finish adapting
// (IpawsDecisionBoard, one per GPU); an SM still adapting adopts it from the next cycle and an SM
// that decided itself waits that one cycle for the board, so all SMs apply the same winner. With
// per_sm each SM decides alone (the paper's iPAWS_ind_cores) and switches at once.
// Issue-stall counter (section 3.2: "the number of times each warp is stalled even though it is
// the oldest warp"; the oldest warp with the highest count is the WOI limit), three readings
// (parameter stall_counter; docs/schedulers.md compares them):
// - unit busy (default): the scheduler reached the warp in its order, the warp was free of
//   hazards, and its unit was busy (GPGPU-Sim's "issue stall", counted by the SM). Warps that
//   never got their turn sit ready behind a busy LD/ST unit and collect about the same, highest,
//   count, so "the oldest warp with the highest value" lies near the frontier of warps that had
//   a fair chance (the paper's intuition, and WOIs like its Table 3's). No tolerance is applied:
//   when the youngest of them has a few more, the WOI is every warp (blackscholes).
// - head: the warp at the head of its scheduler's greedy order (GTO's greedy warp, else the
//   oldest) fails to issue in a cycle. Counted here.
// - oldest ready: the oldest hazard-free warp of a scheduler does not issue (counted by the SM).
// Counting every failed attempt, hazards included, would always put the maximum on the oldest
// warp (a warp is tried only after every older one failed), so no reading does that.
// Choices where the paper is silent are parameters (see PolicyRegistry and docs/schedulers.md):
// barrier-score mode, WOI inclusion of the limit warp, threshold factor, recover on/off and goal.
// Both sub-policies observe every event throughout, so each is current when it takes over (CCWS's
// detector keeps learning while RR schedules).
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "scheduler/IpawsDecisionBoard.hpp"
#include "scheduler/IssuePatternClassifier.hpp"
#include "scheduler/LrrPolicy.hpp"
#include "scheduler/SchedulerPolicy.hpp"

namespace gpusim {

class Counter;

class IpawsPolicy : public SchedulerPolicy {
public:
    // btime_i grows per cycle at a barrier: never; when any other warp of the SM issues; every
    // cycle; when another warp of the same CTA (the warps the barrier waits for) issues.
    enum class BarrierScore { None = 0, WhileOthersIssue = 1, EveryCycle = 2, WhileCtaIssues = 3 };
    enum class Phase { Idle, Adapt, Decided, Recover, Execute };

    // Which per-warp issue-stall counter sets the WOI limit (see the header comment).
    enum class StallCounter { Head = 0, OldestReady = 1, UnitBusy = 2 };

    struct Params {
        BarrierScore barrier = BarrierScore::WhileCtaIssues;
        StallCounter stalls = StallCounter::UnitBusy;
        IssuePatternParams classifier;  // its barrierScore follows `barrier`
        bool recover = true;
        double recoverFraction = 1.0;   // recover goal = fraction x the most advanced warp's count
    };

    // `greedy`: the policy of the Adapt phase and of concave kernels (GtoPolicy, CcwsPolicy).
    // `board`: the GPU's shared board; null gives this SM a private one (per-SM decisions).
    IpawsPolicy(const Params& p, std::unique_ptr<SchedulerPolicy> greedy, std::shared_ptr<IpawsDecisionBoard> board);

    std::string name() const override;
    IssueStallCount issueStallCount() const override;
    void attach(const SmView& sm) override;
    void registerStats(StatRegistry& stats, const std::string& prefix) override;
    void order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) override;
    bool canIssue(unsigned warp, const SmView& sm) override;
    void onCycle(uint64_t cycle, const SmView& sm) override;
    void onIssue(unsigned sched, unsigned warp, const SmView& sm) override;
    void onL1Access(const L1AccessEvent& e) override;
    void onL1Evict(uint64_t lineAddr, int ownerWarp) override;
    void onMshrAlloc(uint64_t lineAddr) override;
    void onMshrFree(uint64_t lineAddr) override;
    void onLoadServiced(const LoadServicedEvent& e) override;
    void onLoadComplete(unsigned warp, uint64_t pc, bool fullyCached, unsigned accesses) override;
    void onBarrierArrive(unsigned warp) override;
    void onBarrierRelease(unsigned ctaSlot) override;
    void onWarpStart(unsigned warp) override;
    void onWarpEnd(unsigned warp) override;
    void onCtaStart(unsigned ctaSlot) override;
    void onCtaEnd(unsigned ctaSlot) override;
    void onKernelStart() override;
    void onKernelEnd() override;

    // For tests and statistics.
    Phase phase() const { return phase_; }
    bool fair() const { return useRr_; }  // the decision applied for this kernel: RR
    uint64_t instructions(unsigned warp) const { return at(inst_, warp); }
    uint64_t barrierWait(unsigned warp) const { return at(btime_, warp); }
    uint64_t issueStalls(unsigned warp) const { return at(stalls_, warp); }
    // This SM's own classification for the current kernel (valid once its Adapt phase ended on
    // its own first finished warp).
    const IssuePattern* ownPattern() const { return ownValid_ ? &own_ : nullptr; }
    int recoverTarget() const { return target_; }
    uint64_t recoverGoal() const { return goal_; }
    uint64_t adaptCycles() const { return adaptCycles_; }    // of the current/last kernel
    uint64_t recoverCycles() const { return recoverCycles_; }
    const IpawsDecisionBoard& board() const { return *board_; }
    const SchedulerPolicy& greedy() const { return *greedy_; }

private:
    static uint64_t at(const std::vector<uint64_t>& v, unsigned w) { return w < v.size() ? v[w] : 0; }
    bool greedyActive() const { return phase_ != Phase::Recover && !(phase_ == Phase::Execute && useRr_); }
    void openCycle(const SmView& sm);
    void closeCycle();
    void finishAdapt(const SmView& sm);
    void apply(const IpawsDecision& d, uint64_t firstCycle);
    void endRecover(uint64_t firstCycle);
    void kernelStat(const std::string& leaf, const std::string& desc, uint64_t v);

    Params p_;
    std::unique_ptr<SchedulerPolicy> greedy_;
    LrrPolicy rr_;
    std::shared_ptr<IpawsDecisionBoard> board_;
    bool shared_;
    const SmView* sm_ = nullptr;

    Phase phase_ = Phase::Idle;
    int kernel_ = -1;
    bool useRr_ = false, decided_ = false, started_ = false;
    uint64_t kernelFirstCycle_ = 0, lastCycle_ = 0, recoverStart_ = 0;
    uint64_t adaptCycles_ = 0, recoverCycles_ = 0;

    // Adapt-phase counters, per warp slot.
    std::vector<uint64_t> inst_, btime_, stalls_, age_;
    std::vector<uint8_t> seen_;
    uint64_t endedMax_ = 0;  // most instructions of a warp that ended in this kernel
    IssuePattern own_;
    bool ownValid_ = false;

    // The cycle being observed (closed at the next onCycle or when Adapt ends).
    static constexpr unsigned kSchedulers = 2;
    bool cycleOpen_ = false;
    std::array<int, kSchedulers> head_{-1, -1};
    std::array<bool, kSchedulers> headIssued_{false, false};
    struct Waiter {
        unsigned warp, cta;  // a warp at a barrier this cycle and its CTA slot
    };
    std::vector<Waiter> atBarrier_;
    std::vector<unsigned> issuedCtas_;  // CTA slots of the warps issued this cycle (none: no issue)

    int target_ = -1;
    uint64_t goal_ = 0;

    StatRegistry* stats_ = nullptr;
    std::string prefix_;
    Counter *rrKernels_ = nullptr, *greedyKernels_ = nullptr, *ownDecisions_ = nullptr,
            *adaptTotal_ = nullptr, *recoverTotal_ = nullptr, *undecided_ = nullptr;
};

} // namespace gpusim
