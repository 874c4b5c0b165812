// `gpusim run --trace-tlm FILE --trace-warps FILE` end to end: the TLM trace counts the
// requests the statistics count on every kind of link, the warp trace is valid trace-event JSON
// whose issue events match each SM's issued counter, a run cut short still leaves valid JSON,
// bad paths are input errors, and tracing changes no statistic. The TLM trace as Perfetto JSON has
// two slices and one flow per transaction on each link; --trace-window and --trace-sms keep exactly
// the lines and events of an unfiltered trace that fall in the window and on the SMs, gzipped.
//
// Workload: vectoradd:n=8192 on fermi15 (lrr). 8192 floats are 32 KiB per array = 256 lines of
// 128 B: loads of a and b miss in L1D once per line (512 reads), stores of c write 256 lines
// (write-through, no allocate), so 768 requests go SM->NoC, each once through NoC->L2. 256 warps
// of 9 instructions (2 loads, 1 store, 5 ALU, exit; see gpu_run_test) = 2304 issued.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <zlib.h>

#include "tb/common/ProcessRunner.hpp"

namespace trace_flags_test {

using namespace gpusim::tb;
using nlohmann::json;

namespace {

const std::vector<std::string> kRun = {"run",    "--platform", "fermi15", "--scheduler", "lrr",
                                       "--quiet", "--workload", "vectoradd:n=8192"};
constexpr uint64_t kRequests = 768;
constexpr uint64_t kInstructions = 2304;
constexpr unsigned kSms = 15, kPartitions = 6, kWarpSlots = 48;
constexpr double kCorePeriodUs = 714e-6;  // 1400 MHz -> 714 ps

std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
    args.insert(args.end(), more.begin(), more.end());
    return args;
}

void runOk(const std::vector<std::string>& args) {
    const ProcessResult r = runGpusim(args);
    EXPECT_EQ(r.status, 0) << commandLine(args) << "\n" << r.err;
    EXPECT_EQ(r.err, "");
}

std::string readMaybeGzip(const std::filesystem::path& p);

json parseJsonFile(const std::filesystem::path& p) {
    json j = json::parse(readMaybeGzip(p), nullptr, /*allow_exceptions=*/false);
    if (j.is_discarded()) ADD_FAILURE() << p << " is not valid JSON";
    return j;
}

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> out;
    std::string cell;
    std::istringstream in(line);
    while (std::getline(in, cell, ',')) out.push_back(cell);
    if (!line.empty() && line.back() == ',') out.push_back("");
    return out;
}

struct TlmLine {
    uint64_t ps;
    std::string link, dir, phase, via, cmd, kind;
    int sm, warp;
    uint64_t id;
};

std::string readGzip(const std::filesystem::path& p) {
    gzFile gz = gzopen(p.string().c_str(), "rb");
    if (!gz) {
        ADD_FAILURE() << p << ": cannot open";
        return "";
    }
    std::string text;
    char buf[1 << 16];
    for (int n; (n = gzread(gz, buf, sizeof buf)) > 0;) text.append(buf, size_t(n));
    gzclose(gz);
    return text;
}

std::string readMaybeGzip(const std::filesystem::path& p) {
    return p.extension() == ".gz" ? readGzip(p) : readFile(p);
}

std::vector<TlmLine> readTlmTrace(const std::filesystem::path& p, std::string* header) {
    std::istringstream in(readMaybeGzip(p));
    std::string line;
    std::getline(in, *header);
    std::vector<TlmLine> out;
    while (std::getline(in, line)) {
        const auto c = split(line);
        if (c.size() != 13) {
            ADD_FAILURE() << "bad line: " << line;
            continue;
        }
        out.push_back({std::stoull(c[0]), c[1], c[2], c[3], c[4], c[5], c[8], std::stoi(c[9]), std::stoi(c[10]),
                       std::stoull(c[12])});
    }
    return out;
}

uint64_t stat(const json& stats, const std::string& name) {
    EXPECT_TRUE(stats.contains(name)) << name;
    return stats.contains(name) ? stats[name].get<uint64_t>() : 0;
}

} // namespace

