// Share studies of the validation report (experiments/ValidationShare): a statistic as a part of
// another per workload, with no baseline; arithmetic group means; the tolerance of half the
// paper's share, at least 5 pp; the errors of a bad share study. Expectations computed by hand.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "common/SimError.hpp"
#include "experiments/ValidationShare.hpp"

namespace validation_share_test {

using nlohmann::json;
using namespace gpusim;
using namespace gpusim::validation;

namespace {

json row(const std::string& wl, double occ, double acc) {
    return json{{"id", "gto__" + wl}, {"platform", "fermi30"}, {"scheduler", "gto"}, {"workload", wl},
                {"status", "ok"}, {"occ", occ}, {"acc", acc}, {"n", 7}};
}

json table(std::vector<json> rows) {
    return json{{"columns", json::array({"id", "platform", "scheduler", "workload", "status", "occ", "acc", "n"})},
                {"rows", rows}};
}

json shareDoc() {
    return json::parse(R"({"studies": [{
        "id": "occ", "title": "Occ: test", "source": "none",
        "sweeps": [{"spec": "a.json"}],
        "shares": [{"name": "loads", "series": "gto", "part": "occ", "whole": "acc"}],
        "groups": [{"name": "div", "workloads": ["w1", "w2", "w3"]}, {"name": "coh", "workloads": ["w4"]}],
        "paper": {"div": {"loads": 0.33}, "coh": {"loads": 0.04}},
        "extras": [{"heading": "n", "series": "gto", "stat": "n"}]
    }]})");
}

std::string parseError(const json& doc) {
    try {
        parseStudies(doc, "v/studies.json");
    } catch (const InputError& e) {
        return e.what();
    }
    return "no error";
}

} // namespace

TEST(ValidationShare, PartOverWholeWithoutABaselineAndArithmeticMeans) {
    const Study st = parseStudies(shareDoc(), "s.json").studies[0];
    EXPECT_EQ(st.mean, Mean::Arithmetic);  // the default of a share study
    EXPECT_TRUE(st.baseline.empty());
    const StudyData d = mergeResults(st, {table({row("w1", 10, 40), row("w2", 0, 50), row("w3", 5, 0), row("w4", 1, 50)})});
    const Share& s = st.shares[0];
    EXPECT_DOUBLE_EQ(*shareOf(d, s, "w1"), 0.25);
    EXPECT_DOUBLE_EQ(*shareOf(d, s, "w2"), 0.0);        // no occlusion is a share of 0 ...
    EXPECT_FALSE(shareOf(d, s, "w3").has_value());      // ... no load of the class is none
    EXPECT_FALSE(shareOf(d, s, "nowhere").has_value());
    const MeanValue m = shareMean(d, s, st.groups[0]);  // (0.25 + 0) / 2
    EXPECT_DOUBLE_EQ(*m.value, 0.125);
    EXPECT_EQ(m.count, 2u);
    EXPECT_EQ(m.of, 3u);
}

TEST(ValidationShare, ToleranceIsHalfThePaperShareAtLeastFivePoints) {
    EXPECT_DOUBLE_EQ(shareTolerance(0.04), 0.05);
    EXPECT_DOUBLE_EQ(shareTolerance(0.10), 0.05);
    EXPECT_DOUBLE_EQ(shareTolerance(0.33), 0.165);
    EXPECT_DOUBLE_EQ(shareTolerance(0.47), 0.235);
    EXPECT_TRUE(shareWithin(0.0, 0.04));
    EXPECT_TRUE(shareWithin(0.09, 0.04));
    EXPECT_FALSE(shareWithin(0.091, 0.04));
    EXPECT_TRUE(shareWithin(0.165, 0.33));   // exactly the tolerance
    EXPECT_FALSE(shareWithin(0.16, 0.33));
    EXPECT_EQ(percent(0.125), "12.5 %");
    EXPECT_EQ(percent(std::nullopt), "-");
}

