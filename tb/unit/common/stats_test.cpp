#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

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

// A unit that counts late registers a settler: every read through the registry runs it first,
// and a removed one no longer runs. n samples at once equal n single samples, bit for bit.
TEST(Stats, SettlersRunBeforeEveryReadAndBatchedSamplesEqualSingleOnes) {
    StatRegistry r;
    auto& c = r.counter("sm0.active_cycles", "active");
    uint64_t pending = 0;
    unsigned runs = 0;
    const size_t id = r.addSettler([&] {
        ++runs;
        c.inc(pending);
        pending = 0;
    });
    pending = 3;
    EXPECT_EQ(r.get("sm0.active_cycles"), 3);
    pending = 2;
    EXPECT_EQ(r.sum("sm", ".active_cycles"), 5);
    pending = 1;
    EXPECT_EQ(r.toJson()["sm0.active_cycles"], 6);
    pending = 4;
    EXPECT_EQ(r.find("sm0.active_cycles")->value(), 10);
    pending = 5;
    EXPECT_EQ(r.all().at("sm0.active_cycles")->value(), 15);
    EXPECT_EQ(runs, 5u);
    r.removeSettler(id);
    pending = 7;
    EXPECT_EQ(r.get("sm0.active_cycles"), 15);
    EXPECT_EQ(runs, 5u);

    auto& one = r.average("one", "");
    auto& batch = r.average("batch", "");
    for (unsigned k = 0; k < 1000; ++k) one.sample(17);
    for (unsigned k = 0; k < 1000; ++k) one.sample(3);
    batch.sample(17, 1000);
    batch.sample(3, 0);  // nothing
    batch.sample(3, 1000);
    EXPECT_EQ(one.toJson(), batch.toJson());
}

// A level sampled every cycle as runs (sampleLevel) gives the figures of one sample per cycle:
// count, sum, minimum, maximum and mean, read at any point (a pending run included), through
// toJson() and the written text, with runs of one, long runs, batched cycles, a level of zero
// first, and plain samples mixed in (which settle the run first).
TEST(Stats, LevelRunsEqualOneSamplePerCycle) {
    StatRegistry r;
    auto& each = r.average("each", "");
    auto& runs = r.average("runs", "");
    auto same = [&](const char* when) {
        EXPECT_EQ(each.toJson(), runs.toJson()) << when;
        EXPECT_EQ(each.count(), runs.count()) << when;
        EXPECT_EQ(each.mean(), runs.mean()) << when;
        std::string a, b;
        JsonText ta(a, 0), tb(b, 0);
        each.writeJson(ta);
        runs.writeJson(tb);
        EXPECT_EQ(a, b) << when;
    };
    same("empty");
    for (int k = 0; k < 3; ++k) {
        each.sample(0.0);
        runs.sampleLevel(0);
    }
    same("a pending run of zeros");
    std::mt19937_64 rng(7);
    for (int k = 0; k < 5000; ++k) {
        const uint64_t x = rng() % 4 == 0 ? rng() % 40 : 12;  // long runs of 12 between changes
        if (k % 97 == 0) {
            const uint64_t n = rng() % 50;  // batched cycles, zero included
            for (uint64_t j = 0; j < n; ++j) each.sample(double(x));
            runs.sampleLevel(x, n);
        } else if (k % 301 == 0) {
            each.sample(2.5);  // a plain sample among the levels
            runs.sample(2.5);
        } else {
            each.sample(double(x));
            runs.sampleLevel(x);
        }
        if (k % 1000 == 999) same("mid-run");
    }
    same("end");
    EXPECT_EQ(runs.count(), each.count());
    EXPECT_GT(runs.count(), 5000u);
    EXPECT_EQ(runs.toJson()["min"], 0.0);
}

// The statistics' text must be what nlohmann's dump(2) prints for toJson(), byte for byte: the
// same --stats file as before the writer (issue 19).
TEST(Stats, WrittenTextIsTheDumpOfTheJson) {
    StatRegistry r;
    r.counter("a.zero", "");
    r.counter("b.big", "").inc(UINT64_MAX);
    r.counter("key \"quoted\"\\ \t\x01 caf\xc3\xa9", "").inc(7);  // escaped and non-ASCII key
    r.average("c.empty", "");
    auto& a = r.average("d.avg", "");
    a.sample(1.0 / 3.0);
    a.sample(1e-7);
    a.sample(123456789012345.0);
    a.sample(-2.5);
    r.histogram("e.hist.empty", "", 10, 10);
    auto& h = r.histogram("f.hist", "", 0.25, 8);  // fractional edges, and an overflow bin
    for (double x : {0.0, 0.1, 0.3, 0.3, 1.9, 2.0, 50.0, 1e300}) h.sample(x);
    auto& nan = r.average("g.nan", "");
    nan.sample(std::numeric_limits<double>::infinity());

    std::string text;
    JsonText out(text, 0);
    r.writeJson(out);
    EXPECT_EQ(text, r.toJson().dump(2));
    EXPECT_NE(text.find("\"buckets\": []"), std::string::npos);  // the empty histogram

    // Spliced at depth 1 of a document (as the report places it), and any nlohmann value.
    const nlohmann::json doc = {{"x", {{"arr", {1, -2, 3.5, nullptr, true, "s\n", nlohmann::json::array(),
                                                 nlohmann::json::object()}},
                                       {"n", {{"deep", {{"k", 1u}}}}}}}};
    std::string inner;
    JsonText at1(inner, 2);
    at1.value(doc["x"]);
    EXPECT_EQ("{\n  \"x\": " + inner + "\n}", doc.dump(2));
}

// Whole numbers take a shortcut in JsonText (digits and ".0" below 1e15): the same text as
// nlohmann's, on both sides of the limit, for signed zeros and for random values.
TEST(Stats, WholeDoublesAreWrittenAsNlohmannWritesThem) {
    std::vector<double> values = {0.0, -0.0, 1.0, -1.0, 16.0, 1200.0, 1e14, 999999999999999.0, 1e15,
                                  -999999999999999.0, -1e15, 1e16, 123456789012345.0, 9007199254740992.0,
                                  0.5, 1e-300, 2.5e15};
    std::mt19937_64 rng(7);
    for (int i = 0; i < 2000; ++i) {
        const int digits = 1 + static_cast<int>(rng() % 16);
        double v = std::floor(std::ldexp(double(rng() >> 11), -53) * std::pow(10.0, digits));
        values.push_back(rng() % 2 ? v : -v);
    }
    for (const double v : values) {
        std::string text;
        JsonText out(text, 0);
        out.value(v);
        EXPECT_EQ(text, nlohmann::json(v).dump()) << v;
    }
}

} // namespace stats_test