TEST(TraceFlags, TlmTraceHasOneBeginReqPerCountedRequestOnEveryLink) {
    ScratchDir dir;
    const auto statsPath = (dir / "stats.json").string(), tracePath = (dir / "tlm.csv").string();
    runOk(with(kRun, {"--stats", statsPath, "--trace-tlm", tracePath}));
    const json stats = parseJsonFile(statsPath)["stats"];
    std::string header;
    const auto lines = readTlmTrace(tracePath, &header);
    EXPECT_EQ(header, "time_ps,link,dir,phase,via,cmd,addr,len,kind,sm,warp,pc,id");

    std::map<std::string, std::map<std::string, uint64_t>> perLink;  // link -> phase -> count
    uint64_t lastPs = 0;
    for (const auto& l : lines) {
        ++perLink[l.link][l.phase];
        EXPECT_GE(l.ps, lastPs) << "lines are written in simulation order";
        lastPs = l.ps;
        // Requests leave the SM with its id in the extension and in the request id's upper bits.
        if (l.link.rfind("sm", 0) == 0) {
            EXPECT_EQ("sm" + std::to_string(l.sm) + "->noc", l.link);
            EXPECT_EQ(l.id >> 40, uint64_t(l.sm));
            EXPECT_GE(l.warp, 0);
        }
        EXPECT_TRUE((l.dir == "fw") == (l.phase == "BEGIN_REQ" || l.phase == "END_RESP")) << l.phase << " " << l.dir;
    }
    // Every link the GPU builds on fermi15: 15 SM links, 6 NoC->L2, 6 L2->memory.
    EXPECT_EQ(perLink.size(), kSms + 2 * kPartitions);

    uint64_t smReq = 0, nocReq = 0;
    for (unsigned i = 0; i < kSms; ++i) {
        const std::string link = "sm" + std::to_string(i) + "->noc";
        const std::string p = "sm" + std::to_string(i) + ".noc.";
        EXPECT_EQ(perLink[link]["BEGIN_REQ"], stat(stats, p + "reads") + stat(stats, p + "writes")) << link;
        smReq += perLink[link]["BEGIN_REQ"];
    }
    EXPECT_EQ(smReq, kRequests);
    for (unsigned j = 0; j < kPartitions; ++j) {
        const std::string part = std::to_string(j);
        nocReq += perLink["noc->l2." + part]["BEGIN_REQ"];
        EXPECT_EQ(perLink["l2." + part + "->mem"]["BEGIN_REQ"],
                  stat(stats, "mem" + part + ".reads") + stat(stats, "mem" + part + ".writes"))
            << "l2." << part << "->mem";
    }
    EXPECT_EQ(nocReq, kRequests);
    EXPECT_EQ(nocReq, stat(stats, "noc.req.packets"));
    // Every transaction of a finished run went through all four phases (explicit or implied).
    for (const auto& [link, phases] : perLink) {
        const uint64_t n = phases.at("BEGIN_REQ");
        for (const char* ph : {"END_REQ", "BEGIN_RESP", "END_RESP"})
            EXPECT_EQ(phases.count(ph) ? phases.at(ph) : 0, n) << link << " " << ph;
    }
}

TEST(TraceFlags, WarpTraceIsTraceEventJsonWithOneIssueEventPerIssuedInstruction) {
    ScratchDir dir;
    const auto statsPath = (dir / "stats.json").string(), tracePath = (dir / "warps.json").string();
    runOk(with(kRun, {"--stats", statsPath, "--trace-warps", tracePath}));
    const json stats = parseJsonFile(statsPath)["stats"];
    const json trace = parseJsonFile(tracePath);
    ASSERT_TRUE(trace.is_object());
    ASSERT_TRUE(trace["traceEvents"].is_array());

    std::map<unsigned, uint64_t> issues, loadsBegun;
    std::set<unsigned> named;
    std::map<uint64_t, double> asyncBegin;
    uint64_t threadNames = 0, loadIssues = 0, total = 0;
    for (const auto& e : trace["traceEvents"]) {
        const std::string ph = e.at("ph");
        const unsigned pid = e.at("pid");
        const unsigned tid = e.at("tid");
        EXPECT_LT(pid, kSms);
        EXPECT_LT(tid, kWarpSlots);
        if (ph == "M") {
            if (e["name"] == "process_name") {
                EXPECT_EQ(e["args"]["name"], "SM " + std::to_string(pid));
                named.insert(pid);
            }
            threadNames += e["name"] == "thread_name";
            continue;
        }
        ++total;
        if (ph == "X" && e["cat"] == "issue") {
            ++issues[pid];
            EXPECT_NEAR(e["dur"].get<double>(), kCorePeriodUs, 1e-9) << "one core cycle";
            // ts is a whole number of core cycles.
            const double cycles = e["ts"].get<double>() / kCorePeriodUs;
            EXPECT_NEAR(cycles, std::round(cycles), 1e-6);
            loadIssues += e["name"] == "load.global";
        } else if (ph == "b") {
            ++loadsBegun[pid];
            asyncBegin[e["id"].get<uint64_t>()] = e["ts"].get<double>();
        } else if (ph == "e") {
            const uint64_t id = e["id"];
            ASSERT_TRUE(asyncBegin.count(id)) << "end before begin for id " << id;
            EXPECT_GT(e["ts"].get<double>(), asyncBegin[id]) << "a load takes time";
        }
    }
    EXPECT_EQ(named.size(), kSms);
    EXPECT_EQ(threadNames, kSms * kWarpSlots);
    uint64_t issued = 0;
    for (unsigned i = 0; i < kSms; ++i) {
        const std::string p = "sm" + std::to_string(i) + ".";
        EXPECT_EQ(issues[i], stat(stats, p + "issued")) << "SM " << i;
        EXPECT_EQ(loadsBegun[i], stat(stats, p + "ldst.loads")) << "SM " << i;
        issued += issues[i];
    }
    EXPECT_EQ(issued, kInstructions);
    EXPECT_EQ(loadIssues, 2 * 256u);  // two loads per warp
    EXPECT_EQ(trace["otherData"]["events"].get<uint64_t>(), total);
    EXPECT_EQ(trace["otherData"]["core_period_ps"], 714);
}

