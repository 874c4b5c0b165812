#include "scheduler/IpawsDecisionBoard.hpp"

#include <string>

#include "common/Stats.hpp"

namespace gpusim {

void IpawsDecisionBoard::propose(unsigned kernel, uint64_t cycle, unsigned sm, const IssuePattern& pattern) {
    if (decisions_.size() <= kernel) decisions_.resize(kernel + 1);
    IpawsDecision& d = decisions_[kernel];
    if (d.valid && (d.cycle < cycle || (d.cycle == cycle && d.sm <= sm))) return;
    d = {true, cycle, sm, pattern};
}

const IpawsDecision* IpawsDecisionBoard::visible(unsigned kernel, uint64_t now) const {
    const IpawsDecision* d = proposal(kernel);
    return d && d->cycle < now ? d : nullptr;
}

const IpawsDecision* IpawsDecisionBoard::proposal(unsigned kernel) const {
    return kernel < decisions_.size() && decisions_[kernel].valid ? &decisions_[kernel] : nullptr;
}

void IpawsDecisionBoard::attachStats(StatRegistry& stats) {
    if (!stats_) stats_ = &stats;
}

void IpawsDecisionBoard::publish(unsigned kernel) {
    if (published_.size() <= kernel) published_.resize(kernel + 1, 0);
    const IpawsDecision* d = proposal(kernel);
    if (!stats_ || !d || published_[kernel]) return;
    published_[kernel] = 1;
    const std::string k = "gpu.ipaws.kernel" + std::to_string(kernel) + ".";
    stats_->counter(k + "rr", "iPAWS decision for the kernel: 1 fair (RR), 0 greedy").inc(d->pattern.convex ? 1 : 0);
    stats_->average(k + "doc", "Degree of convexity of the deciding SM (iscore_sum / iscore_thr)")
        .sample(d->pattern.doc);
    stats_->counter(k + "woi", "Warps-of-interest of the deciding SM").inc(d->pattern.woi);
    stats_->counter(k + "warps", "Warps resident during the deciding SM's Adapt phase").inc(d->pattern.warps);
    stats_->counter(k + "sm", "The SM whose decision was used (first to finish adapting)").inc(d->sm);
    stats_->counter(k + "cycle", "Core cycle in which the deciding SM finished adapting").inc(d->cycle);
}

} // namespace gpusim
