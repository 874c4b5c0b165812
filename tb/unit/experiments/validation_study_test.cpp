// The validation report's arithmetic and text (experiments/ValidationStudy, ValidationReport):
// merging sweeps into series, normalising to the baseline, the three means, the difference to a
// paper figure, and the errors of a bad studies file. Expectations are computed by hand below.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <set>

#include <nlohmann/json.hpp>

#include "common/SimError.hpp"
#include "experiments/ValidationReport.hpp"
#include "experiments/SweepSpec.hpp"
#include "experiments/ValidationStudy.hpp"

namespace validation_study_test {

using nlohmann::json;
using namespace gpusim;
using namespace gpusim::validation;

namespace {

json row(const std::string& sched, const std::string& wl, double ipc, const std::string& status = "ok") {
    return json{{"id", sched + "__" + wl}, {"platform", "fermi15"}, {"scheduler", sched}, {"workload", wl},
                {"status", status}, {"error", status == "ok" ? json() : json("exit 3: boom")},
                {"ipc", status == "ok" ? json(ipc) : json()}, {"l1d_read_miss_rate", 0.5}};
}

json table(std::vector<json> rows, std::vector<std::string> setKeys = {}) {
    json cols = json::array({"id", "platform", "scheduler", "workload"});
    for (const auto& k : setKeys) cols.push_back(k);
    for (const char* c : {"status", "error", "cycles", "warp_instructions", "ipc"}) cols.push_back(c);
    return json{{"columns", cols}, {"rows", rows}};
}

json studyDoc() {
    return json::parse(R"({"studies": [{
        "id": "t", "title": "T: test", "source": "none", "baseline": "gto", "mean": "geometric",
        "sweeps": [{"spec": "a.json"}, {"spec": "b.json", "label": "swl-best"}],
        "series": ["swl-best", "ccws"],
        "groups": [{"name": "div", "workloads": ["w1", "w2"]}, {"name": "coh", "workloads": ["w3"]}],
        "paper": {"div": {"ccws": 1.5}},
        "extras": [{"heading": "choice", "series": "ccws", "stat": "pick", "values": {"1": "RR"}}]
    }]})");
}

} // namespace

TEST(ValidationStudy, MergesSweepsIntoSeriesAndNormalisesToTheBaseline) {
    const Studies s = parseStudies(studyDoc(), "studies.json");
    ASSERT_EQ(s.studies.size(), 1u);
    const Study& st = s.studies[0];
    json a = table({row("gto", "w1", 2.0), row("gto", "w2", 4.0), row("gto", "w3", 1.0), row("ccws", "w1", 3.0),
                    row("ccws", "w2", 2.0), row("ccws", "w3", 1.0, "failed")});
    a["rows"][3]["pick"] = 1;
    const json b = table({row("swl:warps=2", "w1", 4.0)});
    const StudyData d = mergeResults(st, {a, b});
    // Series order: the study's "series" first (swl-best, ccws), then the rest as they appear.
    EXPECT_EQ(d.series, (std::vector<std::string>{"swl-best", "ccws", "gto"}));
    EXPECT_EQ(d.workloads, (std::vector<std::string>{"w1", "w2", "w3"}));
    // ccws/gto: w1 3/2 = 1.5, w2 2/4 = 0.5; w3 failed -> no value.
    EXPECT_DOUBLE_EQ(*normalised(d, st, "ccws", "w1"), 1.5);
    EXPECT_DOUBLE_EQ(*normalised(d, st, "ccws", "w2"), 0.5);
    EXPECT_FALSE(normalised(d, st, "ccws", "w3").has_value());
    EXPECT_DOUBLE_EQ(*normalised(d, st, "swl-best", "w1"), 2.0);  // 4 / 2, from the labelled sweep
    EXPECT_FALSE(normalised(d, st, "swl-best", "w2").has_value());
    // gmean(1.5, 0.5) = sqrt(0.75) = 0.8660...
    const MeanValue m = groupMean(d, st, "ccws", st.groups[0]);
    EXPECT_NEAR(*m.value, std::sqrt(0.75), 1e-12);
    EXPECT_EQ(m.count, 2u);
    const MeanValue c = groupMean(d, st, "ccws", st.groups[1]);
    EXPECT_FALSE(c.value.has_value());
    EXPECT_EQ(c.of, 1u);
    ASSERT_EQ(d.notOk.size(), 1u);
    EXPECT_NE(d.notOk[0].find("ccws / w3: failed (exit 3: boom)"), std::string::npos);
}

TEST(ValidationStudy, SetAxesBecomePartOfTheSeriesName) {
    json doc = studyDoc();
    doc["studies"][0]["baseline"] = "gto [l1d.mshr_entries=32]";
    const Study st = parseStudies(doc, "s.json").studies[0];
    json r1 = row("gto", "w1", 2.0), r2 = row("gto", "w1", 3.0);
    r1["l1d.mshr_entries"] = 32;
    r2["l1d.mshr_entries"] = 48;
    const StudyData d = mergeResults(st, {table({r1, r2}, {"l1d.mshr_entries"}), table({})});
    EXPECT_DOUBLE_EQ(*normalised(d, st, "gto [l1d.mshr_entries=48]", "w1"), 1.5);
}

