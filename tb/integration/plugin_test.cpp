// Policy plugins (docs/extending.md, scheduler/PolicyPlugin.hpp): the test plugins of tb/plugins
// loaded by the gpusim executable (run, list, sweep, regress with a matrix of one's own) and, in
// this process, through the co-simulation API. Refusals exit 2 with one line naming the path: a
// plugin built against another version (both versions named), a missing file, a library that is
// not a plugin, one that registers nothing, a name clash (both origins named).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/SimError.hpp"
#include "common/Stats.hpp"
#include "scheduler/PolicyPlugin.hpp"
#include "tb/common/ProcessRunner.hpp"
#include "tb/unit/scheduler/FakeSmView.hpp"

namespace plugin_test {

using namespace gpusim;
using namespace gpusim::tb;

namespace {

std::string plugin(const std::string& name) {
    return GPUSIM_BINARY_DIR "/tb/plugins/libgpusim_test_plugin_" + name + ".so";
}

// Exit 2, nothing on stdout, one stderr line holding every text of `mentions`.
void expectRefused(const std::vector<std::string>& args, const std::vector<std::string>& mentions) {
    const ProcessResult r = runGpusim(args);
    EXPECT_EQ(r.status, 2) << commandLine(args) << "\n" << r.err;
    EXPECT_EQ(r.out, "") << commandLine(args);
    const auto lines = r.errLines();
    ASSERT_EQ(lines.size(), 1u) << r.err;
    EXPECT_EQ(lines[0].rfind("gpusim: error: --plugin: ", 0), 0u) << lines[0];
    for (const auto& m : mentions) EXPECT_NE(lines[0].find(m), std::string::npos) << "'" << m << "' not in: " << lines[0];
}

std::string loadError(const std::string& path) {
    try {
        loadPolicyPlugin(path);
    } catch (const InputError& e) {
        return e.what();
    }
    return "<no error>";
}

} // namespace

TEST(PluginCli, RunsAPluginPolicyWithItsParametersStatisticsAndHooks) {
    ScratchDir dir;
    const std::string stats = (dir / "s.json").string();
    const std::vector<std::string> args = {"run", "--quiet", "--plugin", plugin("youngest"), "--scheduler",
                                           "test-youngest:step=2", "--workload", "vectoradd:n=4096", "--stats", stats};
    const ProcessResult r = runGpusim(args);
    ASSERT_EQ(r.status, 0) << r.err;
    const auto j = nlohmann::json::parse(readFile(stats));
    EXPECT_EQ(j["scheduler"]["name"], "test-youngest") << j["scheduler"].dump();
    EXPECT_EQ(j["scheduler"]["params"]["step"], 2);
    // sched.* statistics through registerStats, updated by onIssue and onLoadComplete.
    double issued = 0, loads = 0;
    for (const auto& [k, v] : j["stats"].items()) {
        if (k.find(".sched.test_issued") != std::string::npos) issued += v.get<double>();
        if (k.find(".sched.test_loads_completed") != std::string::npos) loads += v.get<double>();
    }
    EXPECT_EQ(issued, j["stats"]["gpu.warp_instructions"].get<double>());
    EXPECT_GT(loads, 0);
}

TEST(PluginCli, ListShowsThePluginsPoliciesWithTheirOrigin) {
    const ProcessResult r = runGpusim({"list", "schedulers", "--plugin", plugin("youngest")});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("test-youngest  test plugin: youngest warp first (plugin " + plugin("youngest") + ")"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("\ngto  "), std::string::npos);
    // Unknown without the plugin.
    const ProcessResult u = runGpusim({"run", "--quiet", "--scheduler", "test-youngest"});
    EXPECT_EQ(u.status, 2);
    EXPECT_NE(u.err.find("unknown scheduler 'test-youngest'"), std::string::npos) << u.err;
}

TEST(PluginCli, PluginOfAnotherVersionIsRefusedNamingBothVersions) {
    expectRefused({"run", "--quiet", "--plugin", plugin("wrong_abi")},
                  {plugin("wrong_abi"), "built against gpusim 0.0.1 (plugin ABI 99)",
                   std::string("this is gpusim ") + GPUSIM_VERSION_STRING + " (plugin ABI " +
                       std::to_string(GPUSIM_PLUGIN_ABI) + ")"});
}

TEST(PluginCli, BadPathsAndNonPluginsAreRefusedNamingThePath) {
    ScratchDir dir;
    writeFile(dir / "garbage.so", "not an ELF file\n");
    expectRefused({"run", "--quiet", "--plugin", (dir / "missing.so").string()}, {(dir / "missing.so").string(), "no such file"});
    expectRefused({"run", "--quiet", "--plugin", dir.path().string()}, {dir.path().string(), "not a file"});
    expectRefused({"run", "--quiet", "--plugin", (dir / "garbage.so").string()}, {(dir / "garbage.so").string(), "cannot load"});
    expectRefused({"run", "--quiet", "--plugin", plugin("no_entry")}, {plugin("no_entry"), "not a gpusim plugin"});
    expectRefused({"sweep", "nospec.json", "--plugin", (dir / "missing.so").string()}, {(dir / "missing.so").string()});
    expectRefused({"list", "schedulers", "--plugin", (dir / "missing.so").string()}, {(dir / "missing.so").string()});
}

TEST(PluginCli, PluginRegisteringNothingIsRefusedNamingThePath) {
    expectRefused({"run", "--quiet", "--plugin", plugin("empty")}, {plugin("empty"), "registers no scheduler policy"});
}

TEST(PluginCli, NameClashesAreRefusedNamingBothOrigins) {
    expectRefused({"run", "--quiet", "--plugin", plugin("clash")},
                  {"scheduler 'gto' of plugin " + plugin("clash"), "clashes with the built-in 'gto'"});
    ScratchDir dir;
    const auto copy = dir / "libcopy.so";
    std::filesystem::copy_file(plugin("youngest"), copy);
    expectRefused({"run", "--quiet", "--plugin", plugin("youngest"), "--plugin", copy.string()},
                  {"scheduler 'test-youngest' of plugin " + copy.string(),
                   "clashes with 'test-youngest' of plugin " + plugin("youngest")});
    // The same file twice is loaded once.
    const ProcessResult r = runGpusim({"run", "--quiet", "--plugin", plugin("youngest"), "--plugin", plugin("youngest"),
                                       "--scheduler", "test-youngest", "--workload", "vectoradd:n=64"});
    EXPECT_EQ(r.status, 0) << r.err;
}

TEST(PluginCli, SweepPassesThePluginToEveryJob) {
    ScratchDir dir;
    writeFile(dir / "spec.json", R"({"name": "plug", "platforms": ["fermi15"], "schedulers": ["test-youngest", "gto"],
                                     "workloads": ["vectoradd:n=1024"]})");
    const std::string out = (dir / "out").string();
    // Without the plugin the spec's scheduler is unknown before any job runs.
    const ProcessResult bad = runGpusim({"sweep", (dir / "spec.json").string(), "-j", "2", "--out", out});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("unknown scheduler 'test-youngest'"), std::string::npos) << bad.err;
    const ProcessResult list =
        runGpusim({"sweep", (dir / "spec.json").string(), "--list", "--out", out, "--plugin", plugin("youngest")});
    ASSERT_EQ(list.status, 0) << list.err;
    EXPECT_NE(list.out.find("--plugin " + plugin("youngest")), std::string::npos) << list.out;
    const ProcessResult r =
        runGpusim({"sweep", (dir / "spec.json").string(), "-j", "2", "--out", out, "--plugin", plugin("youngest")});
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("2 jobs: 2 ok"), std::string::npos) << r.out;
    // The manifest keeps the plugin (Slurm tasks and --resume read it).
    const auto m = nlohmann::json::parse(readFile(dir / "out" / "sweep.json"));
    EXPECT_EQ(m["fixed"]["plugins"], nlohmann::json::array({plugin("youngest")})) << m["fixed"].dump();
    // Resuming with another plugin file (a copy of it) is refused: the finished jobs would not match.
    const auto copy = dir / "libcopy.so";
    std::filesystem::copy_file(plugin("youngest"), copy);
    const ProcessResult again =
        runGpusim({"sweep", (dir / "spec.json").string(), "--out", out, "--resume", "--plugin", copy.string()});
    EXPECT_EQ(again.status, 2);
    EXPECT_NE(again.err.find("plugins: differs"), std::string::npos) << again.err;
}

