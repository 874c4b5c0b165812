// The GPU's two ends of every AT link (common/AtPorts.hpp: AtInitiatorPort is the SM's end of
// sm<i>->noc, the NoC's of noc->l2.<j>, the L2 slice's of l2.<j>->mem; AtTargetPort the NoC's of
// sm<i>->noc, the L2's of noc->l2.<j>, the memory models' of l2.<j>->mem), each behind a socket
// and played against a reference peer (tb/common/ReferenceAtTarget.hpp, ReferenceAtInitiator.hpp)
// that walks one sequence of the TLM-2.0 base protocol (IEEE 1666-2011, 15.2), with zero and
// non-zero annotated delays, a Doulos-style protocol checker between them. Two requests, r0 and
// r1, are sent from time 0; every expected time is worked out by hand in the comment above it
// (ns; a phase annotated with a delay takes effect at call time + delay).
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/AtPorts.hpp"
#include "common/PayloadPool.hpp"
#include "tb/common/ReferenceAtInitiator.hpp"
#include "tb/common/ReferenceAtTarget.hpp"
#include "tb/common/TlmProtocolChecker.hpp"

namespace gpusim::tb {
namespace at_port_conformance_test {

using namespace sc_core;
using Payload = tlm::tlm_generic_payload;

sc_time ns(double v) { return sc_time(v, SC_NS); }

std::vector<double> inNs(const std::vector<sc_time>& ts) {
    std::vector<double> out;
    for (const sc_time& t : ts) out.push_back(double(t.value()) / 1000.0);  // ps (the default resolution) to ns
    return out;
}

Payload& request(PayloadPool& pool, uint64_t addr, uint64_t id) {
    Payload& p = pool.allocate();
    p.set_address(addr);
    p.set_command(tlm::TLM_READ_COMMAND);
    p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    gpuExt(p).kind = AccessKind::Read;
    gpuExt(p).requestId = id;
    return p;
}

// The GPU's initiator end: sends its requests in order as soon as canSend(), takes every answer
// (after refusing the first `refuse` offers, each retried `retryAfter` later, as a full queue
// would), records when it took them and when END_REQ reached it.
struct PortInitiator : sc_module {
    tlm_utils::simple_initiator_socket<PortInitiator> socket{"socket"};
    AtInitiatorPort port;
    std::vector<Payload*> toSend;
    std::vector<sc_time> taken, endReqs;
    unsigned refuse = 0;
    sc_time retryAfter = ns(7);
    sc_event canSend, retry;

    PortInitiator(sc_module_name n, ResponseCompletion style) : sc_module(n) {
        socket.register_nb_transport_bw(this, &PortInitiator::bw);
        port.bind("unit->peer", FwPeerFn([this] { return socket.operator->(); }), [this](Payload&) { return take(); },
                  [this] {
                      endReqs.push_back(sc_time_stamp());
                      canSend.notify(SC_ZERO_TIME);
                  });
        port.setResponseCompletion(style);
        SC_HAS_PROCESS(PortInitiator);
        SC_THREAD(run);
        SC_METHOD(retryHeld);
        sensitive << retry;
        dont_initialize();
    }
    tlm::tlm_sync_enum bw(Payload& p, tlm::tlm_phase& ph, sc_time& t) { return port.nbTransportBw(p, ph, t); }
    bool take() {
        if (refuse) {
            --refuse;
            retry.notify(retryAfter);
            return false;
        }
        taken.push_back(sc_time_stamp());
        return true;
    }
    void retryHeld() { port.retryHeldResponse(); }
    void run() {
        for (Payload* p : toSend) {
            while (!port.canSend()) wait(canSend);
            port.send(*p);
        }
    }
};

// The GPU's target end: takes each request (after refusing the first `refuse` offers, retried
// `retryAfter` later), answers it `latency` after taking it, one answer at a time, and records
// when it took requests and when each answer ended.
struct PortTarget : sc_module {
    tlm_utils::simple_target_socket<PortTarget> socket{"socket"};
    AtTargetPort port;
    sc_time latency = ns(20);
    unsigned refuse = 0;
    sc_time retryAfter = ns(7);
    std::vector<sc_time> taken, endResps;
    std::vector<std::pair<Payload*, sc_time>> due;
    size_t next = 0;
    sc_event answer, retry;

