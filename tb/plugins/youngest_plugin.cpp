// A policy plugin for the tests (tb/integration/plugin_test.cpp), built as a user's would be:
// against gpusim_plugin_api only. "test-youngest": the youngest warp first; counts its issues in
// sched.test_issued (a statistic through the program's StatRegistry) and its completed loads in
// sched.test_loads_completed (an event hook).
#include <algorithm>
#include <memory>

#include "common/Stats.hpp"
#include "scheduler/PolicyPlugin.hpp"

namespace {

using namespace gpusim;

class YoungestFirst : public SchedulerPolicy {
public:
    explicit YoungestFirst(double step) : step_(step) {}
    std::string name() const override { return "test-youngest"; }
    void registerStats(StatRegistry& stats, const std::string& prefix) override {
        issued_ = &stats.counter(prefix + "test_issued", "instructions issued under test-youngest");
        loads_ = &stats.counter(prefix + "test_loads_completed", "loads completed under test-youngest");
    }
    void order(unsigned, std::vector<unsigned>& warps, const SmView& sm) override {
        std::stable_sort(warps.begin(), warps.end(),
                         [&](unsigned a, unsigned b) { return sm.warp(a).age > sm.warp(b).age; });
    }
    void onIssue(unsigned, unsigned, const SmView&) override { issued_->inc(); }
    void onLoadComplete(unsigned, uint64_t, bool, unsigned) override { loads_->inc(); }

private:
    double step_;
    Counter* issued_ = nullptr;
    Counter* loads_ = nullptr;
};

} // namespace

GPUSIM_POLICY_PLUGIN(registrar) {
    registrar.add({"test-youngest", "test plugin: youngest warp first",
                   {intParam("step", 1, 1, 4, "unused")},
                   [](const std::map<std::string, double>& p) { return std::make_unique<YoungestFirst>(p.at("step")); }});
}
