// PolicyRegistry: names to policies, parameter validation and the exact error texts.
#include <gtest/gtest.h>

#include <string>

#include "common/SimError.hpp"
#include "scheduler/GtoPolicy.hpp"
#include "scheduler/LrrPolicy.hpp"
#include "scheduler/PolicyRegistry.hpp"

namespace policy_registry_test {

using namespace gpusim;

namespace {
std::string errorOf(const PolicyRegistry& r, const std::string& spec) {
    try {
        r.parse(spec);
    } catch (const InputError& e) {
        return e.what();
    }
    return "<no error>";
}

// A registry with one policy that has a parameter, to reach the value checks (the built-in
// lrr/gto take none).
PolicyRegistry withParam() {
    PolicyRegistry r;
    r.add({"swlx", "test policy", {{"n", 4, 1, 8, "warps"}},
           [](const std::map<std::string, double>&) { return std::make_unique<GtoPolicy>(); }});
    return r;
}
} // namespace

TEST(PolicyRegistry, ParsesGtoAndLrr) {
    const auto& r = PolicyRegistry::builtin();
    auto gto = r.parse("gto");
    ASSERT_NE(gto.info, nullptr);
    EXPECT_EQ(gto.info->name, "gto");
    EXPECT_TRUE(gto.params.empty());
    auto p = gto.make();
    EXPECT_EQ(p->name(), "gto");
    EXPECT_NE(dynamic_cast<GtoPolicy*>(p.get()), nullptr);

    auto lrr = r.parse("lrr");
    ASSERT_NE(lrr.info, nullptr);
    EXPECT_EQ(lrr.info->name, "lrr");
    auto q = lrr.make();
    EXPECT_EQ(q->name(), "lrr");
    EXPECT_NE(dynamic_cast<LrrPolicy*>(q.get()), nullptr);
    // Each make() is a fresh object (one per SM).
    EXPECT_NE(lrr.make().get(), q.get());

    EXPECT_EQ(gto.toJson().dump(), R"({"name":"gto","params":{}})");
}

TEST(PolicyRegistry, UnknownNameErrorText) {
    EXPECT_EQ(errorOf(PolicyRegistry::builtin(), "fifo"),
              "--scheduler: unknown scheduler 'fifo' (see gpusim list schedulers)");
    // Names are case-sensitive; the suggestion is not ("GTO" is 0 edits from "gto" case aside).
    EXPECT_EQ(errorOf(PolicyRegistry::builtin(), "GTO"),
              "--scheduler: unknown scheduler 'GTO'; did you mean 'gto'? (see gpusim list schedulers)");
}

TEST(PolicyRegistry, UnknownParameterErrorText) {
    EXPECT_EQ(errorOf(PolicyRegistry::builtin(), "gto:depth=3"),
              "--scheduler: gto: unknown parameter 'depth' (known: none)");
    EXPECT_EQ(errorOf(withParam(), "swlx:m=3"), "--scheduler: swlx: unknown parameter 'm' (known: n)");
}

TEST(PolicyRegistry, ParameterDefaultsValuesAndRangeErrors) {
    const auto r = withParam();
    EXPECT_EQ(r.parse("swlx").params.at("n"), 4);      // default filled
    EXPECT_EQ(r.parse("swlx:n=8").params.at("n"), 8);  // upper bound inclusive
    EXPECT_EQ(r.parse("swlx:n=1").params.at("n"), 1);  // lower bound inclusive
    EXPECT_EQ(errorOf(r, "swlx:n=9"), "--scheduler: swlx: n: 9 is out of range 1 .. 8");
    EXPECT_EQ(errorOf(r, "swlx:n=abc"), "--scheduler: swlx: n: 'abc' is not a number");
    EXPECT_EQ(errorOf(r, "swlx:n=3x"), "--scheduler: swlx: n: '3x' is not a number");
    EXPECT_EQ(r.parse("swlx:n=2").toJson().dump(), R"({"name":"swlx","params":{"n":2.0}})");
}

TEST(PolicyRegistry, MalformedSpecsAreInputErrors) {
    const auto& r = PolicyRegistry::builtin();
    EXPECT_EQ(errorOf(r, ""), "--scheduler: '': missing name");
    EXPECT_EQ(errorOf(r, "gto:"), "--scheduler: 'gto:': expected name:key=value[,key=value...]");
}

TEST(PolicyRegistry, ListingNamesEveryPolicy) {
    const std::string l = PolicyRegistry::builtin().listing();
    EXPECT_NE(l.find("lrr  loose round-robin"), std::string::npos) << l;
    EXPECT_NE(l.find("gto  greedy-then-oldest"), std::string::npos) << l;
    EXPECT_EQ(withParam().listing(), "swlx  test policy\n    n=4  [1 .. 8]  warps\n");
}

TEST(PolicyRegistry, IssueSixPoliciesWithTheirPaperDefaults) {
    const auto& r = PolicyRegistry::builtin();
    using P = std::map<std::string, double>;
    EXPECT_EQ(r.parse("two-level").params, (P{{"group", 8}}));
    EXPECT_EQ(r.parse("swl").params, (P{{"warps", 2}, {"per_scheduler", 0}}));
    EXPECT_EQ(r.parse("ccws").params,
              (P{{"k_throttle", 8}, {"base_score", 100}, {"vta_entries", 16}, {"vta_ways", 8}, {"decay", 1},
                 {"score_cap", 8}, {"probe_merged", 0}, {"probe_removes", 0}, {"priority", 0}}));
    EXPECT_EQ(r.parse("mascar").params, (P{{"reexec_entries", 32}, {"saturation_free", 1}, {"send_gate", 0}}));
    EXPECT_EQ(r.parse("oaws-static").params, (P{{"smr", 0.5}, {"dlc_entries", 32}, {"coherent_lines", 2}}));
    EXPECT_EQ(r.parse("oaws-dyn").params,
              (P{{"miss_rate", 0.5}, {"dlc_entries", 32}, {"coherent_lines", 2}, {"assoc_factor", 1.5},
                 {"cmax", 255}, {"cnt_init", 128}, {"ocw_init", 2}, {"ocw_min", 2}, {"reset_per_kernel", 1}}));
    for (const char* n : {"two-level", "swl", "ccws", "mascar", "oaws-static", "oaws-dyn"}) {
        auto pol = r.parse(n).make();
        EXPECT_EQ(pol->name(), n);
    }
    EXPECT_EQ(r.parse("mascar").make()->reexecutionQueueEntries(), 32u);
    EXPECT_EQ(r.parse("mascar:reexec_entries=0").make()->reexecutionQueueEntries(), 0u);
    EXPECT_EQ(r.parse("gto").make()->reexecutionQueueEntries(), 0u);
}

TEST(PolicyRegistry, ShorthandValueIsTheFirstParameter) {
    const auto& r = PolicyRegistry::builtin();
    EXPECT_EQ(r.parse("swl:4").params.at("warps"), 4);
    EXPECT_EQ(r.parse("oaws-static:0.3").params.at("smr"), 0.3);
    EXPECT_EQ(r.parse("two-level:4").params.at("group"), 4);
    // A policy without parameters still rejects a value.
    EXPECT_EQ(errorOf(r, "gto:3"), "--scheduler: 'gto:3': expected name:key=value[,key=value...]");
}

TEST(PolicyRegistry, IssueSixParameterErrors) {
    const auto& r = PolicyRegistry::builtin();
    EXPECT_EQ(errorOf(r, "swl:warps=2.5"), "--scheduler: swl: warps: 2.5 is not an integer");
    EXPECT_EQ(errorOf(r, "swl:warps=0"), "--scheduler: swl: warps: 0 is out of range 1 .. 64");
    EXPECT_EQ(errorOf(r, "oaws-static:smr=1.5"), "--scheduler: oaws-static: smr: 1.5 is out of range 0 .. 1");
    EXPECT_EQ(errorOf(r, "ccws:vta_entries=12"),
              "--scheduler: ccws: vta_entries: 12 is not a multiple of vta_ways (8)");
    EXPECT_EQ(errorOf(r, "oaws-dyn:cnt_init=300"), "--scheduler: oaws-dyn: cnt_init: 300 exceeds cmax (255)");
    EXPECT_EQ(errorOf(r, "oaws-dyn:ocw_min=3"), "--scheduler: oaws-dyn: ocw_min: 3 exceeds ocw_init (2)");
    EXPECT_EQ(errorOf(r, "two-level:size=4"),
              "--scheduler: two-level: unknown parameter 'size' (known: group)");
    const std::string l = r.listing();
    for (const char* n : {"\ntwo-level  ", "\nswl  ", "\nccws  ", "\nmascar  ", "\noaws-static  ", "\noaws-dyn  "})
        EXPECT_NE(l.find(n), std::string::npos) << n << "\n" << l;
    EXPECT_NE(l.find("    smr=0.5  [0 .. 1]"), std::string::npos) << l;
}

} // namespace policy_registry_test

