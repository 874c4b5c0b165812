// Loads the oldest-cta plugin through the co-simulation API and shows its mechanism acting:
// the issue order on a hand-built SM (four warps of three CTAs), the load budget refusing a warp,
// then a whole GPU run with the policy.
//   custom_policy_check PLUGIN [WORKLOAD]        (default workload: atax:n=128)
// Exit status: 0 when every check holds, 1 when one does not, 2 bad input, 3 model error.
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "common/Config.hpp"
#include "common/SimError.hpp"
#include "common/Stats.hpp"
#include "platforms/Gpu.hpp"
#include "platforms/PlatformFiles.hpp"
#include "platforms/Schema.hpp"
#include "scheduler/PolicyPlugin.hpp"
#include "workloads/Workload.hpp"

using namespace gpusim;

namespace {

// An SM as the policy sees it, every field set by hand.
class HandSm : public SmView {
public:
    std::vector<WarpView> warps = std::vector<WarpView>(8);
    unsigned smId() const override { return 0; }
    unsigned warpSlots() const override { return static_cast<unsigned>(warps.size()); }
    const WarpView& warp(unsigned slot) const override { return warps.at(slot); }
    unsigned schedulers() const override { return 2; }
    unsigned l1Sets() const override { return 32; }
    unsigned l1LineBytes() const override { return 128; }
    unsigned mshrEntries() const override { return 32; }
    unsigned mshrFree() const override { return 32; }
    unsigned missQueueEntries() const override { return 8; }
    unsigned missQueueFree() const override { return 8; }
    unsigned loadsInFlight() const override { return 1; }
    bool ldstBusy() const override { return false; }
    uint64_t cycle() const override { return 100; }
};

int failures = 0;
void check(bool ok, const std::string& what) {
    std::printf("  %-4s %s\n", ok ? "ok" : "FAIL", what.c_str());
    failures += !ok;
}

} // namespace

int sc_main(int argc, char* argv[]) {
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    if (argc < 2) {
        std::fprintf(stderr, "usage: custom_policy_check PLUGIN [WORKLOAD]\n");
        return 2;
    }
    const std::string workload = argc > 2 ? argv[2] : "atax:n=128";
    try {
        const std::vector<std::string> names = loadPolicyPlugin(argv[1]);
        std::printf("custom-policy: %s registered %s\n", argv[1], names.at(0).c_str());
        PolicyChoice choice = PolicyRegistry::builtin().parse("oldest-cta:load_budget=1");
        std::unique_ptr<SchedulerPolicy> policy = choice.make();
        StatRegistry stats;
        policy->registerStats(stats, "sm0.sched.");

        // Scheduler 0's warps (even slots): slot 0 of CTA 2, slots 2 and 4 of CTA 1 (slot 4 the
        // older), slot 6 of CTA 0. Oldest CTA first, then oldest warp: 6, 4, 2, 0.
        HandSm sm;
        const struct { unsigned slot; uint64_t cta, age; } layout[] = {{0, 2, 0}, {2, 1, 5}, {4, 1, 3}, {6, 0, 7}};
        for (const auto& l : layout) {
            WarpView& w = sm.warps[l.slot];
            w.valid = w.hasInstruction = true;
            w.ctaId = l.cta;
            w.ctaSlot = static_cast<unsigned>(l.cta);
            w.age = l.age;
        }
        policy->attach(sm);
        std::vector<unsigned> order = {0, 2, 4, 6};
        policy->order(0, order, sm);
        check(order == std::vector<unsigned>{6, 4, 2, 0}, "issue order 6 4 2 0 (CTA 0, then CTA 1 oldest warp first, then CTA 2)");

        // Slot 4's next instruction is a load and it has one in flight: over the budget of 1.
        sm.warps[4].nextIsLoad = true;
        sm.warps[4].pendingLoads = 1;
        sm.warps[2].nextIsLoad = true;  // a load with none in flight
        check(!policy->canIssue(4, sm), "slot 4 (a load, 1 in flight) held back by load_budget=1");
        check(policy->canIssue(2, sm), "slot 2 (a load, none in flight) may issue");
        check(policy->canIssue(6, sm), "slot 6 (not a load) may issue");
        check(stats.get("sm0.sched.budget_blocked") == 1, "sm0.sched.budget_blocked = 1");

        // A GPU built with the plugin's policy.
        Config cfg(gpuSchema());
        cfg.loadFile(resolvePlatform("fermi15"));
        cfg.validate();
        std::unique_ptr<Workload> wl = WorkloadRegistry::builtin().create(workload, /*seed=*/1);
        StatRegistry gpuStats;
        Gpu gpu("gpu", cfg, choice, *wl, gpuStats);
        const RunResult r = gpu.run({});
        const double blocked = gpuStats.sum("sm", ".sched.budget_blocked");
        std::printf("  run  fermi15 / oldest-cta:load_budget=1 / %s: %llu cycles, IPC %.4f, %.0f loads held back\n",
                    workload.c_str(), static_cast<unsigned long long>(r.cycles),
                    r.cycles ? double(r.instructions) / double(r.cycles) : 0.0, blocked);
        check(r.instructions > 0 && blocked > 0, "the run completed and the budget held loads back");
    } catch (const InputError& e) {
        std::fprintf(stderr, "custom_policy_check: error: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "custom_policy_check: model error: %s\n", e.what());
        return 3;
    }
    std::printf(failures ? "custom-policy: %d checks failed\n" : "custom-policy: all checks passed\n", failures);
    return failures ? 1 : 0;
}