TEST(PluginCli, RegressWithAMatrixOfOnesOwnRunsThePluginsCases) {
    ScratchDir dir;
    writeFile(dir / "matrix.json", R"({"default": [{"platforms": ["fermi15"], "schedulers": ["test-youngest"],
                                                    "workloads": ["vectoradd:n=1024"]}]})");
    const std::vector<std::string> base = {"regress", "--dir", dir.path().string(), "-j", "1", "--plugin", plugin("youngest")};
    std::vector<std::string> bless = base;
    bless.push_back("--bless");
    const ProcessResult b = runGpusim(bless);
    ASSERT_EQ(b.status, 0) << b.out << b.err;
    const ProcessResult r = runGpusim(base);
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("summary: 1 ok"), std::string::npos) << r.out;
}

// The co-simulation API: loadPolicyPlugin in this process, then the registry knows the policy.
TEST(PluginApi, LoadedPolicyOrdersWarpsThroughTheRegistry) {
    const std::vector<std::string> names = loadPolicyPlugin(plugin("youngest"));
    EXPECT_EQ(names, std::vector<std::string>{"test-youngest"});
    EXPECT_EQ(loadPolicyPlugin(plugin("youngest")), names);  // again: nothing new
    const PolicyChoice c = PolicyRegistry::builtin().parse("test-youngest");
    EXPECT_EQ(c.info->origin, std::filesystem::canonical(plugin("youngest")).string());
    auto p = c.make();
    test::FakeSmView sm(8, {5, 1, 7, 0, 2, 6, 3, 4});
    StatRegistry stats;
    p->registerStats(stats, "sm0.sched.");
    p->attach(sm);
    std::vector<unsigned> warps = {0, 2, 4, 6};  // ages 5, 7, 2, 3
    p->order(0, warps, sm);
    EXPECT_EQ(warps, (std::vector<unsigned>{2, 0, 6, 4}));
    p->onIssue(0, 2, sm);
    EXPECT_EQ(stats.get("sm0.sched.test_issued"), 1);
}

TEST(PluginApi, RefusalsLeaveTheRegistryAsItWas) {
    const size_t before = PolicyRegistry::builtin().all().size();
    EXPECT_NE(loadError(plugin("wrong_abi")).find("built against gpusim 0.0.1 (plugin ABI 99)"), std::string::npos);
    EXPECT_NE(loadError(plugin("clash")).find("clashes with the built-in 'gto'"), std::string::npos);
    EXPECT_NE(loadError(plugin("empty")).find("registers no scheduler policy"), std::string::npos);
    EXPECT_EQ(PolicyRegistry::builtin().all().size(), before);
    EXPECT_EQ(PolicyRegistry::builtin().parse("gto").info->origin, "");
}

} // namespace plugin_test