TEST(ValidationShare, SectionShowsPercentagesMeansPaperAndVerdict) {
    const Study st = parseStudies(shareDoc(), "s.json").studies[0];
    const StudyData d = mergeResults(st, {table({row("w1", 10, 40), row("w2", 0, 50), row("w3", 5, 0), row("w4", 1, 50)})});
    // renderStudy hands a share study to renderShareStudy.
    const StudySection sec = renderStudy(st, d, "validation", {"validation/a.json"}, "Why: measured.");
    EXPECT_NE(sec.markdown.find("| workload | group | loads | n |"), std::string::npos) << sec.markdown;
    EXPECT_NE(sec.markdown.find("| w1 | div | 25.0 % | 7 |"), std::string::npos) << sec.markdown;
    EXPECT_NE(sec.markdown.find("| w3 | div | - | 7 |"), std::string::npos) << sec.markdown;
    EXPECT_NE(sec.markdown.find("| **amean** | div | **12.5 % (2/3)** | |"), std::string::npos) << sec.markdown;
    EXPECT_NE(sec.markdown.find("| paper | div | 33.0 % | |"), std::string::npos) << sec.markdown;
    // 12.5 - 33 = -20.5 pp, beyond half of 33 (16.5); w4: 2 % against 4 %, within 5.
    EXPECT_NE(sec.markdown.find("| ours - paper | div | -20.5 pp (±16.5 pp: outside) | |"), std::string::npos)
        << sec.markdown;
    ASSERT_EQ(sec.summaryRows.size(), 2u);
    EXPECT_EQ(sec.summaryRows[0], "| occ | div | loads | 12.5 % (2/3) | 33.0 % | -20.5 pp (±16.5 pp: outside) |");
    EXPECT_EQ(sec.summaryRows[1], "| occ | coh | loads | 2.0 % | 4.0 % | -2.0 pp (±5.0 pp: within) |");
    ASSERT_EQ(sec.charts.size(), 1u);
    EXPECT_EQ(sec.charts[0].name, "occ-share.svg");
    // The paper's 33 % (div) and 4 % (coh) drawn on the mean bars, in percent as the chart is.
    EXPECT_NE(sec.charts[0].svg.find("<title>paper, loads, amean div: 33</title>"), std::string::npos) << sec.charts[0].svg;
    EXPECT_NE(sec.charts[0].svg.find("<title>paper, loads, amean coh: 4</title>"), std::string::npos);
    EXPECT_NE(sec.markdown.find("diamonds: the paper's figures for those means"), std::string::npos);
    EXPECT_NE(sec.markdown.find("Why: measured."), std::string::npos);
}

TEST(ValidationShare, BadShareStudiesNameTheKey) {
    json d = shareDoc();
    d["studies"][0]["mean"] = "geometric";
    EXPECT_EQ(parseError(d), "v/studies.json: studies[0].mean: a share study's mean is arithmetic (a share may be 0)");
    d = shareDoc();
    d["studies"][0]["paper"]["div"] = json{{"loads", 33}};  // a percentage, not a fraction
    EXPECT_EQ(parseError(d), "v/studies.json: studies[0].paper.div.loads: expected a share's name and a fraction of at most 1");
    d = shareDoc();
    d["studies"][0]["paper"]["div"] = json{{"stores", 0.3}};
    EXPECT_EQ(parseError(d), "v/studies.json: studies[0].paper.div.stores: expected a share's name and a fraction of at most 1");
    d = shareDoc();
    d["studies"][0]["shares"][0].erase("whole");
    EXPECT_EQ(parseError(d), "v/studies.json: studies[0].shares[0].whole: missing");
    d = shareDoc();
    d["studies"][0]["shares"].push_back(d["studies"][0]["shares"][0]);
    EXPECT_EQ(parseError(d), "v/studies.json: studies[0].shares.loads: named twice");
    d = shareDoc();
    d["studies"][0]["shares"] = json::array();
    EXPECT_EQ(parseError(d), "v/studies.json: studies[0].shares: expected a non-empty list");
}

} // namespace validation_share_test
