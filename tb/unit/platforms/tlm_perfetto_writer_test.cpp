// TlmPerfettoWriter on hand-driven phases: the slices, flows and cuts of a window, counted by hand.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include <nlohmann/json.hpp>
#include <tlm>

#include "platforms/TlmPerfettoWriter.hpp"
#include "tb/common/ProcessRunner.hpp"

namespace tlm_perfetto_writer_test {

using namespace gpusim;
using P = TlmPerfettoWriter::Phase;

// Window [8, 75) ps, two links. Phases (ps) and what they leave:
//   t0 link 0: BEGIN_REQ 5, END_REQ 6, BEGIN_RESP 9, END_RESP 12: request before the window (no
//      slice), response [9, 12] without a flow                                  -> 1 slice
//   t1 link 0: BEGIN_REQ 10, END_REQ 20, BEGIN_RESP 50, END_RESP 60: request [10, 20] with flow
//      out, response [50, 60] with flow in                                      -> 2 slices, 1 flow
//   t2 link 0: BEGIN_REQ 20, BEGIN_RESP 70 (implies END_REQ), END_RESP 80: request [20, 70],
//      response [70, 75] cut at the window's end                                -> 2 slices, 1 flow
//   t3 link 1: BEGIN_REQ 30, END_RESP 30 (TLM_COMPLETED): request [30, 30], response [30, 30]
//                                                                               -> 2 slices, 1 flow
//   t4 link 1: BEGIN_REQ 40, END_REQ 45, BEGIN_RESP 90, END_RESP 95: answered after the window:
//      request [40, 45] without a flow                                          -> 1 slice
// Total 8 slices, 3 flows.
TEST(TlmPerfettoWriter, HandCountedSlicesFlowsAndWindowCuts) {
    tb::ScratchDir dir;
    const auto path = (dir / "t.json").string();
    std::FILE* f = std::fopen(path.c_str(), "w");
    ASSERT_NE(f, nullptr);
    tlm::tlm_generic_payload t0, t1, t2, t3, t4;
    for (auto* t : {&t0, &t1, &t2, &t3, &t4}) t->set_command(tlm::TLM_READ_COMMAND);
    t1.set_address(0x100);
    {
        TlmPerfettoWriter w(f, 8, 75);
        w.addLink(0, "a->b");
        w.addLink(1, "b->c");
        w.phase(0, P::BeginReq, 5, t0);
        w.phase(0, P::EndReq, 6, t0);
        w.phase(0, P::BeginResp, 9, t0);
        w.phase(0, P::BeginReq, 10, t1);
        w.phase(0, P::EndResp, 12, t0);
        w.phase(0, P::EndReq, 20, t1);
        w.phase(0, P::BeginReq, 20, t2);
        w.phase(1, P::BeginReq, 30, t3);
        w.phase(1, P::EndResp, 30, t3);
        w.phase(1, P::BeginReq, 40, t4);
        w.phase(1, P::EndReq, 45, t4);
        w.phase(0, P::BeginResp, 50, t1);
        w.phase(0, P::EndResp, 60, t1);
        w.phase(0, P::BeginResp, 70, t2);
        w.phase(0, P::EndResp, 80, t2);
        w.phase(1, P::BeginResp, 90, t4);
        w.phase(1, P::EndResp, 95, t4);
        w.finish();
        EXPECT_EQ(w.slices(), 8u);
        EXPECT_EQ(w.flows(), 3u);
    }
    std::fclose(f);
    const nlohmann::json j = nlohmann::json::parse(tb::readFile(path), nullptr, false);
    ASSERT_FALSE(j.is_discarded()) << "not valid JSON";
    std::map<std::string, std::string> names;  // "pid/tid" -> thread or process name
    std::map<std::pair<unsigned, std::string>, int> spans;  // (pid, "tid:ts+dur" in ps) -> count
    std::map<uint64_t, int> flowOut, flowIn;
    unsigned slices = 0;
    for (const auto& e : j["traceEvents"]) {
        const unsigned pid = e["pid"], tid = e["tid"];
        if (e["ph"] == "M") {
            if (e["name"] == "process_name" || e["name"] == "thread_name")
                names[std::to_string(pid) + "/" + std::to_string(tid)] = e["args"]["name"];
            continue;
        }
        ASSERT_EQ(e["ph"], "X");
        ++slices;
        // Microseconds with six decimals: 1e-6 us = 1 ps.
        const auto ps = [](double us) { return static_cast<long>(us * 1e6 + 0.5); };
        const std::string span = std::to_string(tid) + ":" + std::to_string(ps(e["ts"])) + "+" + std::to_string(ps(e["dur"]));
        ++spans[{pid, span}];
        if (e.contains("flow_out")) ++flowOut[e["bind_id"].get<uint64_t>()];
        if (e.contains("flow_in")) ++flowIn[e["bind_id"].get<uint64_t>()];
    }
    EXPECT_EQ(slices, 8u);
    EXPECT_EQ(j["otherData"]["slices"], 8);
    EXPECT_EQ(j["otherData"]["flows"], 3);
    EXPECT_EQ(names["1/0"], "a->b");
    EXPECT_EQ(names["2/0"], "b->c");
    EXPECT_EQ(names["1/1"], "request");
    EXPECT_EQ(names["1/2"], "response");
    // Link 0 is pid 1, link 1 pid 2; tid 1 requests, tid 2 responses.
    const std::map<std::pair<unsigned, std::string>, int> expected = {
        {{1, "2:9+3"}, 1},   {{1, "1:10+10"}, 1}, {{1, "2:50+10"}, 1}, {{1, "1:20+50"}, 1},
        {{1, "2:70+5"}, 1},  {{2, "1:30+0"}, 1},  {{2, "2:30+0"}, 1},  {{2, "1:40+5"}, 1}};
    EXPECT_EQ(spans, expected);
    EXPECT_EQ(flowOut.size(), 3u);
    EXPECT_EQ(flowOut, flowIn) << "every flow has one start and one end";
}

} // namespace tlm_perfetto_writer_test
