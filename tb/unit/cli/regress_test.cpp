// The regression testbench's pieces: matrix expansion, the flat comparable form of a stats
// document (zeros dropped, histograms and kernels flattened), and the comparison rules.
#include <gtest/gtest.h>

#include "common/SimError.hpp"
#include "cli/RegressCommand.hpp"

namespace regress_test {

using namespace gpusim;
using nlohmann::json;

TEST(RegressMatrix, StarIsEverySchedulerAndDuplicatesCollapse) {
    const json doc = json::parse(R"({"default": [
        {"platforms": ["fermi15", "owl28"], "schedulers": ["*"], "workloads": ["atax:n=128"]},
        {"platforms": ["fermi15"], "schedulers": ["gto"], "workloads": ["atax:n=128", "bfs"]}]})");
    const auto cases = regress::expandMatrix(doc, "default", "m.json", {"lrr", "gto"});
    // 2 platforms x 2 schedulers = 4, then fermi15/gto/atax again (dropped) and fermi15/gto/bfs.
    ASSERT_EQ(cases.size(), 5u);
    EXPECT_EQ(cases[0].id(), "fermi15__lrr__atax_n=128");
    EXPECT_EQ(cases[3].id(), "owl28__gto__atax_n=128");
    EXPECT_EQ(cases[4].id(), "fermi15__gto__bfs");
    EXPECT_EQ(regress::Case({"p", "swl:2,per_scheduler=1", "w"}).id(), "p__swl_2_per_scheduler=1__w");
}

TEST(RegressMatrix, MalformedMatrixNamesFileAndBlock) {
    const json noMatrix = json::parse(R"({"full": []})");
    EXPECT_THROW(regress::expandMatrix(noMatrix, "default", "m.json", {}), InputError);
    const json badKey = json::parse(R"({"default": [{"platforms": ["a"], "schedulers": ["b"], "workload": ["c"]}]})");
    try {
        regress::expandMatrix(badKey, "default", "m.json", {});
        FAIL();
    } catch (const InputError& e) {
        EXPECT_EQ(std::string(e.what()), "m.json: default[0]: workload: unknown key (expected platforms, schedulers, workloads)");
    }
    const json empty = json::parse(R"({"default": [{"platforms": [], "schedulers": ["b"], "workloads": ["c"]}]})");
    EXPECT_THROW(regress::expandMatrix(empty, "default", "m.json", {}), InputError);
}

TEST(RegressComparable, DropsZerosAndFlattensHistogramsAndKernels) {
    const json doc = json::parse(R"({
        "stats": {"a": 3, "b": 0, "avg": 0.5,
                  "h": {"count": 2, "mean": 7.5, "min": 5.0, "max": 10.0, "buckets": [[0.0, 1], [8.0, 1], [16.0, 0]]}},
        "kernels": [{"name": "k", "start_cycle": 1, "end_cycle": 9, "ctas": 2}]})");
    const json c = regress::comparable(doc);
    EXPECT_EQ(c, json::parse(R"({"a": 3, "avg": 0.5, "h.count": 2, "h.mean": 7.5, "h.min": 5.0, "h.max": 10.0,
                                 "h.bucket.0": 1, "h.bucket.8": 1,
                                 "kernel.0.name": "k", "kernel.0.start_cycle": 1, "kernel.0.end_cycle": 9,
                                 "kernel.0.ctas": 2})"));
}

TEST(RegressCompare, CountsExactRealsToOnePartInABillionAbsentIsZero) {
    const json golden = json::parse(R"({"cycles": 100, "mean": 1.0, "gone": 4})");
    // cycles +1: differs. mean off by 1e-12 relative: equal. gone: absent now. new: appears.
    const json now = json::parse(R"({"cycles": 101, "mean": 1.000000000001, "new": 2})");
    const auto d = regress::compare(golden, now);
    ASSERT_EQ(d.size(), 3u);
    EXPECT_EQ(d[0].name, "cycles");
    EXPECT_EQ(d[0].golden, 100);
    EXPECT_EQ(d[0].now, 101);
    EXPECT_EQ(d[1].name, "gone");
    EXPECT_TRUE(d[1].now.is_null());
    EXPECT_EQ(d[2].name, "new");
    EXPECT_TRUE(d[2].golden.is_null());
    EXPECT_TRUE(regress::compare(golden, golden).empty());
    // A real value off by 1e-6 relative is a difference.
    EXPECT_EQ(regress::compare(json::parse(R"({"m": 1.0})"), json::parse(R"({"m": 1.000001})")).size(), 1u);
}

} // namespace regress_test
