// `gpusim correlate` end to end on two small rows of the shipped Accel-Sim reference: it exports
// the traces, runs them on gtx480 as a sweep, compares them (the warp instruction counts must
// equal the reference's, or the row is reported as not the same trace), and writes the page and
// its plot; a rerun with --no-run writes the same page from the kept results; bad input exits 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "tb/common/ProcessRunner.hpp"

namespace correlate_cli_test {

using namespace gpusim::tb;
namespace fs = std::filesystem;

namespace {

const std::string kReference = std::string(GPUSIM_SOURCE_DIR) + "/validation/accelsim/accelsim-gtx480.json";
// 147,456 and 83,360 warp instructions, under two seconds each.
const std::string kVectorAdd = "vectoradd:n=524288";
const std::string kHistogram = "histogram:bytes=524288,blocks=30,privatized=0";

} // namespace

TEST(CorrelateCli, RunsTwoRowsAndWritesThePage) {
    ScratchDir dir;
    const std::string out = (dir / "res").string(), doc = (dir / "c.md").string();
    const std::vector<std::string> args = {"correlate", "--reference", kReference, "--only", kVectorAdd, "--only",
                                           kHistogram, "-j", "2", "--out", out, "--doc", doc};
    const ProcessResult r = runGpusim(args);
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_TRUE(fs::exists(fs::path(out) / "traces" / "vectoradd_n=524288" / "kernelslist.g"));
    const std::string page = readFile(doc);
    EXPECT_NE(page.find("| rows compared | 2 of 2 | all | met |"), std::string::npos) << page;
    EXPECT_NE(page.find("| " + kVectorAdd + " | 42581 | "), std::string::npos) << page;
    EXPECT_NE(page.find("| " + kHistogram + " | 105533 | "), std::string::npos) << page;
    EXPECT_EQ(page.find("failed"), std::string::npos) << page;
    EXPECT_TRUE(fs::exists(dir / "correlation" / "correlation-ipc-gtx480.svg"));
    EXPECT_NE(r.out.find("IPC: mean abs. error"), std::string::npos) << r.out;

    // From the kept results, nothing exported or run again: the same table.
    const std::string doc2 = (dir / "c2.md").string();
    std::vector<std::string> again = args;
    again.back() = doc2;
    again.push_back("--no-run");
    const ProcessResult r2 = runGpusim(again);
    ASSERT_EQ(r2.status, 0) << r2.err;
    EXPECT_EQ(r2.out.find("exporting"), std::string::npos);
    const std::string page2 = readFile(doc2);
    EXPECT_EQ(page2.substr(page2.find("## Measures")), page.substr(page.find("## Measures")));
}

TEST(CorrelateCli, BadInputExits2NamingIt) {
    ScratchDir dir;
    ProcessResult r = runGpusim({"correlate", "--reference", kReference, "--only", "atax:n=7", "--out", (dir / "o").string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--only: 'atax:n=7' is not a workload of " + kReference), std::string::npos) << r.err;
    r = runGpusim({"correlate", "--reference", (dir / "none.json").string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("none.json: cannot read the reference file"), std::string::npos) << r.err;
}

} // namespace correlate_cli_test
