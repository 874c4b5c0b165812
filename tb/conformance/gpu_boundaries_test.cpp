// The GPU's initiator ends on a whole fermi15 GPU, each boundary it exposes played by the
// reference target (tb/common/ReferenceAtTarget.hpp) with a protocol checker in front of it:
//  - l2.<j>->mem: the reference target as the user's memory (GpuOptions::externalMemory), also
//    behind the slice arbiter of two slices per partition ("l2x2->mem" below; the arbiter does
//    not take answers returned inside the BEGIN_REQ call);
//  - noc->l2.<j>: the reference target in place of partition j's L2 (a LinkHook interposer that
//    answers the NoC itself, as docs/cosimulation.md describes);
//  - sm0->noc: the reference target in place of the NoC for SM 0.
// Every sequence of the base protocol completes the run with every request answered. Timing:
// a BEGIN_RESP called at T with an annotated delay d is the same answer as one called at T + d
// with none, so two GPUs simulated side by side in one kernel (hosted mode; neither's processes
// move the other's results: docs/cosimulation.md), one answered late and one answered early with
// the difference annotated, take the same number of cycles. (A whole GPU's cycle count cannot be
// worked out by hand; the hand-computed timing of each sequence is at_port_conformance_test.)
// The end_resp answering style finishes every answer with END_RESP, so a memory that waits for
// END_RESP serves the whole run; with the default style the same memory stalls it.
#include <cctype>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "common/Config.hpp"
#include "common/SimError.hpp"
#include "common/Stats.hpp"
#include "platforms/Gpu.hpp"
#include "platforms/PlatformFiles.hpp"
#include "platforms/Schema.hpp"
#include "scheduler/PolicyRegistry.hpp"
#include "tb/common/ReferenceAtTarget.hpp"
#include "tb/common/TlmProtocolChecker.hpp"
#include "workloads/Workload.hpp"

namespace gpusim::tb {
namespace gpu_boundaries_test {

using namespace sc_core;

sc_time ns(double v) { return sc_time(v, SC_NS); }

ReferenceAtTarget::Timing timing(double latency, double respDelay, double reqDelay = 0) {
    ReferenceAtTarget::Timing t;
    t.latency = ns(latency);
    t.respDelay = ns(respDelay);
    t.reqDelay = ns(reqDelay);
    t.endReqAfter = ns(2);
    return t;
}

// The reference target in place of the unit behind one link, a checker in front of it. out() is
// bound to the unit the link normally reaches and never called.
struct ReplacingTarget : sc_module, LinkInterposer {
    TlmProtocolChecker checker;
    ReferenceAtTarget target;
    tlm_utils::simple_initiator_socket<ReplacingTarget> unused{"unused"};
    ReplacingTarget(sc_module_name n, const std::string& link, TargetSequence s, ReferenceAtTarget::Timing t)
        : sc_module(n), checker("checker", link), target("target", s, t) {
        checker.out().bind(target.socket);
    }
    tlm::tlm_target_socket<32>& in() override { return checker.in(); }
    tlm::tlm_initiator_socket<32>& out() override { return unused; }
};

// One GPU with its own statistics, hooks and targets, launched in hosted mode at time 0.
struct Side {
    Config cfg{gpuSchema()};
    StatRegistry stats;
    ProtocolCheckers checkers;
    std::vector<ReplacingTarget*> replaced;
    std::vector<std::unique_ptr<ReferenceAtTarget>> memories;
    std::unique_ptr<Workload> wl;
    std::unique_ptr<Gpu> gpu;
    LaunchResult result;
    bool done = false;

