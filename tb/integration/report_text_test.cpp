// The --stats document: reportText (what `gpusim run --stats` writes, the statistics printed
// without building them as JSON) against reportJson's dump(2), byte for byte, on a real run.
#include <gtest/gtest.h>

#include "platforms/RunSummary.hpp"
#include "tb/common/GpuTestBench.hpp"

namespace report_text_test {

using namespace gpusim;
using namespace gpusim::tb;

TEST(ReportText, IsTheDumpOfTheReportJson) {
    GpuTestBench b("gto", "spmv:rows=256");
    const RunResult result = b.run();
    const RunRecord rec{b.cfg, b.policy, *b.workload, b.stats, b.gpu->dispatcher(), result, 1};
    EXPECT_EQ(reportText(rec, nullptr), reportJson(rec).dump(2));

    // With a workload report (a trace's warnings), which goes under workload.report.
    const nlohmann::json wl = {{"warnings", {"a \"quoted\" warning"}}, {"lines", 12}};
    nlohmann::json j = reportJson(rec);
    j["workload"]["report"] = wl;
    const std::string text = reportText(rec, wl);
    EXPECT_EQ(text, j.dump(2));
    EXPECT_GT(nlohmann::json::parse(text)["stats"].size(), 100u);
}

} // namespace report_text_test
