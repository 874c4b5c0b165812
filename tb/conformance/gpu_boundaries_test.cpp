// The GPU's initiator ends on a whole fermi15 GPU, each boundary it exposes played by the
// reference target (tb/common/ReferenceAtTarget.hpp) with a protocol checker in front of it:
//  - l2.<j>->mem: the reference target as the user's memory (GpuOptions::externalMemory), also
//    behind the slice arbiter of two slices per partition ("l2x2->mem" below);
//  - noc->l2.<j>: the reference target in place of partition j's L2 (a LinkHook interposer that
//    answers the NoC itself, as docs/cosimulation.md describes);
//  - sm0->noc: the reference target in place of the NoC for SM 0.
// Every sequence of the base protocol completes the run with every request answered. Timing:
// a BEGIN_RESP called at T with an annotated delay d is the same answer as one called at T + d
// with none, so two GPUs simulated side by side in one kernel (hosted mode; neither's processes
// move the other's results: docs/cosimulation.md), one answered late and one answered early with
// the difference annotated, take the same number of cycles. (A whole GPU's cycle count cannot be
// worked out by hand; the hand-computed timing of each sequence is at_port_conformance_test.)
// The GPU's target ends (the NoC at sm0->noc, the L2 at noc->l2.0, the FR-FCFS controller at
// l2.0->mem) the same way: a delay line in front of each delays every BEGIN_REQ and the end of
// every response by 7 ns, on one GPU by annotating the delay, on the other by making the call
// 7 ns later; the two take the same cycles.
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
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

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

// Delays what reaches the target of a link: every BEGIN_REQ and the end of every response (the
// initiator's TLM_COMPLETED, TLM_UPDATED + END_RESP, or END_RESP call) by `delay`, either as an
// annotation on the call passed on at once (annotate) or by passing the call on `delay` later
// with none. The initiator sees the same in both: TLM_ACCEPTED to BEGIN_REQ, END_REQ when the
// target gives it. A checker sits between the delay line and the target.
struct DelayLine : sc_module, LinkInterposer {
    tlm_utils::simple_target_socket<DelayLine> from{"from"};
    tlm_utils::simple_initiator_socket<DelayLine> to{"to"};
    TlmProtocolChecker checker;
    bool annotate;
    sc_time delay;
    tlm_utils::peq_with_cb_and_phase<DelayLine> peq{this, &DelayLine::late};

    DelayLine(sc_module_name n, const std::string& link, bool annotateDelay, sc_time d)
        : sc_module(n), checker("checker", link), annotate(annotateDelay), delay(d) {
        from.register_nb_transport_fw(this, &DelayLine::fw);
        to.register_nb_transport_bw(this, &DelayLine::bw);
        to.bind(checker.in());
    }
    tlm::tlm_target_socket<32>& in() override { return from; }
    tlm::tlm_initiator_socket<32>& out() override { return checker.out(); }

    tlm::tlm_sync_enum fw(Payload& p, tlm::tlm_phase& ph, sc_time& t) {
        if (annotate) {  // BEGIN_REQ or END_RESP, passed on with the delay added
            t += delay;
            const tlm::tlm_phase sent = ph;
            const tlm::tlm_sync_enum r = to->nb_transport_fw(p, ph, t);
            // Every target end of the GPU takes a delayed BEGIN_REQ later, by TLM_ACCEPTED.
            if (sent == tlm::BEGIN_REQ && r != tlm::TLM_ACCEPTED) ADD_FAILURE() << "delayed BEGIN_REQ answered at once";
            return r;
        }
        if (ph == tlm::END_RESP && p.has_mm()) p.acquire();  // as below
        peq.notify(p, ph, t + delay);
        return ph == tlm::BEGIN_REQ ? tlm::TLM_ACCEPTED : tlm::TLM_COMPLETED;
    }
    tlm::tlm_sync_enum bw(Payload& p, tlm::tlm_phase& ph, sc_time& t) {
        if (ph != tlm::BEGIN_RESP) return from->nb_transport_bw(p, ph, t);  // END_REQ
        const tlm::tlm_sync_enum r = from->nb_transport_bw(p, ph, t);
        if (r == tlm::TLM_ACCEPTED) return r;  // the initiator's END_RESP comes through fw
        if (annotate) {
            t += delay;
            return r;
        }
        ph = tlm::BEGIN_RESP;
        if (p.has_mm()) p.acquire();  // the initiator, done with it, may release it meanwhile
        peq.notify(p, tlm::END_RESP, t + delay);
        return tlm::TLM_ACCEPTED;
    }
    void late(Payload& p, const tlm::tlm_phase& ph) {
        tlm::tlm_phase phase = ph;
        sc_time t = SC_ZERO_TIME;
        const tlm::tlm_sync_enum r = to->nb_transport_fw(p, phase, t);
        if (ph == tlm::END_RESP && p.has_mm()) p.release();
        if (ph != tlm::BEGIN_REQ || r == tlm::TLM_ACCEPTED) return;
        if (r == tlm::TLM_UPDATED && phase == tlm::END_REQ) {
            from->nb_transport_bw(p, phase, t);
            return;
        }
        ADD_FAILURE() << "the GPU's target answered inside BEGIN_REQ";
    }
};