    // boundary: "l2->mem", "l2x2->mem" (two slices per partition), "noc->l2" or "sm0->noc".
    Side(const std::string& prefix, const std::string& boundary, TargetSequence s, ReferenceAtTarget::Timing t,
         const std::string& spec, GpuOptions opt = {}, const std::vector<std::string>& sets = {}) {
        cfg.loadFile(resolvePlatform("fermi15"));
        for (const auto& kv : sets) cfg.setFromString(kv);
        if (boundary == "l2x2->mem") cfg.setFromString("l2.slices_per_partition=2");
        cfg.validate();
        const PolicyChoice policy = PolicyRegistry::builtin().parse("gto");
        wl = WorkloadRegistry::builtin().create(spec, 1);
        LinkHook hook = [&, prefix, boundary, s, t](const std::string& link) -> std::unique_ptr<LinkInterposer> {
            const bool replace = (boundary == "noc->l2" && link.rfind("noc->l2.", 0) == 0) ||
                                 (boundary == "sm0->noc" && link == "sm0->noc");
            if (!replace) return checkers.hook()(link);
            auto r = std::make_unique<ReplacingTarget>(interposerModuleName(prefix + "ref_", link).c_str(), link, s, t);
            replaced.push_back(r.get());
            return r;
        };
        opt.externalMemory = boundary == "l2->mem" || boundary == "l2x2->mem";
        gpu = std::make_unique<Gpu>((prefix + "gpu").c_str(), cfg, policy, stats, hook, opt);
        if (opt.externalMemory)
            for (unsigned j = 0; j < gpu->partitions(); ++j) {
                memories.push_back(std::make_unique<ReferenceAtTarget>((prefix + "mem" + std::to_string(j)).c_str(), s, t));
                gpu->memorySocket(j).bind(memories.back()->socket);
            }
    }
    void launch(std::function<void()> onDone) {
        gpu->launch(*wl, [this, onDone](const LaunchResult& r) {
            result = r;
            done = true;
            onDone();
        });
    }
    std::vector<ReferenceAtTarget*> targets() {
        std::vector<ReferenceAtTarget*> out;
        for (auto& m : memories) out.push_back(m.get());
        for (auto* r : replaced) out.push_back(&r->target);
        return out;
    }
    uint64_t answered() {
        uint64_t n = 0;
        for (auto* t : targets()) n += t->records.size();
        return n;
    }
    // Every link checked, the replaced ones included; every transaction closed.
    void expectClean() {
        EXPECT_TRUE(done);
        EXPECT_TRUE(result.ok) << result.error;
        EXPECT_EQ(checkers.violationCount(), 0u) << checkers.report();
        EXPECT_EQ(checkers.openTransactions(), 0u) << checkers.report();
        for (auto* r : replaced) {
            EXPECT_EQ(r->checker.violationCount(), 0u) << r->checker.violations().front();
            EXPECT_EQ(r->checker.openTransactions(), 0u) << r->checker.describeOpen();
        }
        for (auto* t : targets()) EXPECT_TRUE(t->idle());
    }
};

// Launches every side at time 0 and simulates until all ended.
void runAll(const std::vector<Side*>& sides) {
    size_t left = sides.size();
    for (Side* s : sides)
        s->launch([&left] {
            if (--left == 0) sc_stop();
        });
    sc_start();
}

const char* kSmall = "vectoradd:n=4096";  // 16 CTAs; 2 x 4096 x 4 B / 128 B = 256 line reads

// The late answer (BEGIN_RESP called at T + 200 ns) against the early one annotated with the
// difference (called at T + 190 ns with 10 ns) at one boundary.
void expectAnnotationIsLateness(const std::string& boundary, TargetSequence s, const char* spec) {
    Side late("late_", boundary, s, timing(200, 0), spec);
    Side early("early_", boundary, s, timing(190, 10), spec);
    for (ReferenceAtTarget* t : early.targets()) t->keepAnswerTimes = true;
    runAll({&late, &early});
    late.expectClean();
    early.expectClean();
    EXPECT_GT(late.answered(), 0u);
    EXPECT_EQ(early.answered(), late.answered());
    EXPECT_EQ(early.result.cycles, late.result.cycles);
    std::cout << boundary << " " << spec << ": late answer " << late.result.cycles << " cycles, annotated answer "
              << early.result.cycles << " cycles\n";
}

TEST(GpuBoundaries, MemoryAnnotatedAnswerIsALateAnswer) {
    expectAnnotationIsLateness("l2->mem", TargetSequence::UpdatedEndReq, "vectoradd:n=16384");
}
TEST(GpuBoundaries, MemoryBehindTwoSlicesAnnotatedAnswerIsALateAnswer) {
    expectAnnotationIsLateness("l2x2->mem", TargetSequence::UpdatedEndReq, kSmall);
}
TEST(GpuBoundaries, MemoryAnnotatedAnswerBeforeEndReqIsALateAnswer) {
    expectAnnotationIsLateness("l2->mem", TargetSequence::AcceptedBeginResp, kSmall);
}
TEST(GpuBoundaries, L2AnnotatedAnswerIsALateAnswer) {
    expectAnnotationIsLateness("noc->l2", TargetSequence::UpdatedEndReq, kSmall);
}
TEST(GpuBoundaries, NocAnnotatedAnswerIsALateAnswer) {
    expectAnnotationIsLateness("sm0->noc", TargetSequence::UpdatedEndReq, kSmall);
}

// Every sequence, with and without annotated delays, at every boundary: the run completes, the
// checker finds nothing, the reference target answered every request that reached it.
struct SequenceCase {
    const char* boundary;
    TargetSequence sequence;
    double reqDelay, respDelay;
};

void PrintTo(const SequenceCase& c, std::ostream* os) {
    *os << c.boundary << " sequence " << static_cast<int>(c.sequence) << " delays " << c.reqDelay << "/" << c.respDelay;
}

class EverySequence : public ::testing::TestWithParam<SequenceCase> {};

TEST_P(EverySequence, CompletesCleanly) {
    const SequenceCase c = GetParam();
    Side side("s_", c.boundary, c.sequence, timing(100, c.respDelay, c.reqDelay), kSmall);
    runAll({&side});
    side.expectClean();
    if (std::string(c.boundary).find("->mem") != std::string::npos) EXPECT_EQ(side.answered(), 256u);  // the 256 line reads
    if (std::string(c.boundary) == "noc->l2") EXPECT_GE(side.answered(), 256u);  // SM requests (reads and writes)
    if (std::string(c.boundary) == "sm0->noc") EXPECT_GT(side.answered(), 0u);
}

std::vector<SequenceCase> allCases() {
    std::vector<SequenceCase> out;
    for (const char* b : {"l2->mem", "noc->l2", "sm0->noc"})
        for (TargetSequence s : {TargetSequence::UpdatedEndReq, TargetSequence::AcceptedEndReq,
                                 TargetSequence::AcceptedBeginResp, TargetSequence::UpdatedBeginResp,
                                 TargetSequence::Completed}) {
            out.push_back({b, s, 0, 0});
            out.push_back({b, s, 3, 7});
        }
    for (TargetSequence s : {TargetSequence::UpdatedEndReq, TargetSequence::AcceptedEndReq, TargetSequence::AcceptedBeginResp}) {
        out.push_back({"l2x2->mem", s, 0, 0});
        out.push_back({"l2x2->mem", s, 3, 7});
    }
    return out;
}

std::string caseName(const ::testing::TestParamInfo<SequenceCase>& i) {
    static const char* names[] = {"UpdatedEndReq", "AcceptedEndReq", "AcceptedBeginResp", "UpdatedBeginResp",
                                  "Completed"};
    std::string b = i.param.boundary;
    std::string clean;
    for (char ch : b) clean += std::isalnum(static_cast<unsigned char>(ch)) ? ch : '_';
    return clean + "_" + names[static_cast<int>(i.param.sequence)] + (i.param.respDelay > 0 ? "_Delayed" : "_NoDelay");
}

INSTANTIATE_TEST_SUITE_P(Boundaries, EverySequence, ::testing::ValuesIn(allCases()), caseName);

// A memory that answers only through END_RESP (as DRAMSys 5.0's arbiter does) serves the whole
// run once the L2's links to memory answer end_resp; with the default style it gets TLM_COMPLETED
// for its first answer and never answers again, and the watchdog ends the launch.
TEST(GpuBoundaries, EndRespStyleServesAMemoryThatWaitsForEndResp) {
    GpuOptions opt;
    for (unsigned j = 0; j < 6; ++j) opt.responseCompletion["l2." + std::to_string(j) + "->mem"] = ResponseCompletion::EndResp;
    Side side("s_", "l2->mem", TargetSequence::UpdatedEndReq, timing(100, 0), kSmall, opt);
    for (auto& m : side.memories) m->waitsForEndResp = true;
    runAll({&side});
    side.expectClean();
    uint64_t completed = 0, endResps = 0;
    for (auto* t : side.targets()) {
        completed += t->completedByReturn;
        endResps += t->endResps;
    }
    EXPECT_EQ(completed, 0u);
    EXPECT_EQ(endResps, 256u);  // one per line read
    EXPECT_EQ(side.checkers.paths("l2.", "->mem").endRespLate, 256u);
}

TEST(GpuBoundaries, CompletedStyleStallsAMemoryThatWaitsForEndResp) {
    Side side("s_", "l2->mem", TargetSequence::UpdatedEndReq, timing(100, 0), kSmall, {}, {"sim.watchdog_cycles=2000"});
    for (auto& m : side.memories) m->waitsForEndResp = true;
    runAll({&side});
    EXPECT_TRUE(side.done);
    EXPECT_FALSE(side.result.ok);
    uint64_t completed = 0;
    for (auto* t : side.targets()) completed += t->completedByReturn;
    EXPECT_EQ(completed, 6u);  // one answer per partition, then nothing
}

TEST(GpuBoundaries, ResponseCompletionForAnUnknownLinkIsAnInputError) {
    GpuOptions opt;
    opt.responseCompletion["l2.6->mem"] = ResponseCompletion::EndResp;  // fermi15 has partitions 0-5
    EXPECT_THROW(Side("s_", "l2->mem", TargetSequence::UpdatedEndReq, timing(100, 0), kSmall, opt), InputError);
}

} // namespace gpu_boundaries_test
} // namespace gpusim::tb
