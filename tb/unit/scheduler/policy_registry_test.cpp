// PolicyRegistry: names to policies, parameter validation and the exact error texts.
#include <gtest/gtest.h>

#include <string>

#include "common/SimError.hpp"
#include "scheduler/GtoPolicy.hpp"
#include "scheduler/LrrPolicy.hpp"
#include "scheduler/PolicyRegistry.hpp"

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
    // Names are case-sensitive.
    EXPECT_EQ(errorOf(PolicyRegistry::builtin(), "GTO"),
              "--scheduler: unknown scheduler 'GTO' (see gpusim list schedulers)");
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