    explicit PortTarget(sc_module_name n) : sc_module(n) {
        socket.register_nb_transport_fw(this, &PortTarget::fw);
        port.bind("peer->unit", BwPeerFn([this] { return socket.operator->(); }), [this](Payload& p) { return take(p); },
                  [this] {
                      endResps.push_back(sc_time_stamp());
                      answer.notify(SC_ZERO_TIME);
                  });
        SC_HAS_PROCESS(PortTarget);
        SC_METHOD(respond);
        sensitive << answer;
        dont_initialize();
        SC_METHOD(retryHeld);
        sensitive << retry;
        dont_initialize();
    }
    tlm::tlm_sync_enum fw(Payload& p, tlm::tlm_phase& ph, sc_time& t) { return port.nbTransportFw(p, ph, t); }
    bool take(Payload& p) {
        if (refuse) {
            --refuse;
            retry.notify(retryAfter);
            return false;
        }
        taken.push_back(sc_time_stamp());
        due.emplace_back(&p, sc_time_stamp() + latency);
        answer.notify(latency);
        return true;
    }
    void retryHeld() { port.retryHeldRequest(); }
    void respond() {
        while (next < due.size() && due[next].second <= sc_time_stamp() && port.canRespond()) {
            due[next].first->set_response_status(tlm::TLM_OK_RESPONSE);
            port.respond(*due[next++].first);
        }
        if (next < due.size() && port.canRespond()) answer.notify(due[next].second - sc_time_stamp());
    }
};

// ---- The GPU as initiator against the reference target.

struct InitiatorBench {
    PayloadPool pool;
    PortInitiator unit;
    TlmProtocolChecker checker{"checker", "unit->peer"};
    ReferenceAtTarget peer;
    Payload *r0, *r1;
    InitiatorBench(TargetSequence s, ReferenceAtTarget::Timing t, ResponseCompletion style = ResponseCompletion::Completed)
        : unit("unit", style), peer("peer", s, t) {
        r0 = &request(pool, 0x1000, 1);
        r1 = &request(pool, 0x2000, 2);
        unit.toSend = {r0, r1};
        unit.socket.bind(checker.in());
        checker.out().bind(peer.socket);
    }
    void run() {
        sc_start();
        EXPECT_EQ(checker.violationCount(), 0u) << checker.violations().front();
        EXPECT_EQ(checker.openTransactions(), 0u) << checker.describeOpen();
        EXPECT_EQ(unit.port.outstanding(), 0u);
        EXPECT_FALSE(unit.port.hasHeldResponse());
        EXPECT_TRUE(unit.port.canSend());
    }
    std::vector<double> targetEndResps() const {
        std::vector<sc_time> out;
        for (const auto& r : peer.records)
            if (r.ended) out.push_back(r.endResp);
        return inNs(out);
    }
};

ReferenceAtTarget::Timing targetTiming(double reqDelay, double respDelay) {
    ReferenceAtTarget::Timing t;
    t.reqDelay = ns(reqDelay);
    t.endReqAfter = ns(4);
    t.latency = ns(20);
    t.respDelay = ns(respDelay);
    return t;
}

using V = std::vector<double>;

TEST(InitiatorConformance, UpdatedEndReqNoDelays) {
    // r0 at 0: END_REQ returned, r1 sent at once (0). Both answers are called at 0 + 20 = 20 and
    // completed by the return value (TLM_COMPLETED), so r1's follows r0's in the same instant.
    InitiatorBench b(TargetSequence::UpdatedEndReq, targetTiming(0, 0));
    b.run();
    EXPECT_EQ(inNs(b.unit.taken), (V{20, 20}));
    EXPECT_TRUE(b.unit.endReqs.empty());  // taken inside the call, nothing later
    EXPECT_EQ(b.peer.completedByReturn, 2u);
    EXPECT_EQ(b.checker.monitor().paths().endReqReturned, 2u);
}

TEST(InitiatorConformance, UpdatedEndReqWithDelays) {
    // END_REQ returned with 5 ns: r0 accepted at 0 + 5 = 5, r1 sent then, accepted at 5 + 5 = 10.
    // r0's BEGIN_RESP is called at 0 + 20 = 20 with 10 ns: taken at 30, finished by END_RESP at
    // 30; r1's (due 5 + 20 = 25) is called when r0's ended, at 30, with 10 ns: taken at 40.
    InitiatorBench b(TargetSequence::UpdatedEndReq, targetTiming(5, 10));
    b.run();
    EXPECT_EQ(inNs(b.unit.endReqs), (V{5, 10}));
    EXPECT_EQ(inNs(b.unit.taken), (V{30, 40}));
    EXPECT_EQ(b.targetEndResps(), (V{30, 40}));
    EXPECT_EQ(b.peer.endResps, 2u);
}

TEST(InitiatorConformance, AcceptedThenEndReqNoDelays) {
    // TLM_ACCEPTED; END_REQ called 4 ns after each BEGIN_REQ: r0's at 4 (r1 sent then), r1's at
    // 8. Answers at 0 + 20 = 20 and 4 + 20 = 24, each completed at once.
    InitiatorBench b(TargetSequence::AcceptedEndReq, targetTiming(0, 0));
    b.run();
    EXPECT_EQ(inNs(b.unit.endReqs), (V{4, 8}));
    EXPECT_EQ(inNs(b.unit.taken), (V{20, 24}));
    EXPECT_EQ(b.checker.monitor().paths().endReqLate, 2u);
}

TEST(InitiatorConformance, AcceptedThenEndReqWithDelays) {
    // END_REQ called at 4 with 5 ns: r0 accepted at 9, r1 sent at 9, its END_REQ called at
    // 9 + 4 = 13 with 5 ns: 18. r0's answer called at 20 with 10 ns: taken 30 (END_RESP 30);
    // r1's, due 9 + 20 = 29, called at 30 with 10 ns: taken 40.
    InitiatorBench b(TargetSequence::AcceptedEndReq, targetTiming(5, 10));
    b.run();
    EXPECT_EQ(inNs(b.unit.endReqs), (V{9, 18}));
    EXPECT_EQ(inNs(b.unit.taken), (V{30, 40}));
    EXPECT_EQ(b.targetEndResps(), (V{30, 40}));
}

TEST(InitiatorConformance, ResponseBeforeEndReqNoDelays) {
    // No END_REQ: r0's BEGIN_RESP at 20 implies it (r1 sent at 20), r1's at 20 + 20 = 40.
    InitiatorBench b(TargetSequence::AcceptedBeginResp, targetTiming(0, 0));
    b.run();
    EXPECT_EQ(inNs(b.unit.endReqs), (V{20, 40}));
    EXPECT_EQ(inNs(b.unit.taken), (V{20, 40}));
    EXPECT_EQ(b.checker.monitor().paths().respImpliedEndReq, 2u);
}

TEST(InitiatorConformance, ResponseBeforeEndReqWithDelay) {
    // r0's BEGIN_RESP called at 20 with 10 ns: at 30 it implies END_REQ (r1 sent at 30) and is
    // taken; r1's called at 30 + 20 = 50 with 10 ns: 60.
    InitiatorBench b(TargetSequence::AcceptedBeginResp, targetTiming(0, 10));
    b.run();
    EXPECT_EQ(inNs(b.unit.endReqs), (V{30, 60}));
    EXPECT_EQ(inNs(b.unit.taken), (V{30, 60}));
    EXPECT_EQ(b.targetEndResps(), (V{30, 60}));
}

TEST(InitiatorConformance, UpdatedBeginRespNoDelays) {
    // BEGIN_RESP returned to BEGIN_REQ (implicit END_REQ): r0 taken at 0 and finished by END_RESP
    // at 0, r1 the same at 0.
    InitiatorBench b(TargetSequence::UpdatedBeginResp, targetTiming(0, 0));
    b.run();
    EXPECT_EQ(inNs(b.unit.taken), (V{0, 0}));
    EXPECT_EQ(b.targetEndResps(), (V{0, 0}));
    EXPECT_EQ(b.checker.monitor().paths().respReturned, 2u);
}

TEST(InitiatorConformance, UpdatedBeginRespWithDelay) {
    // BEGIN_RESP returned with 10 ns: r0 accepted and taken at 10 (END_RESP 10), r1 sent at 10,
    // taken at 20.
    InitiatorBench b(TargetSequence::UpdatedBeginResp, targetTiming(0, 10));
    b.run();
    EXPECT_EQ(inNs(b.unit.endReqs), (V{10, 20}));
    EXPECT_EQ(inNs(b.unit.taken), (V{10, 20}));
    EXPECT_EQ(b.targetEndResps(), (V{10, 20}));
}

TEST(InitiatorConformance, EarlyCompletionNoDelays) {
    // TLM_COMPLETED to BEGIN_REQ: both taken inside their calls at 0; no END_RESP is sent.
    InitiatorBench b(TargetSequence::Completed, targetTiming(0, 0));
    b.run();
    EXPECT_EQ(inNs(b.unit.taken), (V{0, 0}));
    EXPECT_EQ(b.peer.endResps, 0u);
    EXPECT_EQ(b.checker.monitor().paths().completedAtReq, 2u);
}

TEST(InitiatorConformance, EarlyCompletionWithDelay) {
    // TLM_COMPLETED with 10 ns: r0 ends (and is taken) at 10, r1 sent at 10 ends at 20.
    InitiatorBench b(TargetSequence::Completed, targetTiming(0, 10));
    b.run();
    EXPECT_EQ(inNs(b.unit.endReqs), (V{10, 20}));
    EXPECT_EQ(inNs(b.unit.taken), (V{10, 20}));
    EXPECT_EQ(b.peer.endResps, 0u);
}

TEST(InitiatorConformance, EarlyCompletionRefusedIsHeldWithoutEndResp) {
    // r0 completed with 10 ns, offered at 10 and refused, taken at the retry 10 + 7 = 17 (no
    // END_RESP: the target completed it). r1, sent at 10 (the request ended), completes at 20.
    InitiatorBench b(TargetSequence::Completed, targetTiming(0, 10));
    b.unit.refuse = 1;
    b.run();
    EXPECT_EQ(inNs(b.unit.taken), (V{17, 20}));
    EXPECT_EQ(b.peer.endResps, 0u);
}

TEST(InitiatorConformance, HeldAnswerEndsWithEndResp) {
    // r0's answer at 20 refused (held, TLM_ACCEPTED), taken at the retry 27 with END_RESP at 27;
    // r1's answer waits for it, is called at 27 and completed at once.
    InitiatorBench b(TargetSequence::UpdatedEndReq, targetTiming(0, 0));
    b.unit.refuse = 1;
    b.run();
    EXPECT_EQ(inNs(b.unit.taken), (V{27, 27}));
    EXPECT_EQ(b.targetEndResps(), (V{27, 27}));
    EXPECT_EQ(b.peer.endResps, 1u);
}

TEST(InitiatorConformance, HeldAnswerWithDelay) {
    // r0's answer called at 20 with 10 ns: offered at 30, refused, taken at 37 (END_RESP 37);
    // r1's called at 37 with 10 ns: taken at 47.
    InitiatorBench b(TargetSequence::UpdatedEndReq, targetTiming(0, 10));
    b.unit.refuse = 1;
    b.run();
    EXPECT_EQ(inNs(b.unit.taken), (V{37, 47}));
    EXPECT_EQ(b.targetEndResps(), (V{37, 47}));
}

TEST(InitiatorConformance, EndRespStyleSendsEndResp) {
    // end_resp: r0's answer at 20 taken inside the call, TLM_ACCEPTED returned, END_RESP sent a
    // delta cycle later (still 20); r1's answer then called at 20 and treated the same.
    InitiatorBench b(TargetSequence::UpdatedEndReq, targetTiming(0, 0), ResponseCompletion::EndResp);
    b.peer.waitsForEndResp = true;
    b.run();
    EXPECT_EQ(inNs(b.unit.taken), (V{20, 20}));
    EXPECT_EQ(b.targetEndResps(), (V{20, 20}));
    EXPECT_EQ(b.peer.completedByReturn, 0u);
    EXPECT_EQ(b.peer.endResps, 2u);
    EXPECT_EQ(b.checker.monitor().paths().endRespLate, 2u);
}

TEST(InitiatorConformance, CompletedStyleStallsATargetThatWaitsForEndResp) {
    // The control of the test above: with the default style the target that knows only END_RESP
    // gets TLM_COMPLETED for r0 at 20 and never answers r1.
    InitiatorBench b(TargetSequence::UpdatedEndReq, targetTiming(0, 0));
    b.peer.waitsForEndResp = true;
    sc_start();
    EXPECT_EQ(inNs(b.unit.taken), (V{20}));
    EXPECT_EQ(b.peer.completedByReturn, 1u);
    EXPECT_EQ(b.unit.port.outstanding(), 1u);
}

// ---- The GPU as target against the reference initiator.

struct TargetBench {
    PayloadPool pool;
    ReferenceAtInitiator peer;
    TlmProtocolChecker checker{"checker", "peer->unit"};
    PortTarget unit{"unit"};
    Payload *r0, *r1;
    TargetBench(InitiatorAnswer a, double reqDelay, double endRespAfter, double respDelay)
        : peer("peer", a, timing(reqDelay, endRespAfter, respDelay)) {
        r0 = &request(pool, 0x1000, 1);
        r1 = &request(pool, 0x2000, 2);
        peer.toSend = {r0, r1};
        peer.socket.bind(checker.in());
        checker.out().bind(unit.socket);
    }
    static ReferenceAtInitiator::Timing timing(double reqDelay, double endRespAfter, double respDelay) {
        ReferenceAtInitiator::Timing t;
        t.reqDelay = ns(reqDelay);
        t.endRespAfter = ns(endRespAfter);
        t.respDelay = ns(respDelay);
        return t;
    }
    void run() {
        sc_start();
        EXPECT_EQ(checker.violationCount(), 0u) << checker.violations().front();
        EXPECT_EQ(checker.openTransactions(), 0u) << checker.describeOpen();
        EXPECT_EQ(peer.answered(), 2u);
        EXPECT_TRUE(unit.port.canRespond());
        EXPECT_FALSE(unit.port.hasHeldRequest());
        EXPECT_FALSE(unit.port.hasQueuedPhase());
    }
    std::vector<double> beginResps() { return inNs({peer.records[r0].beginResp, peer.records[r1].beginResp}); }
    std::vector<double> endReqs() { return inNs({peer.records[r0].endReq, peer.records[r1].endReq}); }
};

TEST(TargetConformance, NoDelaysCompleted) {
    // Both requests taken at 0 (END_REQ returned), answered at 0 + 20 = 20, each completed at once.
    TargetBench b(InitiatorAnswer::Completed, 0, 0, 0);
    b.run();
    EXPECT_EQ(inNs(b.unit.taken), (V{0, 0}));
    EXPECT_EQ(b.beginResps(), (V{20, 20}));
    EXPECT_EQ(b.checker.monitor().paths().endReqReturned, 2u);
}

TEST(TargetConformance, BeginReqWithDelay) {
    // BEGIN_REQ annotated 5 ns: r0 taken at 5 (END_REQ sent then), r1 sent at 5 taken at 10.
    // Answers at 5 + 20 = 25 and 10 + 20 = 30.
    TargetBench b(InitiatorAnswer::Completed, 5, 0, 0);
    b.run();
    EXPECT_EQ(inNs(b.unit.taken), (V{5, 10}));
    EXPECT_EQ(b.endReqs(), (V{5, 10}));
    EXPECT_EQ(b.beginResps(), (V{25, 30}));
    EXPECT_EQ(b.checker.monitor().paths().endReqLate, 2u);
}

TEST(TargetConformance, UpdatedEndRespWithDelay) {
    // r0's answer at 20 finished by TLM_UPDATED/END_RESP with 10 ns: it ends at 30, when r1's
    // answer goes; that one ends at 40.
    TargetBench b(InitiatorAnswer::UpdatedEndResp, 0, 0, 10);
    b.run();
    EXPECT_EQ(b.beginResps(), (V{20, 30}));
    EXPECT_EQ(inNs(b.unit.endResps), (V{30, 40}));
}

TEST(TargetConformance, CompletedWithDelay) {
    // TLM_COMPLETED with 10 ns to r0's answer at 20: it ends at 30; r1's goes then, ends at 40.
    TargetBench b(InitiatorAnswer::Completed, 0, 0, 10);
    b.run();
    EXPECT_EQ(b.beginResps(), (V{20, 30}));
    EXPECT_EQ(inNs(b.unit.endResps), (V{30, 40}));
}

TEST(TargetConformance, EndRespOnTheForwardPath) {
    // TLM_ACCEPTED to r0's answer at 20, END_RESP called 3 ns later (23): r1's answer at 23,
    // its END_RESP at 26.
    TargetBench b(InitiatorAnswer::AcceptedEndResp, 0, 3, 0);
    b.run();
    EXPECT_EQ(b.beginResps(), (V{20, 23}));
    EXPECT_EQ(inNs(b.unit.endResps), (V{23, 26}));
    EXPECT_EQ(b.checker.monitor().paths().endRespLate, 2u);
}

TEST(TargetConformance, EndRespOnTheForwardPathWithDelay) {
    // END_RESP called at 20 + 3 = 23 with 10 ns: r0's answer ends at 33, r1's goes then; its
    // END_RESP called at 36 with 10 ns ends it at 46.
    TargetBench b(InitiatorAnswer::AcceptedEndResp, 0, 3, 10);
    b.run();
    EXPECT_EQ(b.beginResps(), (V{20, 33}));
    EXPECT_EQ(inNs(b.unit.endResps), (V{33, 46}));
}

TEST(TargetConformance, HeldRequestGetsLateEndReq) {
    // r0 refused at 0 (TLM_ACCEPTED, held), taken at the retry 7 with END_REQ then; r1 sent at 7,
    // taken at once. Answers at 27, 27.
    TargetBench b(InitiatorAnswer::Completed, 0, 0, 0);
    b.unit.refuse = 1;
    b.run();
    EXPECT_EQ(inNs(b.unit.taken), (V{7, 7}));
    EXPECT_EQ(b.endReqs(), (V{7, 7}));
    EXPECT_EQ(b.beginResps(), (V{27, 27}));
}

TEST(TargetConformance, HeldRequestWithDelay) {
    // r0 (BEGIN_REQ with 5 ns) offered at 5 and refused, taken at 12 (END_REQ 12); r1 sent at 12
    // with 5 ns, taken at 17. Answers at 32 and 37.
    TargetBench b(InitiatorAnswer::Completed, 5, 0, 0);
    b.unit.refuse = 1;
    b.run();
    EXPECT_EQ(inNs(b.unit.taken), (V{12, 17}));
    EXPECT_EQ(b.endReqs(), (V{12, 17}));
    EXPECT_EQ(b.beginResps(), (V{32, 37}));
}

} // namespace at_port_conformance_test
} // namespace gpusim::tb