TEST(ValidationStudy, TheThreeMeans) {
    // 1 and 4: geometric 2, harmonic 2 / (1 + 1/4) = 1.6, arithmetic 2.5.
    EXPECT_DOUBLE_EQ(meanOf({1, 4}, Mean::Geometric), 2.0);
    EXPECT_DOUBLE_EQ(meanOf({1, 4}, Mean::Harmonic), 1.6);
    EXPECT_DOUBLE_EQ(meanOf({1, 4}, Mean::Arithmetic), 2.5);
    EXPECT_THROW(meanOf({}, Mean::Geometric), std::invalid_argument);
    EXPECT_THROW(meanOf({1, 0}, Mean::Harmonic), std::invalid_argument);
}

TEST(ValidationStudy, TheSameWorkloadTwiceInOneSeriesIsAnError) {
    const Study st = parseStudies(studyDoc(), "s.json").studies[0];
    EXPECT_THROW(mergeResults(st, {table({row("gto", "w1", 1)}), table({row("swl", "w1", 1), row("swl", "w1", 2)})}),
                 InputError);
}

TEST(ValidationStudy, BestSweepsKeepTheHighestRowPerWorkload) {
    // An oracle over the warp limit: swl-best on w1 is the best of swl:1 (1.0), swl:2 (3.0, from the
    // Table-3 sweep), swl:3 (2.5); on w2 a failed swl:1 run loses to swl:3's 1.0 even though lower.
    json doc = studyDoc();
    doc["studies"][0]["sweeps"] = json::parse(R"([{"spec": "a.json"}, {"spec": "b.json", "label": "swl-best", "best": true},
        {"spec": "c.json", "label": "swl-best", "best": true}])");
    const Study st = parseStudies(doc, "s.json").studies[0];
    const json a = table({row("gto", "w1", 2.0), row("gto", "w2", 4.0)});
    const json b = table({row("swl:warps=1", "w1", 1.0), row("swl:warps=2", "w1", 3.0), row("swl:warps=1", "w2", 9.0, "failed")});
    const json c = table({row("swl:warps=3", "w1", 2.5), row("swl:warps=3", "w2", 1.0)});
    const StudyData d = mergeResults(st, {a, b, c});
    EXPECT_DOUBLE_EQ(*normalised(d, st, "swl-best", "w1"), 1.5);   // 3.0 / 2.0
    EXPECT_DOUBLE_EQ(*normalised(d, st, "swl-best", "w2"), 0.25);  // 1.0 / 4.0
    EXPECT_EQ(d.rows.at("swl-best").at("w1").at("scheduler"), "swl:warps=2");
    // Without "best" the same rows are two values for one series: an error, as before.
    doc["studies"][0]["sweeps"][2].erase("best");
    EXPECT_THROW(mergeResults(parseStudies(doc, "s.json").studies[0], {a, b, c}), InputError);
}

TEST(ValidationStudy, BestOfTakesTheBetterSeriesPerWorkload) {
    // "better static" = the better of ccws and gto per workload: w1 ccws 3 > gto 2 (1.5); w2 gto
    // 4 > ccws 2 (1.0). gmean(1.5, 1.0) = sqrt(1.5).
    json doc = studyDoc();
    doc["studies"][0]["best_of"] = json::parse(R"({"better static": ["ccws", "gto"]})");
    const Study st = parseStudies(doc, "s.json").studies[0];
    const StudyData d = mergeResults(st, {table({row("gto", "w1", 2.0), row("gto", "w2", 4.0), row("ccws", "w1", 3.0),
                                                 row("ccws", "w2", 2.0)}),
                                          table({})});
    EXPECT_EQ(d.series.back(), "better static");
    EXPECT_DOUBLE_EQ(*normalised(d, st, "better static", "w1"), 1.5);
    EXPECT_DOUBLE_EQ(*normalised(d, st, "better static", "w2"), 1.0);
    EXPECT_NEAR(*groupMean(d, st, "better static", st.groups[0]).value, std::sqrt(1.5), 1e-12);
}

