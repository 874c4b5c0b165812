// `gpusim validate` and `gpusim correlate` from a directory that is not the checkout's root: they
// find the shipped validation/ files (studies, notes, the Accel-Sim reference) in the source tree
// of a build-tree executable, and in P/share/gpusim of an executable at P/bin (an install prefix,
// here made by hand: the executable and a validation/ of its own), before the source tree.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tb/common/ProcessRunner.hpp"

namespace shipped_files_test {

using namespace gpusim::tb;
namespace fs = std::filesystem;

// `program args...` run with `dir` as the working directory.
ProcessResult runIn(const fs::path& dir, const std::string& program, const std::string& args) {
    return runProcess("/bin/sh", {"-c", "cd '" + dir.string() + "' && exec '" + program + "' " + args});
}

const fs::path kSource(GPUSIM_SOURCE_DIR);

TEST(ShippedFiles, ValidateFromAnotherDirectoryReadsTheSourceTreesStudies) {
    ScratchDir dir;
    const ProcessResult r = runIn(dir.path(), gpusimExecutable(), "validate --only nosuch");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(r.err, "gpusim: error: --only: 'nosuch' is not a study of " + (kSource / "validation/studies.json").string() +
                         "\n");
}

TEST(ShippedFiles, CorrelateFromAnotherDirectoryRunsARowWithTheShippedReferenceAndNotes) {
    ScratchDir dir;
    // 147,456 warp instructions, under two seconds.
    const ProcessResult r = runIn(dir.path(), gpusimExecutable(),
                                  "correlate --only vectoradd:n=524288 -j 1 --out res --doc c.md");
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const std::string page = readFile(dir / "c.md");
    EXPECT_NE(page.find("| rows compared | 1 of 1 |"), std::string::npos) << page;
    // The shipped notes are appended: their first line is on the page.
    const std::string notes = readFile(kSource / "validation/notes/correlation.md");
    const std::string firstLine = notes.substr(0, notes.find('\n'));
    ASSERT_FALSE(firstLine.empty());
    EXPECT_NE(page.find(firstLine), std::string::npos) << firstLine;
}

TEST(ShippedFiles, AnInstalledExecutableReadsItsShareDirectoryFirst) {
    ScratchDir dir;
    const fs::path prefix = dir / "prefix", share = prefix / "share/gpusim/validation";
    fs::create_directories(prefix / "bin");
    fs::create_directories(share / "accelsim");
    fs::copy_file(gpusimExecutable(), prefix / "bin/gpusim");
    writeFile(share / "studies.json", R"({"studies": [{"id": "installed-only", "title": "T", "source": "a test",
        "baseline": "gto", "mean": "geometric", "sweeps": [{"spec": "tiny.json"}],
        "groups": [{"name": "g", "workloads": ["atax:n=64"]}]}]})");
    writeFile(share / "tiny.json", R"({"platforms": ["fermi15"], "schedulers": ["gto"], "workloads": ["atax:n=64"]})");
    fs::create_directories(dir / "cwd");
    // The study exists only in the installed copy; --no-run then wants the results of its sweep.
    const ProcessResult v = runIn(dir / "cwd", (prefix / "bin/gpusim").string(), "validate --only installed-only --no-run");
    EXPECT_EQ(v.status, 2);
    EXPECT_EQ(v.err, "gpusim: error: validation-results/tiny/results.json: no results (run without --no-run first)\n");
    // No reference installed beside it: the source tree's.
    const ProcessResult c = runIn(dir / "cwd", (prefix / "bin/gpusim").string(), "correlate --only nosuch");
    EXPECT_EQ(c.status, 2);
    EXPECT_NE(c.err.find("is not a workload of " + (kSource / "validation/accelsim/accelsim-gtx480.json").string()),
              std::string::npos)
        << c.err;
}

} // namespace shipped_files_test
