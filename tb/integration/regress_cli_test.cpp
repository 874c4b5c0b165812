// `gpusim regress` end to end on a one-case copy of the regression folder: passes against the
// checked-in golden, fails with a readable diff when a golden number is edited by hand, reports
// a missing golden, and --bless writes one that then passes.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tb/common/ProcessRunner.hpp"

namespace regress_cli_test {

using namespace gpusim::tb;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::string kCase = "fermi15__gto__atax_n=128";

fs::path sourceRegression() { return fs::path(GPUSIM_SOURCE_DIR) / "tb" / "regression"; }

// A copy of matrix.json and the one golden file the test needs.
void copyOneCase(const ScratchDir& dir) {
    fs::create_directories(dir / "golden");
    fs::copy_file(sourceRegression() / "matrix.json", dir / "matrix.json", fs::copy_options::overwrite_existing);
    fs::copy_file(sourceRegression() / "golden" / (kCase + ".json"), dir / "golden" / (kCase + ".json"));
}

} // namespace

TEST(RegressCli, CheckedInGoldenPasses) {
    ScratchDir dir;
    copyOneCase(dir);
    const ProcessResult r = runGpusim({"regress", "--dir", dir.path().string(), "--filter", kCase, "--jobs", "1"});
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("  ok    fermi15 / gto / atax:n=128"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("summary: 1 ok, 0 differ"), std::string::npos) << r.out;
}

TEST(RegressCli, HandEditedGoldenNumberFailsWithADiffNamingIt) {
    ScratchDir dir;
    copyOneCase(dir);
    const fs::path golden = dir / "golden" / (kCase + ".json");
    json g = json::parse(readFile(golden));
    const uint64_t cycles = g["stats"]["gpu.cycles"].get<uint64_t>();
    g["stats"]["gpu.cycles"] = cycles + 7;
    writeFile(golden, g.dump(1));
    const ProcessResult r = runGpusim({"regress", "--dir", dir.path().string(), "--filter", kCase, "--jobs", "1"});
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("  DIFF  fermi15 / gto / atax:n=128: 1 statistic moved (golden -> now)"), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("gpu.cycles  " + std::to_string(cycles + 7) + " -> " + std::to_string(cycles)),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("summary: 0 ok, 1 differ"), std::string::npos) << r.out;
}

TEST(RegressCli, MissingGoldenFailsAndBlessWritesOneThatPasses) {
    ScratchDir dir;
    copyOneCase(dir);
    fs::remove(dir / "golden" / (kCase + ".json"));
    ProcessResult r = runGpusim({"regress", "--dir", dir.path().string(), "--filter", kCase});
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_NE(r.out.find("NEW   fermi15 / gto / atax:n=128: no golden " + kCase + ".json (run gpusim regress --bless)"),
              std::string::npos)
        << r.out;
    r = runGpusim({"regress", "--dir", dir.path().string(), "--filter", kCase, "--bless"});
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    // The blessed file equals the checked-in one: same build, same statistics.
    EXPECT_EQ(json::parse(readFile(dir / "golden" / (kCase + ".json")))["stats"],
              json::parse(readFile(sourceRegression() / "golden" / (kCase + ".json")))["stats"]);
    r = runGpusim({"regress", "--dir", dir.path().string(), "--filter", kCase});
    EXPECT_EQ(r.status, 0) << r.out << r.err;
}

TEST(RegressCli, BadInputExits2NamingTheCulprit) {
    ScratchDir dir;
    writeFile(dir / "matrix.json", R"({"default": [{"platforms": ["fermi15"]}]})");
    ProcessResult r = runGpusim({"regress", "--dir", dir.path().string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find((dir / "matrix.json").string() + ": default[0]: schedulers: expected a non-empty list"),
              std::string::npos)
        << r.err;
    copyOneCase(dir);
    r = runGpusim({"regress", "--dir", dir.path().string(), "--filter", "no-such-case"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--filter: 'no-such-case' matches no case"), std::string::npos) << r.err;
}

} // namespace regress_cli_test