// One GPU with its own statistics, hooks and targets, launched in hosted mode at time 0.
struct Side {
    Config cfg{gpuSchema()};
    StatRegistry stats;
    ProtocolCheckers checkers;
    std::vector<ReplacingTarget*> replaced;
    std::vector<DelayLine*> delayLines;
    std::vector<std::unique_ptr<ReferenceAtTarget>> memories;
    std::unique_ptr<Workload> wl;
    std::unique_ptr<Gpu> gpu;
    LaunchResult result;
    bool done = false;

    // boundary: "l2->mem", "l2x2->mem" (two slices per partition), "noc->l2" or "sm0->noc": the
    // reference target there; or "delay:annotate" / "delay:late": a DelayLine in front of the
    // GPU's own targets at sm0->noc, noc->l2.0 and l2.0->mem.
    Side(const std::string& prefix, const std::string& boundary, TargetSequence s, ReferenceAtTarget::Timing t,
         const std::string& spec, GpuOptions opt = {}, const std::vector<std::string>& sets = {}) {
        cfg.loadFile(resolvePlatform("fermi15"));
        for (const auto& kv : sets) cfg.setFromString(kv);
        if (boundary == "l2x2->mem") cfg.setFromString("l2.slices_per_partition=2");
        cfg.validate();
        const PolicyChoice policy = PolicyRegistry::builtin().parse("gto");
        wl = WorkloadRegistry::builtin().create(spec, 1);
        LinkHook hook = [&, prefix, boundary, s, t](const std::string& link) -> std::unique_ptr<LinkInterposer> {
            if (boundary.rfind("delay:", 0) == 0 && (link == "sm0->noc" || link == "noc->l2.0" || link == "l2.0->mem")) {
                auto d = std::make_unique<DelayLine>(interposerModuleName(prefix + "delay_", link).c_str(), link,
                                                     boundary == "delay:annotate", ns(7));
                delayLines.push_back(d.get());
                return d;
            }
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
        std::vector<const TlmProtocolChecker*> own;
        for (auto* r : replaced) own.push_back(&r->checker);
        for (auto* d : delayLines) own.push_back(&d->checker);
        for (const TlmProtocolChecker* c : own) {
            EXPECT_EQ(c->violationCount(), 0u) << c->violations().front();
            EXPECT_EQ(c->openTransactions(), 0u) << c->describeOpen();
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

TEST(GpuBoundaries, TargetEndsTakeAnnotatedRequestsAndResponseEndsOnTime) {
    Side late("late_", "delay:late", TargetSequence::UpdatedEndReq, timing(0, 0), "vectoradd:n=16384");
    Side annotated("ann_", "delay:annotate", TargetSequence::UpdatedEndReq, timing(0, 0), "vectoradd:n=16384");
    runAll({&late, &annotated});
    late.expectClean();
    annotated.expectClean();
    ASSERT_EQ(annotated.delayLines.size(), 3u);
    for (size_t i = 0; i < 3; ++i) EXPECT_GT(annotated.delayLines[i]->checker.transactions(), 0u);
    EXPECT_EQ(annotated.result.cycles, late.result.cycles);
    std::cout << "delay lines: late calls " << late.result.cycles << " cycles, annotated calls "
              << annotated.result.cycles << " cycles\n";
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
    for (TargetSequence s : {TargetSequence::UpdatedEndReq, TargetSequence::AcceptedEndReq, TargetSequence::AcceptedBeginResp,
                             TargetSequence::UpdatedBeginResp, TargetSequence::Completed}) {
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

// The L2 releases a write-back's payload when it takes the answer (nothing waits for it); the
// END_RESP that follows in the end_resp style, or after an answer annotated with a delay, must
// still reach the memory with the payload alive (the checker counts a released one). Lines of
// 2 x 262144 x 4 B stream through fermi15's 768 KB L2 and write back on eviction.
void expectWriteBacksEndCleanly(GpuOptions opt, double respDelay) {
    Side side("s_", "l2->mem", TargetSequence::UpdatedEndReq, timing(100, respDelay), "vectoradd:n=262144", opt);
    runAll({&side});
    side.expectClean();
    EXPECT_GT(side.stats.sum("l2.slice", ".writebacks"), 0);
}

TEST(GpuBoundaries, EndRespStyleWithWriteBacks) {
    GpuOptions opt;
    for (unsigned j = 0; j < 6; ++j) opt.responseCompletion["l2." + std::to_string(j) + "->mem"] = ResponseCompletion::EndResp;
    expectWriteBacksEndCleanly(opt, 0);
}

TEST(GpuBoundaries, DelayedAnswersWithWriteBacks) { expectWriteBacksEndCleanly({}, 10); }

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