TEST(ValidationStudy, BadStudiesFilesNameTheKey) {
    auto message = [](json doc) {
        try {
            parseStudies(doc, "v/studies.json");
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    json d = studyDoc();
    d["studies"][0]["mean"] = "median";
    EXPECT_EQ(message(d), "v/studies.json: studies[0].mean: 'median': expected geometric, harmonic or arithmetic");
    d = studyDoc();
    d["studies"][0]["paper"] = json{{"nogroup", {{"ccws", 1.2}}}};
    EXPECT_EQ(message(d), "v/studies.json: studies[0].paper.nogroup: not a group of this study");
    d = studyDoc();
    d["studies"][0]["colour"] = "red";
    EXPECT_EQ(message(d), "v/studies.json: studies[0].colour: unknown key");
    d = studyDoc();
    d["studies"][0].erase("baseline");
    EXPECT_EQ(message(d), "v/studies.json: studies[0].baseline: missing");
    d = studyDoc();
    d["studies"].push_back(d["studies"][0]);
    EXPECT_EQ(message(d), "v/studies.json: studies[1].id: 't' used twice");
    d = studyDoc();
    d["studies"][0]["sweeps"][0]["best"] = true;  // no label: which series would the best row be?
    EXPECT_EQ(message(d), "v/studies.json: studies[0].sweeps.best: needs a label (the series the best row stands for)");
    d = studyDoc();
    d["studies"][0]["best_of"] = json{{"b", json::array({"gto"})}};
    EXPECT_EQ(message(d), "v/studies.json: studies[0].best_of.b: expected a list of two or more series");
}

TEST(ValidationReport, TableShowsNormalisedValuesMeansPaperAndDifference) {
    const Study st = parseStudies(studyDoc(), "s.json").studies[0];
    json a = table({row("gto", "w1", 2.0), row("gto", "w2", 4.0), row("ccws", "w1", 3.0), row("ccws", "w2", 2.0)});
    a["rows"][2]["pick"] = 1;
    const StudyData d = mergeResults(st, {a, table({})});
    const StudySection sec = renderStudy(st, d, "validation", {"validation/a.json"}, "Why: because.");
    // Columns: workload, group, gto ipc, ccws (no swl-best rows, so no column), extra "choice".
    EXPECT_NE(sec.markdown.find("| workload | group | gto ipc | ccws | choice |"), std::string::npos) << sec.markdown;
    EXPECT_NE(sec.markdown.find("| w1 | div | 2.000 | 1.500 | RR |"), std::string::npos) << sec.markdown;
    EXPECT_NE(sec.markdown.find("| w2 | div | 4.000 | 0.500 | - |"), std::string::npos);
    // gmean 0.866, paper 1.5: -63.4 pp.
    EXPECT_NE(sec.markdown.find("| **gmean** | div | | **0.866** |"), std::string::npos) << sec.markdown;
    EXPECT_NE(sec.markdown.find("| ours - paper | div | | -63.4 pp |"), std::string::npos);
    ASSERT_EQ(sec.summaryRows.size(), 1u);
    EXPECT_EQ(sec.summaryRows[0], "| t | div | ccws | 0.866 | 1.500 | -63.4 pp |");
    EXPECT_NE(sec.markdown.find("Why: because."), std::string::npos);
    ASSERT_EQ(sec.charts.size(), 1u);
    EXPECT_EQ(sec.charts[0].name, "t-ipc.svg");
    EXPECT_NE(sec.markdown.find("](validation/t-ipc.svg)"), std::string::npos);
    // The paper's 1.5 for the div gmean drawn on that bar (ccws, category "gmean div" after w1, w2),
    // and the caption says so.
    const std::string& svg = sec.charts[0].svg;
    EXPECT_EQ(std::count(svg.begin(), svg.end(), '\n') > 0, true);
    EXPECT_NE(svg.find("<path class=\"mark\""), std::string::npos) << svg;
    EXPECT_NE(svg.find("<title>paper, ccws, gmean div: 1.5</title>"), std::string::npos) << svg;
    EXPECT_NE(sec.markdown.find("diamonds: the paper's figures for those means"), std::string::npos) << sec.markdown;
}

TEST(ValidationReport, PointsDifference) {
    EXPECT_EQ(pointsDifference(1.020, 1.731), "-71.1 pp");
    EXPECT_EQ(pointsDifference(1.5, 1.25), "+25.0 pp");
    EXPECT_EQ(fixed3(std::nullopt), "-");
}

TEST(ValidationStudy, TheShippedStudiesAndTheirSweepsAreValid) {
    // validation/studies.json as `gpusim validate` reads it: every spec exists and names known
    // platforms, schedulers, workloads and parameters, and every workload a group averages over
    // is run by some sweep of its study (else its mean would silently drop it); a share study's
    // statistics are collected by its sweeps (else every share would be missing).
    const Studies all = loadStudies(std::filesystem::path(GPUSIM_SOURCE_DIR) / "validation" / "studies.json");
    for (const Study& st : all.studies) {
        std::set<std::string> run, stats;
        for (const SweepRef& ref : st.sweeps) {
            const SweepSpec spec = loadSweepSpec(all.specPath(ref).string());
            EXPECT_NO_THROW(validateSweepSpec(spec)) << st.id << ": " << ref.spec;
            run.insert(spec.workloads.begin(), spec.workloads.end());
            stats.insert(spec.stats.begin(), spec.stats.end());
        }
        for (const Share& sh : st.shares)
            for (const std::string& stat : {sh.part, sh.whole}) EXPECT_TRUE(stats.count(stat)) << st.id << ": " << stat;
        for (const WorkloadGroup& g : st.groups)
            for (const std::string& w : g.workloads) EXPECT_TRUE(run.count(w)) << st.id << ": group " << g.name << ": " << w;
    }
}

} // namespace validation_study_test
