// What an SM skips without changing any result (issue 10, issue 19): the sleep of an SM in which
// nothing can move before an answer, a CTA or its own next timed result (stalled(), counted late
// by settleSleep(), the domain skipping its steps meanwhile), and the parked issue stage of an SM
// whose memory side still moves while no warp can issue (parkable()). Each skipped cycle counts
// what a ticked one would; tb/unit/modules/sm_core_sleep_test.cpp works the cases out by hand.
#include <algorithm>

#include "modules/SmCore.hpp"

namespace gpusim {

bool SmCore::onlyLdstReady(bool& ldstReady) const {
    ldstReady = false;
    for (const uint32_t units : readyUnits_) {
        if (units & ~(1u << kUnitLdSt)) return false;
        if (units) ldstReady = true;
    }
    return true;
}

bool SmCore::parkable() {
    if (collector_ || exitedWarps_ || !residentWarps_ || anyFetchRetry()) return false;
    if (cfg_.fetchOneWarp ? nextFetchWarp() >= 0 : anyFetchPending()) return false;
    bool ldstReady = false;
    if (!onlyLdstReady(ldstReady) || (ldstReady && ldst_.free())) return false;
    parkVersion_ = issueVersion_;
    parkLdstReady_ = ldstReady;
    return true;
}

bool SmCore::stalled(uint64_t& until) {
    if (!answers_q_.empty() || port_.hasHeldResponse()) return false;
    // A request waiting in a cache while the port is blocked (the NoC has not sent END_REQ for
    // the last one) cannot leave before END_REQ, which wakes the SM.
    const bool portBlocked = !port_.canSend();
    if (!portBlocked && (l1_.hasOutgoing() || constCache_.hasOutgoing() || texCache_.hasOutgoing())) return false;
    // The LD/ST unit either only waits for what is in flight, or (without a collector, whose
    // queue could still take a memory instruction) repeats a refusal: an MSHR one that only a
    // fill can end (a fill comes as an answer, which wakes the SM), or a full miss queue's, which
    // only the blocked port's END_REQ can end.
    using Refusal = LdStUnit::Refusal;
    Refusal refusal = collector_ ? Refusal::None : ldst_.blockedOn();
    if (refusal == Refusal::MissQueue && !portBlocked) refusal = Refusal::None;
    const bool blocked = refusal != Refusal::None;
    if (!blocked && !ldst_.onlyWaiting()) return false;
    if (collector_ && !collector_->empty()) return false;
    if (l1i_ && (l1i_->hasOutgoing() || anyFetchRetry())) return false;
    if (cfg_.fetchOneWarp && nextFetchWarp() >= 0) return false;  // a fetch to make next cycle
    // No warp ready: each waits for something only a result, an answer or another warp's
    // barrier arrival (impossible while all wait) can change; a ready warp blocked by a busy unit
    // or the policy's gate might issue next cycle. The exception: warps ready for a blocked LD/ST
    // unit, which stays busy until the fill.
    bool ldstReady = false;
    if (!onlyLdstReady(ldstReady) || (ldstReady && !blocked)) return false;
    until = std::min({alu_.nextReady(), sfu_.nextReady(), tensor_.nextReady(), ldst_.nextTimedReturn()});
    sleepRefusal_ = refusal;
    sleepLdstReady_ = ldstReady;
    return true;
}

// What tick() does in the cycles in which nothing moves, for the cycles slept so far: the
// per-cycle statistics of an SM with resident warps that issues nothing (the MSHR occupancy
// cannot change without a fill). Counted once per sleep instead of at every slept tick (issue 19).
void SmCore::settleSleep() {
    const uint64_t n = skipped_;
    if (n == 0) return;
    skipped_ = 0;
    sleptTicks_ += n;
    // The LD/ST unit's replay of its refused access: counted even without resident warps, as
    // step() would count it.
    if (sleepRefusal_ != LdStUnit::Refusal::None) ldst_.repeatRefusal(sleepRefusal_, n);
    if (!sleepResident_) return;
    activeCycles_.inc(n);
    mshrOccupancy_.sampleLevel(sleepMshr_, n);
    countIdleIssue(sleepLdstReady_, n);
}

} // namespace gpusim
