// Sweep specifications and tables: parsing and its one-line errors, validation against the
// registries and the configuration schema, the cross product and its ids, the child command
// line, statistic selection (summary keys, registry names, fields, sum:PATTERN), and the table
// rebuilt from job files, with every expected value derived by hand in the comments.
#include <gtest/gtest.h>

#include <fstream>

#include "common/SimError.hpp"
#include "experiments/Subprocess.hpp"
#include "experiments/SweepSpec.hpp"
#include "experiments/SweepTable.hpp"

namespace sweep_spec_test {

using namespace gpusim;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::string errorOf(const json& doc, bool validate = false) {
    try {
        const SweepSpec s = parseSweepSpec(doc, "s.json");
        if (validate) validateSweepSpec(s);
    } catch (const InputError& e) {
        return e.what();
    }
    return "";
}

json basic() {
    return json::parse(R"({"platforms": ["fermi15"], "schedulers": ["gto", "lrr"],
        "workloads": ["vectoradd:n=256", "atax:n=32"], "set": {"l1d.mshr_entries": [16, 32], "l2.mshr_entries": 24},
        "seed": 3, "max_cycles": 5000, "stats": ["l1d_read_miss_rate", "sum:sm*.l1d.read_misses", "ipc"]})");
}

} // namespace

TEST(SweepSpec, ParsesAxesFixedOptionsAndStats) {
    const SweepSpec s = parseSweepSpec(basic(), "dir/my-sweep.json");
    EXPECT_EQ(s.name, "my-sweep");  // the file's stem without a "name" key
    EXPECT_EQ(s.schedulers, (std::vector<std::string>{"gto", "lrr"}));
    ASSERT_EQ(s.setAxes.size(), 1u);  // a list is an axis, a scalar a fixed value
    EXPECT_EQ(s.setAxes[0].first, "l1d.mshr_entries");
    ASSERT_EQ(s.setFixed.size(), 1u);
    EXPECT_EQ(s.setFixed[0].first, "l2.mshr_entries");
    EXPECT_EQ(s.seed, 3u);
    EXPECT_EQ(s.maxCycles, 5000u);
    // "ipc" is always collected, so it is not repeated after the requested ones.
    EXPECT_EQ(s.stats, (std::vector<std::string>{"l1d_read_miss_rate", "sum:sm*.l1d.read_misses"}));
}

TEST(SweepSpec, ExpandsTheCrossProductWithStableIds) {
    const SweepSpec s = parseSweepSpec(basic(), "s.json");
    const auto jobs = expandSweep(s);
    // 1 platform x 2 schedulers x 2 workloads x 2 MSHR sizes = 8, the set axis fastest.
    ASSERT_EQ(jobs.size(), 8u);
    EXPECT_EQ(jobs[0].id, "fermi15__gto__vectoradd_n=256__l1d.mshr_entries=16");
    EXPECT_EQ(jobs[1].id, "fermi15__gto__vectoradd_n=256__l1d.mshr_entries=32");
    EXPECT_EQ(jobs[2].id, "fermi15__gto__atax_n=32__l1d.mshr_entries=16");
    EXPECT_EQ(jobs[7].id, "fermi15__lrr__atax_n=32__l1d.mshr_entries=32");
    EXPECT_EQ(jobs[7].set[0].second, json(32));
    // Adding an axis value leaves the ids of the existing jobs as they were (resume relies on it).
    json more = basic();
    more["set"]["l1d.mshr_entries"] = {16, 32, 64};
    const auto bigger = expandSweep(parseSweepSpec(more, "s.json"));
    ASSERT_EQ(bigger.size(), 12u);
    EXPECT_EQ(bigger[0].id, jobs[0].id);
    EXPECT_EQ(bigger[3].id, "fermi15__gto__atax_n=32__l1d.mshr_entries=16");
}

TEST(SweepSpec, TwoSetAxesOdometerAndIdClashGetsAHash) {
    const json doc = json::parse(R"({"platforms": ["p"], "schedulers": ["a:b", "a_b"], "workloads": ["w"],
        "set": {"x.k": [1, 2], "a.k": ["u", "v"]}})");
    const auto jobs = expandSweep(parseSweepSpec(doc, "s.json"));
    // 2 schedulers x 2 x 2; set axes in key order (a.k before x.k), x.k fastest.
    ASSERT_EQ(jobs.size(), 8u);
    // "a:b" and "a_b" both make "a_b": both ids get an 8-hex-digit tag, and differ.
    EXPECT_EQ(jobs[0].id.substr(0, jobs[0].id.size() - 9), "p__a_b__w__a.k=u__x.k=1");
    EXPECT_EQ(jobs[0].id[jobs[0].id.size() - 9], '-');
    EXPECT_NE(jobs[0].id, jobs[4].id);
    EXPECT_EQ(jobs[1].set[0], (std::pair<std::string, json>{"a.k", "u"}));
    EXPECT_EQ(jobs[1].set[1], (std::pair<std::string, json>{"x.k", 2}));
    EXPECT_EQ(jobs[2].set[0].second, json("v"));
    // The tag hashes the exact values, so it is the same on every expansion.
    EXPECT_EQ(expandSweep(parseSweepSpec(doc, "s.json"))[0].id, jobs[0].id);
}