namespace policy_registry_test {

using namespace gpusim;

namespace {
std::string addError(PolicyRegistry& r, PolicyInfo info) {
    try {
        r.add(std::move(info));
    } catch (const InputError& e) {
        return e.what();
    }
    return "<no error>";
}
PolicyInfo gtoNamed(const std::string& name, const std::string& origin = "") {
    PolicyInfo i{name, "test", {}, [](const std::map<std::string, double>&) { return std::make_unique<GtoPolicy>(); }};
    i.origin = origin;
    return i;
}
} // namespace

// Plugins add policies at run time (scheduler/PolicyPlugin.hpp): a taken name names both origins.
TEST(PolicyRegistry, AddRefusesTakenAndMalformedNamesNamingBothOrigins) {
    PolicyRegistry r;
    r.add(gtoNamed("a"));
    r.add(gtoNamed("b", "/p/libb.so"));
    EXPECT_EQ(addError(r, gtoNamed("a", "/p/libx.so")), "scheduler 'a' of plugin /p/libx.so clashes with the built-in 'a'");
    EXPECT_EQ(addError(r, gtoNamed("b", "/p/libx.so")),
              "scheduler 'b' of plugin /p/libx.so clashes with 'b' of plugin /p/libb.so");
    EXPECT_NE(addError(r, gtoNamed("c:d", "/p/libx.so")).find("without ':'"), std::string::npos);
    EXPECT_NE(addError(r, gtoNamed("", "/p/libx.so")).find("non-empty"), std::string::npos);
    PolicyInfo bad = gtoNamed("e", "/p/libx.so");
    bad.params.push_back({"k", 9, 0, 4, "k"});
    EXPECT_EQ(addError(r, bad), "scheduler 'e' of plugin /p/libx.so: parameter k: default 9 is outside its range 0 .. 4");
    // Entries never move: a choice made before an add stays valid.
    const PolicyChoice c = r.parse("a");
    for (int i = 0; i < 100; ++i) r.add(gtoNamed("n" + std::to_string(i)));
    EXPECT_EQ(c.info->name, "a");
    EXPECT_EQ(r.find("n99")->name, "n99");
    EXPECT_EQ(r.listing().find("plugin /p/libb.so") != std::string::npos, true);
}

} // namespace policy_registry_test