// matmul:n=64 (tile 16): 16 CTAs of 8 warps, 4 tiles of two barriers each = 1024 barrier
// instructions. A warp waits at a barrier or on the scoreboard only while it issues nothing, so on
// each warp slot the stall intervals and issue events never overlap.
TEST(TraceFlags, WarpTraceShowsBarrierAndScoreboardStallsBetweenIssues) {
    ScratchDir dir;
    const auto tracePath = (dir / "warps.json").string();
    runOk({"run", "--quiet", "--workload", "matmul:n=64", "--trace-warps", tracePath});
    const json trace = parseJsonFile(tracePath);
    std::map<std::pair<unsigned, unsigned>, std::vector<std::pair<double, double>>> spans;
    uint64_t barriers = 0, barrierStalls = 0, scoreboardStalls = 0;
    for (const auto& e : trace["traceEvents"]) {
        if (e["ph"] != "X") continue;
        const double ts = e["ts"], dur = e["dur"];
        EXPECT_GT(dur, 0);
        spans[{e["pid"], e["tid"]}].push_back({ts, ts + dur});
        barriers += e["cat"] == "issue" && e["name"] == "barrier";
        barrierStalls += e["cat"] == "stall" && e["name"] == "barrier";
        scoreboardStalls += e["cat"] == "stall" && e["name"] == "scoreboard";
    }
    EXPECT_EQ(barriers, 1024u);
    EXPECT_GT(barrierStalls, 0u);
    EXPECT_LE(barrierStalls, barriers) << "at most one wait per barrier instruction";
    EXPECT_GT(scoreboardStalls, 0u);
    for (auto& [slot, v] : spans) {
        std::sort(v.begin(), v.end());
        for (size_t i = 1; i < v.size(); ++i)
            ASSERT_GE(v[i].first + 1e-9, v[i - 1].second)
                << "SM " << slot.first << " slot " << slot.second << ": overlapping events at " << v[i].first;
    }
}

TEST(TraceFlags, TracingChangesNoStatistic) {
    ScratchDir dir;
    const auto plain = (dir / "plain.json").string(), traced = (dir / "traced.json").string(),
               filtered = (dir / "filtered.json").string(), perfetto = (dir / "perfetto.json").string();
    runOk(with(kRun, {"--stats", plain}));
    runOk(with(kRun, {"--stats", traced, "--trace-tlm", (dir / "t.csv").string(), "--trace-warps",
                            (dir / "w.json").string()}));
    runOk(with(kRun, {"--stats", filtered, "--trace-tlm", (dir / "t.csv.gz").string(), "--trace-warps",
                      (dir / "w.json.gz").string(), "--trace-window", "100:400", "--trace-sms", "0,3-5"}));
    runOk(with(kRun, {"--stats", perfetto, "--trace-tlm", (dir / "t.json").string()}));
    const json a = parseJsonFile(plain);
    ASSERT_TRUE(a.contains("stats"));
    EXPECT_GT(a["stats"].size(), 100u);
    for (const auto& other : {traced, filtered, perfetto}) {
        const json b = parseJsonFile(other);
        for (const char* section : {"stats", "summary", "kernels"}) EXPECT_EQ(a[section], b[section]) << section << " " << other;
    }
}

