#include <gtest/gtest.h>

#include "common/Spec.hpp"
#include "common/Stats.hpp"

namespace stats_test {

using namespace gpusim;

TEST(Stats, CountersAveragesHistograms) {
    StatRegistry r;
    auto& c = r.counter("sm0.l1d.misses", "misses");
    auto& c1 = r.counter("sm1.l1d.misses", "misses");
    auto& a = r.average("sm0.ldst.load_latency", "latency");
    auto& h = r.histogram("noc.req.latency", "latency", 10, 10);
    c.inc();
    c.inc(2);
    c1.inc(5);
    a.sample(10);
    a.sample(20);
    for (int i = 0; i < 100; ++i) h.sample(i);  // 10 per bucket
    EXPECT_EQ(r.get("sm0.l1d.misses"), 3);
    EXPECT_EQ(r.sum("sm", ".l1d.misses"), 8);
    EXPECT_DOUBLE_EQ(a.mean(), 15);
    EXPECT_DOUBLE_EQ(h.mean(), 49.5);
    EXPECT_DOUBLE_EQ(h.percentile(50), 50);  // upper edge of the 5th bucket
    EXPECT_DOUBLE_EQ(h.percentile(99), 99);  // capped by the exact maximum
    auto j = r.toJson();
    EXPECT_EQ(j["sm0.l1d.misses"], 3);
    EXPECT_EQ(j["sm0.ldst.load_latency"]["count"], 2);
    EXPECT_THROW(r.counter("sm0.l1d.misses", "again"), std::logic_error);
    EXPECT_THROW(r.get("nope"), std::out_of_range);
}

TEST(Spec, ParsesNameAndParameters) {
    auto s = parseSpec("atax:n=256,seed=3", "--workload");
    EXPECT_EQ(s.name, "atax");
    EXPECT_EQ(s.params.at("n"), "256");
    EXPECT_EQ(s.params.at("seed"), "3");
    EXPECT_TRUE(parseSpec("gto", "--scheduler").params.empty());
    EXPECT_THROW(parseSpec("atax:n", "--workload"), InputError);
    EXPECT_THROW(parseSpec(":n=1", "--workload"), InputError);
    EXPECT_THROW(parseSpec("atax:n=1,n=2", "--workload"), InputError);
}

} // namespace stats_test
