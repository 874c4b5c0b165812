// A Python-written policy against the built-in one on a hand-built SM (docs/extending.md, "Python
// policies"): loads the Python policy plugin (argv[1]) with $GPUSIM_PYTHON_POLICIES naming
// examples/python/lrr_policy.py's PyLrr and Trivial, drives the built-in `lrr` and `py-lrr` through
// the same sequence of order() and onIssue() calls on a FakeSmView (warps coming and going, both
// schedulers, issuers picked pseudo-randomly from the order) and requires every order to be
// identical. Then it times the hooks: order() + onIssue() of lrr, py-lrr and py-trivial (a
// Python order() that returns at once), and prints the cost per call. Exit 0 when all orders match.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "scheduler/PolicyPlugin.hpp"
#include "tb/unit/scheduler/FakeSmView.hpp"

using namespace gpusim;

namespace {

std::vector<unsigned> validWarps(const test::FakeSmView& sm, unsigned sched) {
    std::vector<unsigned> w;
    for (unsigned s = sched; s < sm.warpSlots(); s += sm.schedulers())
        if (sm.warp(s).valid) w.push_back(s);
    return w;
}

std::string str(const std::vector<unsigned>& v) {
    std::string s;
    for (unsigned x : v) s += (s.empty() ? "" : " ") + std::to_string(x);
    return s;
}

// ns per round (order() then onIssue() of the first warp) of policy `p` on `sm`.
double time(SchedulerPolicy& p, test::FakeSmView& sm, unsigned rounds) {
    std::vector<unsigned> warps;
    const auto t0 = std::chrono::steady_clock::now();
    for (unsigned i = 0; i < rounds; ++i) {
        const unsigned sched = i % 2;
        warps = validWarps(sm, sched);
        p.order(sched, warps, sm);
        p.onIssue(sched, warps.front(), sm);
    }
    return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count() / rounds;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: python_policy_check path/libgpusim_python.so\n");
        return 2;
    }
    setenv("GPUSIM_PYTHON_POLICIES", "lrr_policy:PyLrr;lrr_policy:Trivial", 0);
    try {
        for (const std::string& n : loadPolicyPlugin(argv[1])) std::printf("python-policy: registered %s\n", n.c_str());
        const PolicyRegistry& reg = PolicyRegistry::builtin();
        std::unique_ptr<SchedulerPolicy> lrr = reg.parse("lrr").make(), py = reg.parse("py-lrr").make();

        // 16 slots, 2 schedulers; slots 3, 8 and 13 empty at first.
        test::FakeSmView sm(16);
        for (unsigned s : {3u, 8u, 13u}) sm.at(s).valid = false;
        lrr->attach(sm);
        py->attach(sm);
        uint64_t rng = 12345;
        auto next = [&rng] { return (rng = rng * 6364136223846793005ULL + 1442695040888963407ULL) >> 33; };
        unsigned rounds = 0, mismatches = 0;
        for (unsigned step = 0; step < 2000; ++step) {
            const unsigned sched = static_cast<unsigned>(next() % 2);
            std::vector<unsigned> a = validWarps(sm, sched);
            if (a.empty()) continue;
            // Hand the policies the warps in a scrambled order: the policy sorts them itself.
            for (size_t i = a.size(); i > 1; --i) std::swap(a[i - 1], a[next() % i]);
            std::vector<unsigned> b = a;
            lrr->order(sched, a, sm);
            py->order(sched, b, sm);
            ++rounds;
            if (a != b && ++mismatches <= 5)
                std::printf("FAIL step %u scheduler %u: lrr %s, py-lrr %s\n", step, sched, str(a).c_str(), str(b).c_str());
            if (step < 4) std::printf("  step %u scheduler %u: order %s\n", step, sched, str(a).c_str());
            // The issue stage takes one of the first warps (the others could not issue).
            const unsigned issuer = a.at(next() % std::min<size_t>(a.size(), 3));
            lrr->onIssue(sched, issuer, sm);
            py->onIssue(sched, issuer, sm);
            // Warps end and start now and then.
            if (next() % 7 == 0) {
                const unsigned slot = static_cast<unsigned>(next() % 16);
                sm.at(slot).valid = !sm.at(slot).valid;
            }
        }
        std::printf("%s  %u orders of py-lrr identical to lrr's (%u differ)\n", mismatches ? "FAIL" : "ok  ", rounds,
                    mismatches);

        // Cost of a hook call: the same rounds through each policy (8 warps per scheduler).
        test::FakeSmView quiet(16);
        std::unique_ptr<SchedulerPolicy> trivial = reg.parse("py-trivial").make();
        const unsigned n = 200000;
        const double tLrr = time(*lrr, quiet, n), tPy = time(*py, quiet, n), tTrivial = time(*trivial, quiet, n);
        std::printf("cost per round (order() of 8 warps + onIssue()), %u rounds:\n", n);
        std::printf("  lrr (C++)          %8.1f ns\n", tLrr);
        std::printf("  py-lrr (Python)    %8.1f ns\n", tPy);
        std::printf("  py-trivial order() %8.1f ns (no onIssue hook)\n", tTrivial);
        return mismatches ? 1 : 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "python-policy: %s\n", e.what());
        return 1;
    }
}