TEST(SweepSpec, ChildCommandLine) {
    const SweepSpec s = parseSweepSpec(basic(), "s.json");
    const auto jobs = expandSweep(s);
    const auto argv = sweepJobArgv(s, jobs[1], "/bin/gpusim", "/o/x.json");
    const std::vector<std::string> want{"/bin/gpusim", "run", "--quiet", "--platform", "fermi15", "--scheduler",
                                        "gto", "--workload", "vectoradd:n=256", "--seed", "3", "--max-cycles", "5000",
                                        "--stats", "/o/x.json", "--set", "l2.mshr_entries=24", "--set",
                                        "l1d.mshr_entries=32"};
    EXPECT_EQ(argv, want);
    EXPECT_EQ(setValueText(json("on-fill")), "on-fill");
    EXPECT_EQ(setValueText(json(true)), "true");
}

TEST(SweepSpec, MalformedSpecsNameFileAndKey) {
    json j = basic();
    j["platform"] = {"x"};
    EXPECT_EQ(errorOf(j).substr(0, 35), "s.json: platform: unknown key (expe");
    j = basic();
    j["schedulers"] = json::array();
    EXPECT_EQ(errorOf(j), "s.json: schedulers: empty axis (give at least one value)");
    j = basic();
    j.erase("workloads");
    EXPECT_EQ(errorOf(j), "s.json: workloads: missing (expected a non-empty list of names)");
    j = basic();
    j["set"]["l1d.ways"] = json::array();
    EXPECT_EQ(errorOf(j), "s.json: set.l1d.ways: empty axis (give at least one value)");
    j = basic();
    j["set"]["l1d.ways"] = {json::object()};
    EXPECT_EQ(errorOf(j), "s.json: set.l1d.ways: expected a number, boolean or string, got {}");
    j = basic();
    j["seed"] = -1;
    EXPECT_EQ(errorOf(j), "s.json: seed: expected a non-negative integer, got -1");
    j = basic();
    j["workloads"] = {"atax", "atax"};
    EXPECT_EQ(errorOf(j), "s.json: workloads: 'atax' listed twice");
}

TEST(SweepSpec, ValidationChecksNamesAndSetKeysAgainstTheRegistries) {
    EXPECT_EQ(errorOf(basic(), true), "");
    json j = basic();
    j["platforms"] = {"fermi15", "fermi16"};
    EXPECT_EQ(errorOf(j, true).rfind("s.json: platforms: ", 0), 0u) << errorOf(j, true);
    EXPECT_NE(errorOf(j, true).find("fermi16"), std::string::npos) << errorOf(j, true);
    j = basic();
    j["schedulers"] = {"gto", "gtoo"};
    EXPECT_EQ(errorOf(j, true).rfind("s.json: schedulers: ", 0), 0u) << errorOf(j, true);
    EXPECT_NE(errorOf(j, true).find("gtoo"), std::string::npos);
    j = basic();
    j["workloads"] = {"atax:n=32", "vectorad"};
    EXPECT_EQ(errorOf(j, true),
              "s.json: workloads: unknown workload 'vectorad'; did you mean 'vectoradd'? (see gpusim list workloads)");
    // Parameters too, before any job runs (atax: n in 32 .. 16384).
    j = basic();
    j["workloads"] = {"atax:n=32", "atax:n=0"};
    EXPECT_EQ(errorOf(j, true), "s.json: workloads: atax: n: 0 is out of range 32 .. 16384");
    j = basic();
    j["set"]["l1d.mshr_entrie"] = {8};
    EXPECT_EQ(errorOf(j, true), "s.json: set: l1d.mshr_entrie: unknown parameter; did you mean 'l1d.mshr_entries'? "
                                "(see gpusim config --reference)");
    j = basic();
    j["set"]["l1d.mshr_entries"] = {16, "many"};
    EXPECT_EQ(errorOf(j, true).rfind("s.json: set: l1d.mshr_entries: expected an integer", 0), 0u) << errorOf(j, true);
    // A value each key accepts alone but whose combination breaks a cross-parameter rule is left
    // to the job (l1d.ways = 3 does not divide the L1D into a power-of-two number of sets).
    j = basic();
    j["set"]["l1d.ways"] = {3};
    EXPECT_EQ(errorOf(j, true), "");
}

