#include "scheduler/OwlPolicy.hpp"

#include <algorithm>

#include "common/Stats.hpp"

namespace gpusim {

OwlPolicy::OwlPolicy(Params p) : p_(std::move(p)) {
    if (p_.minWarps == 0) p_.minWarps = 1;
}

void OwlPolicy::attach(const SmView& sm) {
    smId_ = sm.smId();
    issuedAt_.assign(sm.warpSlots(), 0);
}

void OwlPolicy::registerStats(StatRegistry& stats, const std::string& prefix) {
    switchStat_ = &stats.counter(prefix + "owl_group_switches",
                                 "CTA-group switches: the current group changed by the level-2 rule");
    resumeStat_ = &stats.counter(prefix + "owl_resumes",
                                 "Switches back to a higher-priority group whose data returned "
                                 "(owl-locality, owl-blp, owl)");
    regroupStat_ = &stats.counter(prefix + "owl_regroups", "CTA groups re-formed (a CTA started or ended)");
}

void OwlPolicy::onWarpStart(unsigned warp) {
    ++warpsSinceCtaStart_;
    if (warp < issuedAt_.size()) issuedAt_[warp] = 0;
}

void OwlPolicy::onCtaStart(unsigned ctaSlot) {
    // The SM starts a CTA's warps, then reports the CTA: the count since the last CTA is its size.
    if (ctaSlot >= ctaWarps_.size()) ctaWarps_.resize(ctaSlot + 1, 0);
    ctaWarps_[ctaSlot] = warpsSinceCtaStart_;
    warpsSinceCtaStart_ = 0;
    dirty_ = true;
}

void OwlPolicy::onCtaEnd(unsigned) { dirty_ = true; }

void OwlPolicy::regroup(const SmView& sm) {
    dirty_ = false;
    std::vector<OwlCta> ctas;
    std::vector<int> seen;
    for (unsigned w = 0; w < sm.warpSlots(); ++w) {
        const WarpView& v = sm.warp(w);
        if (!v.valid) continue;
        if (v.ctaSlot >= seen.size()) seen.resize(v.ctaSlot + 1, 0);
        if (seen[v.ctaSlot]++) continue;
        const unsigned k = v.ctaSlot < ctaWarps_.size() ? ctaWarps_[v.ctaSlot] : 0;
        ctas.push_back({v.ctaId, v.ctaSlot, k});
    }
    // A CTA the policy was not told about (a test view without onCtaStart): its resident warps.
    for (OwlCta& c : ctas)
        if (c.warps == 0) c.warps = static_cast<unsigned>(seen[c.slot]);
    groups_ = formOwlGroups(std::move(ctas), p_.minWarps);
    groupOfCtaSlot_.assign(seen.size(), -1);
    for (size_t g = 0; g < groups_.size(); ++g)
        for (const OwlCta& c : groups_[g]) groupOfCtaSlot_[c.slot] = static_cast<int>(g);
    groupWarps_.assign(groups_.size(), {});
    for (unsigned w = 0; w < sm.warpSlots(); ++w) {
        const WarpView& v = sm.warp(w);
        if (v.valid) groupWarps_[static_cast<size_t>(groupOfCtaSlot_[v.ctaSlot])].push_back(w);
    }
    ++regroups_;
    if (regroupStat_) regroupStat_->inc();
    // Keep the current group: the one now holding its first CTA, or the next younger CTA
    // (wrapping to the oldest group), so re-forming is not a switch.
    if (groups_.empty()) {
        cur_ = -1;
        rankOfGroup_.clear();
        return;
    }
    if (cur_ < 0) {
        cur_ = static_cast<int>(priorityOrder().front());
        curLead_ = groups_[static_cast<size_t>(cur_)].front().ctaId;
        refreshRanks();
        return;
    }
    int keep = -1;
    for (size_t g = 0; g < groups_.size() && keep < 0; ++g)
        for (const OwlCta& c : groups_[g])
            if (c.ctaId >= curLead_) {
                keep = static_cast<int>(g);
                break;
            }
    cur_ = keep < 0 ? 0 : keep;
    curLead_ = groups_[static_cast<size_t>(cur_)].front().ctaId;
    refreshRanks();
}

bool OwlPolicy::blocked(unsigned group, const SmView& sm, uint64_t cycle) const {
    for (unsigned w : groupWarps_[group]) {
        const WarpView& v = sm.warp(w);
        if (!v.valid) continue;
        if (issuedAt_[w] == cycle) return false;  // issued in the previous cycle (stored + 1)
        const bool waits = v.atBarrier || !v.hasInstruction || v.pendingLoads > 0;
        if (!waits) return false;
    }
    return true;
}

std::vector<unsigned> OwlPolicy::priorityOrder() const {
    const unsigned n = static_cast<unsigned>(groups_.size());
    std::vector<unsigned> order;
    if (n == 0) return order;
    const unsigned first = p_.variant == Variant::Blp ? static_cast<unsigned>((uint64_t(smId_) * p_.blpShift) % n) : 0;
    for (unsigned k = 0; k < n; ++k) order.push_back((first + k) % n);
    return order;
}

std::vector<unsigned> OwlPolicy::levelTwoOrder() const {
    std::vector<unsigned> order;
    if (cur_ < 0) return order;
    const unsigned n = static_cast<unsigned>(groups_.size());
    const unsigned cur = static_cast<unsigned>(cur_);
    order.push_back(cur);
    if (p_.variant == Variant::CtaAware) {
        for (unsigned k = 1; k < n; ++k) order.push_back((cur + k) % n);
    } else {
        for (unsigned g : priorityOrder())
            if (g != cur) order.push_back(g);
    }
    return order;
}

void OwlPolicy::switchTo(unsigned group) {
    if (static_cast<int>(group) == cur_) return;
    if (p_.variant != Variant::CtaAware) {
        // A move up the fixed priority order is a return to a group whose data arrived.
        const std::vector<unsigned> prio = priorityOrder();
        const auto pos = [&](unsigned g) { return std::find(prio.begin(), prio.end(), g) - prio.begin(); };
        if (cur_ >= 0 && pos(group) < pos(static_cast<unsigned>(cur_))) {
            ++resumes_;
            if (resumeStat_) resumeStat_->inc();
        }
    }
    cur_ = static_cast<int>(group);
    curLead_ = groups_[group].front().ctaId;
    refreshRanks();
    ++switches_;
    if (switchStat_) switchStat_->inc();
}

void OwlPolicy::onCycle(uint64_t cycle, const SmView& sm) {
    if (dirty_) regroup(sm);
    if (cur_ < 0) return;
    const unsigned n = static_cast<unsigned>(groups_.size());
    if (p_.variant == Variant::CtaAware) {
        const unsigned cur = static_cast<unsigned>(cur_);
        if (!blocked(cur, sm, cycle)) return;
        for (unsigned k = 1; k < n; ++k)
            if (!blocked((cur + k) % n, sm, cycle)) {
                switchTo((cur + k) % n);
                return;
            }
        return;
    }
    for (unsigned g : priorityOrder())
        if (!blocked(g, sm, cycle)) {
            switchTo(g);
            return;
        }
}

int OwlPolicy::groupOfWarp(unsigned warp, const SmView& sm) const {
    const unsigned slot = sm.warp(warp).ctaSlot;
    return slot < groupOfCtaSlot_.size() ? groupOfCtaSlot_[slot] : -1;
}

void OwlPolicy::refreshRanks() {
    rankOfGroup_.assign(groups_.size(), 0);
    const std::vector<unsigned> order = levelTwoOrder();
    for (unsigned i = 0; i < order.size(); ++i) rankOfGroup_[order[i]] = i;
}

void OwlPolicy::order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) {
    if (dirty_) regroup(sm);
    // Key: level-2 rank of the warp's group (ungrouped warps last, defensive), then slot.
    const unsigned ungrouped = static_cast<unsigned>(groups_.size());
    keyed_.clear();
    for (unsigned w : warps) {
        const int g = groupOfWarp(w, sm);
        keyed_.emplace_back(g < 0 ? ungrouped : rankOfGroup_[static_cast<size_t>(g)], w);
    }
    std::sort(keyed_.begin(), keyed_.end());
    size_t curEnd = 0;  // the current group (rank 0) is the first segment
    while (curEnd < keyed_.size() && keyed_[curEnd].first == 0 && cur_ >= 0) ++curEnd;
    for (size_t i = 0; i < keyed_.size(); ++i) warps[i] = keyed_[i].second;
    const int last = sched < kSchedulers ? last_[sched] : -1;
    if (last >= 0 && curEnd > 0) {
        // Level 1: round-robin, starting after this scheduler's last issuer.
        const auto end = warps.begin() + static_cast<std::ptrdiff_t>(curEnd);
        std::rotate(warps.begin(), std::upper_bound(warps.begin(), end, static_cast<unsigned>(last)), end);
    }
}

void OwlPolicy::onIssue(unsigned sched, unsigned warp, const SmView& sm) {
    if (sched < kSchedulers) last_[sched] = static_cast<int>(warp);
    if (warp < issuedAt_.size()) issuedAt_[warp] = sm.cycle() + 1;
}

} // namespace gpusim
