#pragma once
// MASCAR (Sethia et al., HPCA 2015) as the OAWS paper describes and configures it (its Section 5):
// - Saturation: the memory subsystem is saturated when the L1D has at most `saturation_free`
//   (1) free MSHR entries or at most that many free miss-queue slots ("memory port").
// - Not saturated (memory-priority mode): warps whose next instruction is a global/local memory
//   instruction come first, GTO among them, then the other warps in GTO order.
// - Saturated (compute-priority mode): one owner warp keeps the right to issue memory
//   instructions; the other warps may issue only non-memory instructions. Order: the owner, then
//   GTO.
// - Cache access re-execution: the LD/ST unit parks an L1D access refused for want of an MSHR or
//   a miss-queue slot in a 32-entry re-execution queue and goes on with the instruction's next
//   access, so accesses that would hit are not held behind it; parked accesses retry, oldest
//   first, whenever the L1D could take the oldest one (the SM side: LdStUnit).
// Where the owner's right is enforced (`send_gate`): 0, at issue (Sethia et al.: the other warps'
// memory instructions wait in the scheduler); 1, in the LD/ST unit, as the OAWS paper describes
// its MASCAR (section 5.2: it "prevents memory accesses of non-owner warps from being sent out,
// i.e., replaying them until saturation is resolved"): every warp issues memory instructions, and
// at saturation a non-owner's access that would send a request below the L1D (a miss needing an
// MSHR entry, a store, an atomic) is parked in the re-execution queue and retried; hits and
// merges go on. Saturation is read when the LD/ST unit asks (it may end between two cycles'
// issue stages); the owner is the one onCycle() chose.
// Choices where the paper is silent: on entering saturation the owner is the warp that issued a
// memory instruction last; ownership passes (to the oldest warp whose next instruction is a memory
// instruction) when the owner ends, or when its next instruction is not a memory instruction while
// it still has loads in flight (it is about to wait for its data).
#include <vector>

#include "scheduler/GtoPolicy.hpp"

namespace gpusim {

class Counter;

class MascarPolicy : public SchedulerPolicy {
public:
    struct Params {
        unsigned reexecEntries = 32;
        unsigned saturationFree = 1;
        bool sendGate = false;
    };
    explicit MascarPolicy(const Params& p) : p_(p) {}
    std::string name() const override { return "mascar"; }
    unsigned reexecutionQueueEntries() const override { return p_.reexecEntries; }

    void attach(const SmView& sm) override {
        view_ = &sm;
        memoryIssue_.assign(sm.warpSlots(), 0);
        scratch_.reserve(sm.warpSlots());
    }
    void registerStats(StatRegistry& stats, const std::string& prefix) override;
    void order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) override;
    bool canIssue(unsigned warp, const SmView& sm) override;
    void onCycle(uint64_t cycle, const SmView& sm) override;
    void onIssue(unsigned sched, unsigned warp, const SmView& sm) override;
    void onWarpEnd(unsigned warp) override;
    bool gatesSendBelowL1() const override { return p_.sendGate; }
    bool maySendBelowL1(unsigned warp) override;

    bool saturated() const { return saturated_; }
    int owner() const { return owner_; }

private:
    static bool isMemory(const WarpView& v) { return v.nextIsLoad || v.nextIsStore; }
    bool ownerShouldPass(const SmView& sm) const;
    bool saturatedNow(const SmView& sm) const {
        return sm.mshrFree() <= p_.saturationFree || sm.missQueueFree() <= p_.saturationFree;
    }
    int oldestMemoryWarp(const SmView& sm) const;

    Params p_;
    GtoPolicy gto_;
    // The SM attach() was given: the send gate reads saturation when the LD/ST unit asks, since
    // onCycle() is not called once no warp is resident, while parked stores may still be queued.
    const SmView* view_ = nullptr;
    bool saturated_ = false;
    int owner_ = -1;
    int lastMemoryIssuer_ = -1;
    std::vector<uint8_t> memoryIssue_;  // per slot: the issue being committed is a memory one
    std::vector<unsigned> scratch_;
    Counter *saturatedCycles_ = nullptr, *ownerChanges_ = nullptr, *blocked_ = nullptr, *held_ = nullptr;
};

} // namespace gpusim