TEST(SweepTable, SelectsSummaryRegistryFieldsAndSums) {
    const json doc = json::parse(R"({"summary": {"cycles": 100, "ipc": 0.5, "ldst_stalls": {"LDST_MSHR": 7}},
        "stats": {"sm0.l1d.read_misses": 3, "sm1.l1d.read_misses": 4, "sm10.l1d.read_misses": 5,
                  "sm0.l1d.write_misses": 100, "sm0.ldst.load_latency": {"mean": 2.5, "count": 4, "buckets": [[0, 4]]},
                  "sm1.ldst.load_latency": {"mean": 3.0, "count": 6, "buckets": []}}})");
    EXPECT_EQ(sweep::selectStat(doc, "cycles"), json(100));
    EXPECT_EQ(sweep::selectStat(doc, "ldst_stalls.LDST_MSHR"), json(7));
    EXPECT_EQ(sweep::selectStat(doc, "sm1.l1d.read_misses"), json(4));
    EXPECT_EQ(sweep::selectStat(doc, "sm0.ldst.load_latency.mean"), json(2.5));
    // sm0, sm1 and sm10 read misses: 3 + 4 + 5 = 12, an integer; write misses do not match.
    EXPECT_EQ(sweep::selectStat(doc, "sum:sm*.l1d.read_misses"), json(12));
    EXPECT_TRUE(sweep::selectStat(doc, "sum:sm*.l1d.read_misses").is_number_integer());
    // Loads over both SMs: 4 + 6 = 10.
    EXPECT_EQ(sweep::selectStat(doc, "sum:sm*.ldst.load_latency.count"), json(10));
    EXPECT_TRUE(sweep::selectStat(doc, "sm0.ldst.load_latency").is_null());  // an object, not a number
    EXPECT_TRUE(sweep::selectStat(doc, "sum:gpu.*").is_null());
    EXPECT_TRUE(sweep::selectStat(doc, "no_such_stat").is_null());
}

TEST(SweepTable, RebuildsRowsFromJobFiles) {
    const fs::path out = fs::temp_directory_path() / ("gpusim-sweep-unit-" + std::to_string(getpid()));
    fs::remove_all(out);
    fs::create_directories(sweep::jobsDir(out));
    json spec = json::parse(R"({"name": "t", "platforms": ["fermi15"], "schedulers": ["gto"],
        "workloads": ["atax:n=32,x=1", "vectoradd"], "set": {"l1d.mshr_entries": [16]},
        "stats": ["sum:sm*.l1d.read_misses"]})");
    const SweepSpec s = parseSweepSpec(spec, "t.json");
    const auto jobs = expandSweep(s);
    ASSERT_EQ(jobs.size(), 2u);
    std::ofstream(sweep::resultFile(out, jobs[0].id))
        << R"({"summary": {"cycles": 200, "warp_instructions": 50, "ipc": 0.25},
              "stats": {"sm0.l1d.read_misses": 2, "sm1.l1d.read_misses": 9}})";
    std::ofstream(sweep::failedFile(out, jobs[1].id)) << R"({"status": 2, "error": "gpusim: error: boom"})";
    sweep::writeAtomically(out / "sweep.json", sweep::manifest(s, jobs).dump());
    SweepSpec back;
    std::vector<SweepJob> backJobs;
    sweep::readManifest(out, back, backJobs);
    ASSERT_EQ(backJobs.size(), 2u);
    EXPECT_EQ(backJobs[1].id, jobs[1].id);
    const auto t = sweep::collectTable(out, back, backJobs);
    EXPECT_EQ(t.ok, 1u);
    EXPECT_EQ(t.failed, 1u);
    // The workload holds a comma, so the CSV quotes it; read misses 2 + 9 = 11; the failed row has
    // no statistics.
    const std::string csv = sweep::tableCsv(t, back);
    EXPECT_EQ(csv,
              "id,platform,scheduler,workload,l1d.mshr_entries,status,error,cycles,warp_instructions,ipc,"
              "sum:sm*.l1d.read_misses\n"
              "fermi15__gto__atax_n=32_x=1__l1d.mshr_entries=16,fermi15,gto,\"atax:n=32,x=1\",16,ok,,200,50,0.25,11\n"
              "fermi15__gto__vectoradd__l1d.mshr_entries=16,fermi15,gto,vectoradd,16,failed,"
              "exit 2: gpusim: error: boom,,,,\n");
    const json tj = sweep::tableJson(t, back);
    EXPECT_EQ(tj["rows"][0]["l1d.mshr_entries"], json(16));
    EXPECT_EQ(tj["rows"][0]["sum:sm*.l1d.read_misses"], json(11));
    EXPECT_EQ(tj["not_ok"][0]["id"], json(jobs[1].id));
    // A result file cut short is not a result: the job is missing, to be rerun.
    std::ofstream(sweep::resultFile(out, jobs[0].id)) << R"({"summary": {"cyc)";
    EXPECT_TRUE(sweep::readResult(out, jobs[0].id).is_null());
    EXPECT_EQ(sweep::collectTable(out, back, backJobs).missing, 1u);
    fs::remove_all(out);
}

} // namespace sweep_spec_test