// Perfetto JSON of the same run: every transaction crosses its link as a request slice and a
// response slice joined by one flow. 768 requests SM->NoC, the same 768 NoC->L2, 512 L2->memory
// (the lines of a and b miss in the L2 once; the 256 lines of c stay in the write-back L2: the
// memory statistics count 512 reads, 0 writes), so 2,048 transactions: 4,096 slices, 2,048 flows.
TEST(TraceFlags, TlmTraceAsPerfettoHasTwoSlicesAndOneFlowPerTransaction) {
    ScratchDir dir;
    const auto statsPath = (dir / "stats.json").string(), tracePath = (dir / "tlm.json").string();
    runOk(with(kRun, {"--stats", statsPath, "--trace-tlm", tracePath}));
    const json stats = parseJsonFile(statsPath)["stats"];
    uint64_t memRequests = 0;
    for (unsigned j = 0; j < kPartitions; ++j)
        memRequests += stat(stats, "mem" + std::to_string(j) + ".reads") + stat(stats, "mem" + std::to_string(j) + ".writes");
    ASSERT_EQ(memRequests, 512u);
    const json trace = parseJsonFile(tracePath);
    ASSERT_TRUE(trace["traceEvents"].is_array());
    std::map<unsigned, std::string> linkOf;  // pid -> link name
    std::map<std::pair<unsigned, unsigned>, std::vector<std::pair<double, double>>> tracks;
    std::map<uint64_t, std::pair<int, int>> flows;  // id -> (outs, ins)
    std::map<uint64_t, unsigned> flowPid;
    uint64_t slices = 0;
    for (const auto& e : trace["traceEvents"]) {
        const unsigned pid = e["pid"], tid = e["tid"];
        if (e["ph"] == "M") {
            if (e["name"] == "process_name") linkOf[pid] = e["args"]["name"];
            continue;
        }
        ASSERT_EQ(e["ph"], "X");
        ASSERT_TRUE(tid == 1 || tid == 2) << "request or response track";
        ++slices;
        const double ts = e["ts"], dur = e["dur"];
        EXPECT_GE(dur, 0);
        tracks[{pid, tid}].push_back({ts, ts + dur});
        if (e.contains("bind_id")) {
            const uint64_t id = e["bind_id"];
            if (e.contains("flow_out")) {
                EXPECT_EQ(tid, 1u) << "flows start at requests";
                ++flows[id].first;
            } else {
                EXPECT_EQ(tid, 2u) << "and end at their answers";
                ++flows[id].second;
            }
            if (flowPid.count(id)) EXPECT_EQ(flowPid[id], pid) << "a flow stays on its link";
            flowPid[id] = pid;
        }
    }
    EXPECT_EQ(linkOf.size(), kSms + 2 * kPartitions);
    EXPECT_EQ(linkOf[1], "sm0->noc");
    EXPECT_EQ(slices, 2 * (kRequests + kRequests + memRequests));
    EXPECT_EQ(flows.size(), kRequests + kRequests + memRequests);
    for (const auto& [id, n] : flows) EXPECT_EQ(n, std::make_pair(1, 1)) << "flow " << id;
    EXPECT_EQ(trace["otherData"]["slices"].get<uint64_t>(), slices);
    EXPECT_EQ(trace["otherData"]["flows"].get<uint64_t>(), flows.size());
    // The base protocol's exclusion rules: one request and one response in their phase per link.
    for (auto& [track, v] : tracks) {
        std::sort(v.begin(), v.end());
        for (size_t i = 1; i < v.size(); ++i)
            ASSERT_GE(v[i].first + 1e-9, v[i - 1].second) << linkOf[track.first] << " track " << track.second;
    }
}

