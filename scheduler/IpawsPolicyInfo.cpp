#include "scheduler/IpawsPolicyInfo.hpp"

#include "scheduler/GtoPolicy.hpp"
#include "scheduler/IpawsPolicy.hpp"

namespace gpusim {

namespace {

using Params = std::map<std::string, double>;

IpawsPolicy::Params fromParams(const Params& p) {
    IpawsPolicy::Params r;
    r.barrier = static_cast<IpawsPolicy::BarrierScore>(static_cast<int>(p.at("barrier_score")));
    r.stalls = static_cast<IpawsPolicy::StallCounter>(static_cast<int>(p.at("stall_counter")));
    r.classifier.woiFromStalls = p.at("woi") != 0;
    r.classifier.woiIncludesLimit = p.at("woi_include_limit") != 0;
    r.classifier.thresholdFactor = p.at("threshold_factor");
    r.recover = p.at("recover") != 0;
    r.recoverFraction = p.at("recover_fraction");
    return r;
}

} // namespace

PolicyInfo ipawsPolicyInfo(const PolicyInfo* greedy) {
    PolicyInfo info;
    const std::string g = greedy ? greedy->name : "gto";
    info.name = greedy ? "ipaws-" + g : "ipaws";
    info.description = "iPAWS: " + g +
                       " until the first warp ends (Adapt), then concave issue pattern -> keep " + g +
                       ", convex -> least-issued-first Recover, then round-robin; per kernel";
    info.params = {
        intParam("per_sm", 0, 0, 1, "1: each SM decides alone; 0: all SMs apply the first SM's decision"),
        intParam("barrier_score", 3, 0, 3,
                 "barrier wait in the score, cycles at a barrier in which: 0 none counted, 1 another warp of "
                 "the SM issued, 2 every cycle, 3 another warp of the same CTA issued"),
        intParam("stall_counter", 2, 0, 2,
                 "issue-stall counter for the WOI limit: 0 the head of the scheduler's greedy order not "
                 "issuing, 1 the oldest hazard-free warp of the scheduler not issuing, 2 a hazard-free warp "
                 "the scheduler reached refused by a busy unit"),
        intParam("woi", 1, 0, 1, "warps-of-interest: 1 from the issue-stall counters, 0 every resident warp"),
        intParam("woi_include_limit", 1, 0, 1, "1: the limit warp (most issue stalls) is part of the WOI"),
        {"threshold_factor", 0.5, 0.01, 1, "iscore_thr = W x iscore_max x factor (the paper: 1/2)"},
        intParam("recover", 1, 0, 1, "1: Recover phase before round-robin (0: the paper's iPAWS w/o Recover)"),
        {"recover_fraction", 1.0, 0, 1,
         "Recover ends when the least-issued warp reached this fraction of the most advanced warp's count"},
    };
    std::function<std::unique_ptr<SchedulerPolicy>(const Params&)> makeGreedy;
    if (greedy) {
        for (const auto& gp : greedy->params) info.params.push_back(gp);
        makeGreedy = greedy->make;
        info.check = greedy->check;
    } else {
        makeGreedy = [](const Params&) { return std::make_unique<GtoPolicy>(); };
    }
    info.makeShared = [makeGreedy](const Params& p, std::shared_ptr<PolicyGpuContext> ctx) {
        return std::make_unique<IpawsPolicy>(fromParams(p), makeGreedy(p),
                                             std::dynamic_pointer_cast<IpawsDecisionBoard>(ctx));
    };
    info.make = [makeGreedy](const Params& p) -> std::unique_ptr<SchedulerPolicy> {
        // Without a GPU context (a lone SM, a unit test) the SM decides for itself.
        return std::make_unique<IpawsPolicy>(fromParams(p), makeGreedy(p), nullptr);
    };
    info.gpuContext = [](const Params& p) -> std::shared_ptr<PolicyGpuContext> {
        if (p.at("per_sm") != 0) return nullptr;
        return std::make_shared<IpawsDecisionBoard>();
    };
    return info;
}

} // namespace gpusim
