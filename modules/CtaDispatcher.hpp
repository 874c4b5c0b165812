#pragma once
// Launches a workload's kernels and places their CTAs on SMs. Each core cycle, SMs are visited
// round-robin in the order given to the constructor (starting after the last one served) and
// each SM with room for a CTA receives at most one. The GPU gives them cluster-interleaved
// (platforms/Gpu.cpp, dispatchOrder).
//
// Which kernels run (gpu.kernel_concurrency; docs/architecture.md, "CTA dispatcher and concurrent
// kernels"):
// - serial (default): one kernel at a time, in launch order, whatever its stream.
// - spatial, mixed: kernels of different streams (KernelInfo::stream) run at the same time, at
//   most gpu.max_concurrent_kernels of them; a kernel starts once every earlier kernel of its
//   stream has ended (one stream's kernels run in launch order, one at a time), kernels of other
//   streams may overtake it. Eligible kernels start in launch order.
//   spatial: the running kernels, in start order, split the SMs (in dispatch order) into equal
//   contiguous shares (kernel j of m gets SMs [j*n/m, (j+1)*n/m)), recomputed whenever a kernel
//   starts or ends; a kernel's CTAs go only to its share (resident CTAs are not moved, so a new
//   kernel may wait for its share to drain). At most min(max_concurrent_kernels, SMs) kernels.
//   mixed: any running kernel's CTA may go to any SM as resources allow (SmResources holds CTAs of
//   different kernels with their own needs); each SM is offered the running kernels round-robin
//   in start order, beginning after the kernel it last received a CTA of (the oldest if that one
//   ended).
// A kernel ends when all its CTAs have finished and every SM holding no CTA of another running
// kernel has drained its memory traffic (SmCore::quiescent): with one kernel running (always, in
// serial) that is every SM. The next kernel (serial) or the stream's next starts on the following cycle.
// An SM's policy sees a kernel boundary (SchedulerPolicy::onKernelEnd, then onKernelStart) when
// the kernels that may place CTAs on it change: in serial at every kernel start and end on every
// SM; in spatial when its share's owner changes; in mixed when the set of running kernels changes.
// A kernel's end flushes the L1D (l1d.flush_at_kernel_end) of the SMs it could use at that moment.
// Statistics: kernel<i>.cycles and kernel<i>.ctas per kernel (i: launch order); with more than
// one stream in the workload also kernel<i>.{start_cycle,end_cycle,warp_instructions,stream}
// and stream<s>.{kernels,first_start_cycle,last_end_cycle,warp_instructions}.
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "common/ClockDomain.hpp"
#include "common/Stats.hpp"
#include "modules/DispatchParams.hpp"
#include "modules/SmCore.hpp"
#include "workloads/Workload.hpp"

namespace gpusim {

class CtaDispatcher : public Tickable {
public:
    CtaDispatcher(std::vector<SmCore*> sms, const Workload& workload, StatRegistry& stats,
                  const DispatchParams& params = {});
    // Throws InputError if a kernel's CTA cannot fit on an empty SM (impossible geometry).
    void checkFits() const;

    void tick(uint64_t cycle) override;
    bool busy() const override { return !done_; }
    bool done() const { return done_; }
    uint64_t ctasLaunched() const { return launched_; }
    // The workload's kernels use more than one stream id (the extra statistics are registered).
    bool multiStream() const { return multiStream_; }
    std::string dumpState() const;

    struct KernelRecord {
        std::string name;
        uint64_t startCycle, endCycle, ctas;
        size_t index = 0;               // position in the workload's launch order
        uint64_t stream = 0;
        uint64_t warpInstructions = 0;  // of its warps, counted as they retire
        bool ended = false;
    };
    // One per started kernel, in start order (launch order in serial).
    const std::vector<KernelRecord>& records() const { return records_; }
    // Called inside tick() right after a kernel's record is added (its start) and after it is
    // complete (its end); per-kernel statistics take their snapshots there. Empty: none.
    void setKernelObserver(std::function<void()> observer) { observer_ = std::move(observer); }

    // How far the workload is, for a progress display: CTAs finished of all the workload's
    // kernels, kernels ended, and each running kernel (index: launch order, the i of kernel<i>.*).
    struct RunningKernel {
        size_t index;
        std::string name;
        uint64_t ctasDone, ctas;
    };
    struct Progress {
        uint64_t ctasDone = 0, ctasTotal = 0;
        size_t kernelsEnded = 0, kernels = 0;
        std::vector<RunningKernel> running;  // in start order
    };
    // Walks every kernel: for an occasional display, not for every cycle.
    Progress progress() const;

private:
    struct KernelState {
        bool started = false, ended = false;
        size_t record = 0;  // into records_
        uint64_t nextCta = 0;
        uint64_t ctas = 0;  // the kernel's, read once at its start (asked every cycle after)
        KernelTally tally;
        // Per SM: SmCore::resourceChanges() when it last refused this kernel's CTA (~0: not
        // refused). Until a CTA starts or ends there, the answer stays no, so the SM is not
        // asked every cycle.
        std::vector<uint64_t> refusedAt;
    };
    void startKernels(uint64_t cycle);
    void startKernel(size_t k, uint64_t cycle);
    void dispatch();
    bool finished(size_t k) const;
    void endKernel(size_t k, uint64_t cycle);
    // Recomputes which kernels may use each SM and tells the SMs whose set changed;
    // `flush[s]`: SM s flushes its L1D first (a kernel it could use ended).
    void updateSms(const std::vector<bool>& flush);
    bool tryLaunch(unsigned s, size_t k);
    unsigned concurrencyLimit() const;

    std::vector<SmCore*> sms_;
    const Workload& workload_;
    StatRegistry& stats_;
    DispatchParams params_;
    bool multiStream_ = false;
    bool done_ = false;
    bool scanStarts_ = true;     // a kernel may be able to start (first tick, after an end)
    size_t firstUnstarted_ = 0;  // launch-order index of the first kernel not started
    size_t ended_ = 0;
    uint64_t launched_ = 0;
    unsigned rr_ = 0;
    // A pass that launched nothing leaves every SM refused or without a CTA to take; until an
    // SM's resources change (a CTA starts or ends: the sum moves, the counters only grow) or the
    // kernels an SM may take change (updateSms), the next pass would launch nothing either and
    // is skipped (issue 19: the pass was about 2 % of a run).
    bool passNeeded_ = true;
    // CTAs started and ended (launched_ + ended kernels' CTAs + running kernels' ended CTAs) at
    // the last pass: unchanged, no SM's canLaunch() can have changed.
    uint64_t passChanges_ = 0;
    uint64_t endedKernelCtas_ = 0;  // CTAs of the kernels ended so far
    std::vector<KernelState> kernels_;
    std::vector<size_t> running_;        // started, not ended, in start order
    std::vector<uint64_t> runningStreams_;
    std::vector<size_t> owner_;          // serial/spatial: per SM, the owning kernel (~0 none)
    std::vector<uint64_t> smKey_;        // per SM: what the SM's policy last saw (0 nothing)
    std::vector<size_t> lastServed_;     // mixed: per SM, the kernel it last received a CTA of
    uint64_t runningVersion_ = 0;        // mixed: bumped whenever the running set changes
    std::vector<KernelRecord> records_;
    std::function<void()> observer_;
    struct StreamStats {
        Counter *kernels = nullptr, *lastEnd = nullptr, *instructions = nullptr;
    };
    std::map<uint64_t, StreamStats> streamStats_;  // multi-stream workloads only
};

} // namespace gpusim
