// The shipped platform files (fermi15, fermi30, owl28, cwlp32, ccws30, gtx480): each one resolves to the values
// its file sets, docs/platforms.md lists exactly those values, every one runs a small kernel to
// completion, and a user's variant file derives from a shipped platform by name.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "tb/common/ProcessRunner.hpp"

namespace platforms_test {

using namespace gpusim::tb;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kPlatforms = {"fermi15", "fermi30", "owl28", "cwlp32", "ccws30", "gtx480"};

void flatten(const json& o, const std::string& prefix, std::vector<std::pair<std::string, json>>& out) {
    for (const auto& [k, v] : o.items()) {
        if (v.is_object())
            flatten(v, prefix + k + ".", out);
        else
            out.emplace_back(prefix + k, v);
    }
}

std::vector<std::pair<std::string, json>> fileParams(const std::string& platform) {
    const fs::path file = fs::path(GPUSIM_SOURCE_DIR) / "platforms" / (platform + ".json");
    const json doc = json::parse(readFile(file));
    std::vector<std::pair<std::string, json>> out;
    flatten(doc.at("params"), "", out);
    return out;
}

// How docs/platforms.md writes a value: strings bare, numbers as JSON prints them.
std::string docValue(const json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }

// The section of docs/platforms.md from "## name" to the next "## ".
std::string docSection(const std::string& platform) {
    const std::string doc = readFile(fs::path(GPUSIM_SOURCE_DIR) / "docs" / "platforms.md");
    const auto start = doc.find("\n## " + platform + "\n");
    if (start == std::string::npos) return "";
    const auto end = doc.find("\n## ", start + 1);
    return doc.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

} // namespace

TEST(Platforms, EveryShippedFileIsTested) {
    std::set<std::string> files;
    for (const auto& e : fs::directory_iterator(fs::path(GPUSIM_SOURCE_DIR) / "platforms"))
        if (e.path().extension() == ".json") files.insert(e.path().stem().string());
    EXPECT_EQ(files, std::set<std::string>(kPlatforms.begin(), kPlatforms.end()))
        << "a platform file was added or removed: update kPlatforms and docs/platforms.md";
}

class PlatformFile : public ::testing::TestWithParam<std::string> {};

TEST_P(PlatformFile, ResolvedConfigurationHasTheFileValues) {
    const ProcessResult r = runGpusim({"config", "--platform", GetParam()});
    ASSERT_EQ(r.status, 0) << r.err;
    const json resolved = json::parse(r.out);
    EXPECT_EQ(resolved.value("platform", ""), GetParam());
    for (const auto& [key, value] : fileParams(GetParam())) {
        ASSERT_TRUE(resolved["params"].contains(key)) << key;
        if (value.is_number())
            EXPECT_DOUBLE_EQ(resolved["params"][key].get<double>(), value.get<double>()) << key;
        else
            EXPECT_EQ(resolved["params"][key], value) << key;
    }
}

TEST_P(PlatformFile, DocsListEveryValueTheFileSets) {
    const std::string section = docSection(GetParam());
    ASSERT_FALSE(section.empty()) << "docs/platforms.md has no '## " << GetParam() << "' section";
    const auto params = fileParams(GetParam());
    for (const auto& [key, value] : params)
        EXPECT_NE(section.find("| `" + key + "` | " + docValue(value) + " |"), std::string::npos)
            << "docs/platforms.md, " << GetParam() << ": no row for " << key << " = " << docValue(value);
    // ... and no row the file does not set (a stale value left behind after an edit).
    size_t rows = 0;
    for (size_t at = section.find("\n| `"); at != std::string::npos; at = section.find("\n| `", at + 1)) ++rows;
    EXPECT_EQ(rows, params.size()) << "docs/platforms.md, " << GetParam() << ": rows vs keys in the file";
}

TEST_P(PlatformFile, RunsASmallKernelToCompletion) {
    ScratchDir dir;
    const auto stats = (dir / "s.json").string();
    // vectoradd n = 8192: 32 CTAs of 256 threads, 256 warps x 9 instructions (S2R, S2R, IMAD,
    // ISETP, LD, LD, FADD, ST, EXIT; workloads/builtin/VectorAdd.cpp) = 2304 on any platform.
    const ProcessResult r = runGpusim({"run", "--platform", GetParam(), "--scheduler", "gto", "--workload",
                                       "vectoradd:n=8192", "--stats", stats});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(readFile(stats));
    EXPECT_EQ(j["stats"]["gpu.warp_instructions"], 2304);
    EXPECT_GT(j["stats"]["gpu.cycles"].get<uint64_t>(), 0u);
    // Every SM of the platform exists, and the dispatcher deals the 32 CTAs round-robin, one per
    // SM per cycle (each SM has room for several), visiting the first SM of every cluster before
    // the second of any (platforms/Gpu.cpp, dispatchOrder), so each SM gets 32 / SMs rounded down
    // or up by its place in that order: fermi15 3,3,2,...; fermi30 (clusters of 2) sm0 and sm2
    // 2, the rest 1; owl28 2,2,2,2,1,...; cwlp32 1 each; ccws30 (clusters of 3) sm0 and sm3 2,
    // the rest 1; gtx480 as fermi15.
    const json params = json::parse(runGpusim({"config", "--platform", GetParam()}).out)["params"];
    const unsigned sms = params["gpu.num_sms"], per = params["noc.sms_per_cluster"];
    const unsigned clusters = (sms + per - 1) / per;
    EXPECT_TRUE(j["stats"].contains("sm" + std::to_string(sms - 1) + ".issued"));
    EXPECT_FALSE(j["stats"].contains("sm" + std::to_string(sms) + ".issued"));
    for (unsigned s = 0; s < sms; ++s) {
        const unsigned place = (s % per) * clusters + s / per;
        const uint64_t ctas = j["stats"]["sm" + std::to_string(s) + ".ctas"].get<uint64_t>();
        EXPECT_EQ(ctas, 32 / sms + (place < 32 % sms ? 1 : 0)) << "sm" << s;
    }
}

// fermi30 pairs its SMs in clusters that share one NoC port. A kernel with one CTA per cluster
// (vectoradd n = 3840: 15 CTAs) gets one SM in every cluster, as GPGPU-Sim's one-CTA-per-cluster-
// per-cycle issue gives, not both SMs of the first 8 clusters.
TEST(Platforms, Fermi30SpreadsCtasOverClustersFirst) {
    ScratchDir dir;
    const auto stats = (dir / "s.json").string();
    const ProcessResult r = runGpusim({"run", "--platform", "fermi30", "--scheduler", "gto", "--workload",
                                       "vectoradd:n=3840", "--stats", stats});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(readFile(stats));
    for (unsigned s = 0; s < 30; ++s)
        EXPECT_EQ(j["stats"]["sm" + std::to_string(s) + ".ctas"].get<uint64_t>(), s % 2 == 0 ? 1u : 0u) << "sm" << s;
}

// ccws30 derives from owl28 ("base"): it keeps owl28's GT200-class values it does not set (one
// warp scheduler, 32 warps, 32 KB 8-way L1D, GDDR3 at 800 MHz) and takes the CCWS release's own
// (30 cores at 325 MHz, 128 B L1D lines, 16 MSHRs, crossbar, 8 banks, tWR 13).
TEST(Platforms, Ccws30KeepsOwl28ValuesItDoesNotSet) {
    const ProcessResult r = runGpusim({"config", "--platform", "ccws30"});
    ASSERT_EQ(r.status, 0) << r.err;
    const json p = json::parse(r.out)["params"];
    EXPECT_EQ(p["sm.schedulers"], 1);
    EXPECT_EQ(p["sm.max_warps"], 32);
    EXPECT_EQ(p["sm.max_threads"], 1024);
    EXPECT_EQ(p["l1d.size_bytes"], 32768);
    EXPECT_EQ(p["l1d.ways"], 8);
    EXPECT_EQ(p["dram.preset"], "gddr3");
    EXPECT_DOUBLE_EQ(p["dram.clock_mhz"].get<double>(), 800);
    EXPECT_DOUBLE_EQ(p["noc.clock_mhz"].get<double>(), 650);
    EXPECT_EQ(p["mem.partitions"], 8);
    EXPECT_EQ(p["gpu.num_sms"], 30);
    EXPECT_DOUBLE_EQ(p["sm.clock_mhz"].get<double>(), 325);
    EXPECT_EQ(p["l1d.line_bytes"], 128);
    EXPECT_EQ(p["l1d.mshr_entries"], 16);
    EXPECT_EQ(p["noc.topology"], "crossbar");
    EXPECT_EQ(p["noc.sms_per_cluster"], 3);
    EXPECT_EQ(p["dram.banks"], 8);
    EXPECT_EQ(p["dram.tWR"], 13);
}

INSTANTIATE_TEST_SUITE_P(Shipped, PlatformFile, ::testing::ValuesIn(kPlatforms),
                         [](const auto& info) { return info.param; });

TEST(Platforms, UserVariantDerivesFromAShippedPlatformByName) {
    ScratchDir dir;
    const auto file = dir / "fermi30-mshr64.json";
    writeFile(file, R"({"name": "fermi30-mshr64", "base": "fermi30", "params": {"l1d.mshr_entries": 64}})");
    const ProcessResult r = runGpusim({"config", "--platform", file.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["params"]["l1d.mshr_entries"], 64);          // the override
    EXPECT_EQ(j["params"]["gpu.num_sms"], 30);               // the rest from fermi30
    EXPECT_EQ(j["params"]["noc.topology"], "butterfly");
    EXPECT_EQ(j["params"]["noc.sms_per_cluster"], 2);
}

TEST(Platforms, VariantNextToItsBaseUsesThatFileFirst) {
    ScratchDir dir;
    writeFile(dir / "fermi30.json", R"({"name": "fermi30", "params": {"gpu.num_sms": 4}})");
    writeFile(dir / "v.json", R"({"name": "v", "base": "fermi30", "params": {}})");
    const ProcessResult r = runGpusim({"config", "--platform", (dir / "v.json").string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(json::parse(r.out)["params"]["gpu.num_sms"], 4);
}

TEST(Platforms, UnknownBaseNamesTheFileAndExits2) {
    ScratchDir dir;
    const auto file = dir / "v.json";
    writeFile(file, R"({"name": "v", "base": "fermi99", "params": {}})");
    const ProcessResult r = runGpusim({"config", "--platform", file.string()});
    EXPECT_EQ(r.status, 2);
    ASSERT_EQ(r.errLines().size(), 1u) << r.err;
    EXPECT_NE(r.err.find(file.string() + ": base: no platform 'fermi99'"), std::string::npos) << r.err;
}

} // namespace platforms_test