// The window and SM filter keep exactly what an unfiltered trace holds in cycles [100, 400) (ps
// [71,400, 285,600) at 714 ps a cycle) and on SMs 0, 3, 4, 5: CSV lines whose time is in the window
// and whose sm is kept; warp events that start in the window on a kept SM (issue events are one
// cycle long and so never cut).
TEST(TraceFlags, WindowAndSmFilterKeepExactlyTheirPartOfTheFullTrace) {
    ScratchDir dir;
    const auto fullTlm = dir / "full.csv", fullWarps = dir / "full.json";
    const auto tlm = dir / "part.csv.gz", warps = dir / "part.json.gz";
    runOk(with(kRun, {"--trace-tlm", fullTlm.string(), "--trace-warps", fullWarps.string()}));
    runOk(with(kRun, {"--trace-tlm", tlm.string(), "--trace-warps", warps.string(), "--trace-window", "100:400",
                      "--trace-sms", "0,3-5"}));
    const std::set<int> kept = {0, 3, 4, 5};
    const auto inWindow = [](uint64_t ps) { return ps >= 71400 && ps < 285600; };
    std::string header;
    std::vector<std::string> expected, got;
    for (const auto& l : readTlmTrace(fullTlm, &header))
        if (inWindow(l.ps) && kept.count(l.sm)) expected.push_back(std::to_string(l.ps) + l.link + l.phase + std::to_string(l.id));
    for (const auto& l : readTlmTrace(tlm, &header)) got.push_back(std::to_string(l.ps) + l.link + l.phase + std::to_string(l.id));
    EXPECT_GT(expected.size(), 100u) << "the window holds traffic";
    EXPECT_EQ(got, expected);

    const auto issues = [&](const json& t, bool filter) {
        std::vector<std::string> out;
        for (const auto& e : t["traceEvents"]) {
            if (e["ph"] != "X" || e["cat"] != "issue") continue;
            const double cycle = std::round(e["ts"].get<double>() / kCorePeriodUs);
            if (filter && (cycle < 100 || cycle >= 400 || !kept.count(e["pid"].get<int>()))) continue;
            out.push_back(e.dump());
        }
        return out;
    };
    const json part = parseJsonFile(warps);
    const auto partIssues = issues(part, false);
    EXPECT_GT(partIssues.size(), 50u);  // 59 when written
    EXPECT_EQ(partIssues, issues(parseJsonFile(fullWarps), true));
    std::set<int> named;
    for (const auto& e : part["traceEvents"]) {
        if (e["ph"] == "M") {
            if (e["name"] == "process_name") named.insert(e["pid"].get<int>());
            continue;
        }
        EXPECT_TRUE(kept.count(e["pid"].get<int>())) << e.dump();
        const double ts = e["ts"];
        EXPECT_GE(ts, 100 * kCorePeriodUs - 1e-9) << e.dump();
        EXPECT_LE(ts + (e.contains("dur") ? e["dur"].get<double>() : 0), 400 * kCorePeriodUs + 1e-9) << e.dump();
    }
    EXPECT_EQ(named, kept);
}

TEST(TraceFlags, BadWindowOrSmListIsAnInputErrorNamingTheOption) {
    ScratchDir dir;
    const std::string t = (dir / "t.csv").string();
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--trace-tlm", t, "--trace-window", "400:100"}, "--trace-window: '400:100': TO must be greater than FROM"},
        {{"--trace-tlm", t, "--trace-sms", "15"}, "--trace-sms: '15': SM 15 does not exist (the platform has 15: 0-14)"},
        {{"--trace-window", "0:10"}, "--trace-window: needs --trace-tlm or --trace-warps"},
    };
    for (const auto& [more, message] : cases) {
        const auto args = with(kRun, more);
        const ProcessResult r = runGpusim(args);
        EXPECT_EQ(r.status, 2) << commandLine(args) << "\n" << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
    }
}

TEST(TraceFlags, RunCutShortByMaxCyclesLeavesValidTraces) {
    ScratchDir dir;
    const auto statsPath = (dir / "stats.json").string(), warps = (dir / "w.json").string(),
               tlm = (dir / "t.csv").string();
    runOk(with(kRun, {"--max-cycles", "300", "--stats", statsPath, "--trace-warps", warps, "--trace-tlm", tlm}));
    EXPECT_EQ(parseJsonFile(statsPath)["summary"]["truncated"], true);
    const json trace = parseJsonFile(warps);
    ASSERT_TRUE(trace.contains("traceEvents"));
    uint64_t issues = 0;
    double last = 0;
    for (const auto& e : trace["traceEvents"]) {
        if (e["ph"] == "M") continue;
        issues += e["cat"] == "issue";
        last = std::max(last, e["ts"].get<double>());
    }
    EXPECT_GT(issues, 0u);
    EXPECT_LT(issues, kInstructions);
    EXPECT_LE(last, 301 * kCorePeriodUs) << "nothing after the last simulated cycle";
    const std::string csv = readFile(tlm);
    ASSERT_FALSE(csv.empty());
    EXPECT_EQ(csv.back(), '\n') << "the CSV ends with a whole line";
}

TEST(TraceFlags, UnwritablePathIsAnInputErrorNamingIt) {
    ScratchDir dir;
    const std::string bad = (dir / "no-such-dir" / "trace.out").string();
    for (const char* flag : {"--trace-tlm", "--trace-warps"}) {
        const auto args = with(kRun, {flag, bad});
        const ProcessResult r = runGpusim(args);
        EXPECT_EQ(r.status, 2) << commandLine(args) << "\n" << r.err;
        EXPECT_NE(r.err.find(std::string(flag) + ": " + bad), std::string::npos) << r.err;
    }
}

} // namespace trace_flags_test
