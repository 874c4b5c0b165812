// oldest-cta: a warp-scheduling policy that is not one of gpusim's, as a plugin. Warps of the
// oldest CTA (smallest CTA id) issue first, oldest warp first inside a CTA, so CTAs finish in
// launch order and free their slots early; and a warp may have at most `load_budget` loads in
// flight, so one warp's misses cannot fill the MSHRs. (docs/extending.md)
#include <algorithm>
#include <memory>
#include <tuple>

#include "common/Stats.hpp"
#include "scheduler/PolicyPlugin.hpp"

namespace {

using namespace gpusim;

class OldestCtaPolicy : public SchedulerPolicy {
public:
    explicit OldestCtaPolicy(unsigned loadBudget) : budget_(loadBudget) {}
    std::string name() const override { return "oldest-cta"; }

    void registerStats(StatRegistry& stats, const std::string& prefix) override {
        blocked_ = &stats.counter(prefix + "budget_blocked",
                                  "Loads held back: the warp already had load_budget loads in flight");
    }

    void order(unsigned sched, std::vector<unsigned>& warps, const SmView& sm) override {
        std::stable_sort(warps.begin(), warps.end(), [&](unsigned a, unsigned b) {
            const WarpView &x = sm.warp(a), &y = sm.warp(b);
            return std::tie(x.ctaId, x.age) < std::tie(y.ctaId, y.age);
        });
    }

    bool canIssue(unsigned warp, const SmView& sm) override {
        const WarpView& w = sm.warp(warp);
        if (budget_ == 0 || !w.nextIsLoad || w.pendingLoads < budget_) return true;
        if (blocked_) blocked_->inc();
        return false;
    }

private:
    unsigned budget_;
    Counter* blocked_ = nullptr;
};

} // namespace

GPUSIM_POLICY_PLUGIN(registrar) {
    registrar.add({"oldest-cta",
                   "oldest CTA first (then oldest warp), at most load_budget loads in flight per warp",
                   {intParam("load_budget", 2, 0, 64, "loads in flight a warp may have (0: no limit)")},
                   [](const std::map<std::string, double>& p) {
                       return std::make_unique<OldestCtaPolicy>(static_cast<unsigned>(p.at("load_budget")));
                   }});
}
