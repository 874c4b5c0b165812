// The protocol checker itself (tb/common/TlmProtocolChecker.hpp): legal AT sequences, including
// every shortcut our modules use, pass silently; each rule, broken on purpose, is reported once
// with the link name. A checker that cannot fail would make the integration tests meaningless.
//
// The AtProtocolMonitor tests feed the rules call by call (no simulation). The socket tests put a
// TlmProtocolChecker between a scripted initiator and a scripted target and need elaboration:
// one per process, as ctest runs them.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "common/PayloadPool.hpp"
#include "tb/common/TlmProtocolChecker.hpp"

namespace tlm_protocol_checker_test {

using namespace gpusim;
using namespace gpusim::tb;
using tlm::tlm_phase;
using tlm::tlm_sync_enum;
using Payload = tlm::tlm_generic_payload;

namespace {

Payload& request(PayloadPool& pool, uint64_t id, uint64_t addr, bool read = true) {
    Payload& p = pool.allocate();
    p.set_command(read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
    p.set_address(addr);
    gpuExt(p).requestId = id;
    gpuExt(p).kind = read ? AccessKind::Read : AccessKind::Write;
    return p;
}

// Drives a monitor the way the checker does around one call: what was sent, what came back.
struct Link {
    AtProtocolMonitor m{"sm0->noc"};

    void fw(Payload& p, tlm_phase sent, tlm_sync_enum st, tlm_phase returned) {
        m.beforeFw(p, sent);
        m.afterFw(p, sent, returned, st);
    }
    void fw(Payload& p, tlm_phase sent, tlm_sync_enum st) { fw(p, sent, st, sent); }
    void bw(Payload& p, tlm_phase sent, tlm_sync_enum st, tlm_phase returned) {
        m.beforeBw(p, sent);
        m.afterBw(p, sent, returned, st);
    }
    void bw(Payload& p, tlm_phase sent, tlm_sync_enum st) { bw(p, sent, st, sent); }

    std::string all() const {
        std::string s;
        for (const auto& v : m.violations()) s += v + "\n";
        return s + m.describeOpen();
    }
};

void answerOk(Payload& p) { p.set_response_status(tlm::TLM_OK_RESPONSE); }

// Exactly one violation, naming the link and containing `rule`.
void expectOneViolation(const Link& l, const std::string& rule) {
    ASSERT_EQ(l.m.violationCount(), 1u) << l.all();
    const std::string& v = l.m.violations().front();
    EXPECT_NE(v.find("sm0->noc: "), std::string::npos) << v;
    EXPECT_NE(v.find(rule), std::string::npos) << "expected '" << rule << "' in: " << v;
}

} // namespace

// ---------------------------------------------------------------- legal traffic

TEST(AtProtocolMonitor, FourPhaseHandshakeIsLegal) {
    PayloadPool pool;
    Link l;
    Payload& p = request(pool, 7, 0x1000);
    l.fw(p, tlm::BEGIN_REQ, tlm::TLM_ACCEPTED);
    EXPECT_EQ(l.m.openTransactions(), 1u);
    l.bw(p, tlm::END_REQ, tlm::TLM_ACCEPTED);
    answerOk(p);
    l.bw(p, tlm::BEGIN_RESP, tlm::TLM_ACCEPTED);
    EXPECT_EQ(l.m.openTransactions(), 1u);
    l.fw(p, tlm::END_RESP, tlm::TLM_COMPLETED);
    EXPECT_EQ(l.m.violationCount(), 0u) << l.all();
    EXPECT_EQ(l.m.openTransactions(), 0u);
    EXPECT_EQ(l.m.transactions(), 1u);
    EXPECT_EQ(l.m.completed(), 1u);
    p.release();
}

TEST(AtProtocolMonitor, ShortcutsOurModulesUseAreLegal) {
    PayloadPool pool;
    Link l;
    // Target accepts at once (TLM_UPDATED/END_REQ), initiator takes the answer at once
    // (TLM_COMPLETED to BEGIN_RESP): the common path of AtPorts.
    Payload& a = request(pool, 1, 0x100);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
    answerOk(a);
    l.bw(a, tlm::BEGIN_RESP, tlm::TLM_COMPLETED);
    // Late END_REQ (back-pressure), then a BEGIN_RESP that implies END_REQ... for the next one.
    Payload& b = request(pool, 2, 0x200);
    l.fw(b, tlm::BEGIN_REQ, tlm::TLM_ACCEPTED);
    answerOk(b);
    l.bw(b, tlm::BEGIN_RESP, tlm::TLM_UPDATED, tlm::END_RESP);  // implies END_REQ
    // The target answers within the call (TLM_UPDATED/BEGIN_RESP), END_RESP later.
    Payload& c = request(pool, 3, 0x300);
    answerOk(c);
    l.fw(c, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::BEGIN_RESP);
    l.fw(c, tlm::END_RESP, tlm::TLM_COMPLETED);
    // The target completes the whole transaction in the first call.
    Payload& d = request(pool, 4, 0x400, /*read=*/false);
    answerOk(d);
    l.fw(d, tlm::BEGIN_REQ, tlm::TLM_COMPLETED);
    // A pooled payload reused after completion starts a new transaction.
    gpuExt(a).requestId = 5;
    a.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
    answerOk(a);
    l.bw(a, tlm::BEGIN_RESP, tlm::TLM_COMPLETED);

    EXPECT_EQ(l.m.violationCount(), 0u) << l.all();
    EXPECT_EQ(l.m.openTransactions(), 0u) << l.all();
    EXPECT_EQ(l.m.transactions(), 5u);
    EXPECT_EQ(l.m.completed(), 5u);
    const auto& paths = l.m.paths();
    EXPECT_EQ(paths.endReqReturned, 2u);     // a, a again
    EXPECT_EQ(paths.endReqLate, 0u);
    EXPECT_EQ(paths.respImpliedEndReq, 2u);  // b, and c (a returned BEGIN_RESP implies END_REQ too)
    EXPECT_EQ(paths.respReturned, 1u);       // c
    EXPECT_EQ(paths.completedAtReq, 1u);     // d
    EXPECT_EQ(paths.completedAtResp, 3u);    // a, b (TLM_UPDATED/END_RESP), a again
    EXPECT_EQ(paths.endRespLate, 1u);        // c
    for (Payload* p : {&a, &b, &c, &d}) p->release();
}

TEST(AtProtocolMonitor, PipelinedRequestsAndOutOfOrderAnswersAreLegal) {
    PayloadPool pool;
    Link l;
    Payload& a = request(pool, 1, 0x100);
    Payload& b = request(pool, 2, 0x200);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
    l.fw(b, tlm::BEGIN_REQ, tlm::TLM_ACCEPTED);
    l.bw(b, tlm::END_REQ, tlm::TLM_ACCEPTED);
    EXPECT_EQ(l.m.openTransactions(), 2u);
    answerOk(b);
    l.bw(b, tlm::BEGIN_RESP, tlm::TLM_ACCEPTED);  // b answered before a
    l.fw(b, tlm::END_RESP, tlm::TLM_COMPLETED);
    answerOk(a);
    l.bw(a, tlm::BEGIN_RESP, tlm::TLM_ACCEPTED);
    l.fw(a, tlm::END_RESP, tlm::TLM_ACCEPTED);  // END_RESP may also be accepted
    EXPECT_EQ(l.m.violationCount(), 0u) << l.all();
    EXPECT_EQ(l.m.openTransactions(), 0u) << l.all();
    a.release();
    b.release();
}

// ---------------------------------------------------------------- each rule broken once

TEST(AtProtocolMonitor, CatchesTwoBeginReqWithoutEndReq) {
    PayloadPool pool;
    Link l;
    Payload& a = request(pool, 1, 0x100);
    Payload& b = request(pool, 2, 0x200);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_ACCEPTED);
    l.fw(b, tlm::BEGIN_REQ, tlm::TLM_ACCEPTED);
    expectOneViolation(l, "BEGIN_REQ while another request");
    EXPECT_NE(l.m.violations().front().find("id 2"), std::string::npos) << l.all();  // the offender
    EXPECT_NE(l.m.violations().front().find("id 1"), std::string::npos) << l.all();  // the open one
    a.release();
    b.release();
}

TEST(AtProtocolMonitor, CatchesBeginReqForAPayloadStillInFlight) {
    PayloadPool pool;
    Link l;
    Payload& a = request(pool, 1, 0x100);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);  // sent again before any answer
    expectOneViolation(l, "BEGIN_REQ for a payload whose transaction is still open");
    a.release();
}

TEST(AtProtocolMonitor, CatchesEndRespForUnknownPayload) {
    PayloadPool pool;
    Link l;
    Payload& a = request(pool, 9, 0x900);
    l.fw(a, tlm::END_RESP, tlm::TLM_COMPLETED);
    expectOneViolation(l, "END_RESP for a payload without an open response");
    EXPECT_EQ(l.m.openTransactions(), 0u);
    a.release();
}

TEST(AtProtocolMonitor, CatchesEndRespBeforeTheResponse) {
    PayloadPool pool;
    Link l;
    Payload& a = request(pool, 1, 0x100);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
    l.fw(a, tlm::END_RESP, tlm::TLM_COMPLETED);
    expectOneViolation(l, "END_RESP for a payload without an open response (request accepted");
    a.release();
}

TEST(AtProtocolMonitor, CatchesEndReqForAPayloadWhoseRequestIsNotOpen) {
    PayloadPool pool;
    Link l;
    Payload& a = request(pool, 1, 0x100);
    Payload& b = request(pool, 2, 0x200);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_ACCEPTED);
    l.bw(b, tlm::END_REQ, tlm::TLM_ACCEPTED);  // wrong payload
    expectOneViolation(l, "END_REQ for a payload whose request is not open");
    a.release();
    b.release();
}

TEST(AtProtocolMonitor, CatchesSecondEndReq) {
    PayloadPool pool;
    Link l;
    Payload& a = request(pool, 1, 0x100);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
    l.bw(a, tlm::END_REQ, tlm::TLM_ACCEPTED);
    expectOneViolation(l, "END_REQ for a payload whose request is not open (request accepted");
    a.release();
}

TEST(AtProtocolMonitor, CatchesBeginRespWithoutRequest) {
    PayloadPool pool;
    Link l;
    Payload& a = request(pool, 1, 0x100);
    answerOk(a);
    l.bw(a, tlm::BEGIN_RESP, tlm::TLM_COMPLETED);
    expectOneViolation(l, "BEGIN_RESP for a payload without an open request");
    a.release();
}

TEST(AtProtocolMonitor, CatchesBeginRespWhileAnotherResponseAwaitsEndResp) {
    PayloadPool pool;
    Link l;
    Payload& a = request(pool, 1, 0x100);
    Payload& b = request(pool, 2, 0x200);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
    l.fw(b, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
    answerOk(a);
    answerOk(b);
    l.bw(a, tlm::BEGIN_RESP, tlm::TLM_ACCEPTED);
    l.bw(b, tlm::BEGIN_RESP, tlm::TLM_COMPLETED);
    expectOneViolation(l, "BEGIN_RESP while another response");
    a.release();
    b.release();
}

TEST(AtProtocolMonitor, CatchesPhaseAfterCompletion) {
    PayloadPool pool;
    Link l;
    Payload& a = request(pool, 1, 0x100);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
    answerOk(a);
    l.bw(a, tlm::BEGIN_RESP, tlm::TLM_COMPLETED);  // initiator ended it
    l.fw(a, tlm::END_RESP, tlm::TLM_COMPLETED);     // ... and still sends END_RESP
    expectOneViolation(l, "no open transaction");
    a.release();
}

TEST(AtProtocolMonitor, CatchesPhasesInTheWrongDirection) {
    PayloadPool pool;
    {
        Link l;
        Payload& a = request(pool, 1, 0x100);
        l.fw(a, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
        answerOk(a);
        l.fw(a, tlm::BEGIN_RESP, tlm::TLM_ACCEPTED);
        expectOneViolation(l, "BEGIN_RESP sent on the forward path");
        a.release();
    }
    {
        Link l;
        Payload& b = request(pool, 2, 0x200);
        l.bw(b, tlm::BEGIN_REQ, tlm::TLM_ACCEPTED);
        expectOneViolation(l, "BEGIN_REQ sent on the backward path");
        b.release();
    }
}

TEST(AtProtocolMonitor, CatchesPayloadWithoutGpuExtension) {
    Link l;
    Payload p;  // no memory manager, no extension
    p.set_command(tlm::TLM_READ_COMMAND);
    p.set_address(0x40);
    l.fw(p, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
    expectOneViolation(l, "payload without GpuExtension");
}

TEST(AtProtocolMonitor, CatchesReadAnsweredWithAnError) {
    PayloadPool pool;
    Link l;
    Payload& a = request(pool, 1, 0x100);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
    a.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    l.bw(a, tlm::BEGIN_RESP, tlm::TLM_COMPLETED);
    expectOneViolation(l, "read answered with TLM_ADDRESS_ERROR_RESPONSE");
    a.release();
}

TEST(AtProtocolMonitor, CatchesAnswerWithoutResponseStatus) {
    PayloadPool pool;
    Link l;
    Payload& w = request(pool, 1, 0x100, /*read=*/false);  // pool leaves TLM_INCOMPLETE_RESPONSE
    l.fw(w, tlm::BEGIN_REQ, tlm::TLM_COMPLETED);
    expectOneViolation(l, "answer with TLM_INCOMPLETE_RESPONSE");
    w.release();
}

TEST(AtProtocolMonitor, CatchesAnswerWithAnotherRequestId) {
    PayloadPool pool;
    Link l;
    Payload& a = request(pool, 1, 0x100);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
    gpuExt(a).requestId = 99;
    answerOk(a);
    l.bw(a, tlm::BEGIN_RESP, tlm::TLM_COMPLETED);
    expectOneViolation(l, "answer carries request id 99, the request had 1");
    a.release();
}

TEST(AtProtocolMonitor, CatchesPhaseChangedWithTlmAccepted) {
    PayloadPool pool;
    Link l;
    Payload& a = request(pool, 1, 0x100);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_ACCEPTED, tlm::END_REQ);
    expectOneViolation(l, "TLM_ACCEPTED returned to BEGIN_REQ with the phase changed");
    a.release();
}

TEST(AtProtocolMonitor, CatchesIllegalUpdatedPhase) {
    PayloadPool pool;
    Link l;
    Payload& a = request(pool, 1, 0x100);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_RESP);
    expectOneViolation(l, "TLM_UPDATED with END_RESP returned to BEGIN_REQ");
    a.release();
}

TEST(AtProtocolMonitor, CatchesReleasedPayload) {
    PayloadPool pool;
    Link l;
    Payload& a = request(pool, 1, 0x100);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
    a.release();  // back in the pool while the transaction is open
    answerOk(a);
    l.bw(a, tlm::BEGIN_RESP, tlm::TLM_COMPLETED);
    expectOneViolation(l, "reference count 0");
}

TEST(AtProtocolMonitor, CatchesBTransportDuringAnNbSequence) {
    PayloadPool pool;
    Link l;
    Payload& a = request(pool, 1, 0x100);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
    l.m.beforeB(a);
    answerOk(a);
    l.m.afterB(a);
    expectOneViolation(l, "b_transport for a payload in the middle of an nb_transport sequence");
    a.release();
}

TEST(AtProtocolMonitor, ReportsTransactionsLeftOpen) {
    PayloadPool pool;
    Link l;
    Payload& a = request(pool, 42, 0xabc0);
    l.fw(a, tlm::BEGIN_REQ, tlm::TLM_UPDATED, tlm::END_REQ);
    EXPECT_EQ(l.m.violationCount(), 0u);
    EXPECT_EQ(l.m.openTransactions(), 1u);
    const std::string open = l.m.describeOpen();
    EXPECT_NE(open.find("sm0->noc"), std::string::npos) << open;
    EXPECT_NE(open.find("id 42"), std::string::npos) << open;
    EXPECT_NE(open.find("0xabc0"), std::string::npos) << open;
    EXPECT_NE(open.find("awaiting BEGIN_RESP"), std::string::npos) << open;
    a.release();
}

TEST(AtProtocolMonitor, CountsEveryViolationButRecordsABoundedNumber) {
    PayloadPool pool;
    AtProtocolMonitor m("l", /*maxRecorded=*/3);
    Payload& a = request(pool, 1, 0x100);
    for (int i = 0; i < 10; ++i) {
        m.beforeFw(a, tlm::END_RESP);
        m.afterFw(a, tlm::END_RESP, tlm::END_RESP, tlm::TLM_COMPLETED);
    }
    EXPECT_EQ(m.violationCount(), 10u);
    EXPECT_EQ(m.violations().size(), 3u);
    a.release();
}

// ---------------------------------------------------------------- through real sockets

namespace {

using FwScript = std::function<tlm_sync_enum(Payload&, tlm_phase&, sc_core::sc_time&)>;

struct ScriptedTarget : sc_core::sc_module {
    tlm_utils::simple_target_socket<ScriptedTarget> socket{"socket"};
    FwScript onFw;
    std::vector<tlm_phase> seen;
    int blocking = 0;
    explicit ScriptedTarget(sc_core::sc_module_name n) : sc_module(n) {
        socket.register_nb_transport_fw(this, &ScriptedTarget::fw);
        socket.register_b_transport(this, &ScriptedTarget::bt);
        socket.register_transport_dbg(this, &ScriptedTarget::dbg);
    }
    tlm_sync_enum fw(Payload& p, tlm_phase& ph, sc_core::sc_time& t) {
        seen.push_back(ph);
        return onFw(p, ph, t);
    }
    void bt(Payload& p, sc_core::sc_time& t) {
        ++blocking;
        t += sc_core::sc_time(5, sc_core::SC_NS);
        p.set_response_status(tlm::TLM_OK_RESPONSE);
    }
    unsigned dbg(Payload&) { return 42; }
};

struct ScriptedInitiator : sc_core::sc_module {
    tlm_utils::simple_initiator_socket<ScriptedInitiator> socket{"socket"};
    std::vector<tlm_phase> seen;
    tlm_sync_enum bwAnswer = tlm::TLM_COMPLETED;
    explicit ScriptedInitiator(sc_core::sc_module_name n) : sc_module(n) {
        socket.register_nb_transport_bw(this, &ScriptedInitiator::bw);
    }
    tlm_sync_enum bw(Payload&, tlm_phase& ph, sc_core::sc_time&) {
        seen.push_back(ph);
        return bwAnswer;
    }
    tlm_sync_enum send(Payload& p, tlm_phase ph) {
        sc_core::sc_time t = sc_core::SC_ZERO_TIME;
        return socket->nb_transport_fw(p, ph, t);
    }
};

} // namespace

TEST(TlmProtocolChecker, ForwardsEveryCallTransparently) {
    ScriptedInitiator init("init");
    ScriptedTarget target("target");
    TlmProtocolChecker checker(TlmProtocolChecker::moduleNameFor("sm0->noc").c_str(), "sm0->noc");
    EXPECT_STREQ(checker.basename(), "check_sm0_to_noc");
    init.socket.bind(checker.in());
    checker.out().bind(target.socket);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaborate: complete the bindings

    PayloadPool pool;
    Payload& p = request(pool, 1, 0x100);
    // The target answers BEGIN_REQ with TLM_UPDATED/BEGIN_RESP and a delay: both must come back.
    target.onFw = [](Payload& q, tlm_phase& ph, sc_core::sc_time& t) {
        if (ph == tlm::BEGIN_REQ) {
            q.set_response_status(tlm::TLM_OK_RESPONSE);
            ph = tlm::BEGIN_RESP;
            t = sc_core::sc_time(3, sc_core::SC_NS);
            return tlm::TLM_UPDATED;
        }
        return tlm::TLM_COMPLETED;
    };
    tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    EXPECT_EQ(init.socket->nb_transport_fw(p, ph, t), tlm::TLM_UPDATED);
    EXPECT_EQ(ph, tlm::BEGIN_RESP);
    EXPECT_EQ(t, sc_core::sc_time(3, sc_core::SC_NS));
    EXPECT_EQ(init.send(p, tlm::END_RESP), tlm::TLM_COMPLETED);

    // Backward path: the initiator's return value and phase come back to the target unchanged.
    Payload& q = request(pool, 2, 0x200);
    target.onFw = [](Payload&, tlm_phase&, sc_core::sc_time&) { return tlm::TLM_ACCEPTED; };
    EXPECT_EQ(init.send(q, tlm::BEGIN_REQ), tlm::TLM_ACCEPTED);
    tlm_phase bph = tlm::END_REQ;
    sc_core::sc_time bt = sc_core::SC_ZERO_TIME;
    init.bwAnswer = tlm::TLM_ACCEPTED;
    EXPECT_EQ(target.socket->nb_transport_bw(q, bph, bt), tlm::TLM_ACCEPTED);
    q.set_response_status(tlm::TLM_OK_RESPONSE);
    bph = tlm::BEGIN_RESP;
    init.bwAnswer = tlm::TLM_COMPLETED;
    EXPECT_EQ(target.socket->nb_transport_bw(q, bph, bt), tlm::TLM_COMPLETED);
    EXPECT_EQ(init.seen, (std::vector<tlm_phase>{tlm::END_REQ, tlm::BEGIN_RESP}));
    EXPECT_EQ(target.seen, (std::vector<tlm_phase>{tlm::BEGIN_REQ, tlm::END_RESP, tlm::BEGIN_REQ}));

    // Debug and blocking transport are forwarded too.
    EXPECT_EQ(init.socket->transport_dbg(p), 42u);
    Payload& b = request(pool, 3, 0x300);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    init.socket->b_transport(b, delay);
    EXPECT_EQ(target.blocking, 1);
    EXPECT_EQ(delay, sc_core::sc_time(5, sc_core::SC_NS));

    EXPECT_EQ(checker.violationCount(), 0u) << (checker.violations().empty() ? "" : checker.violations()[0]);
    EXPECT_EQ(checker.openTransactions(), 0u) << checker.describeOpen();
    EXPECT_EQ(checker.transactions(), 3u);
    EXPECT_EQ(checker.monitor().debugCalls(), 1u);
    for (Payload* x : {&p, &q, &b}) x->release();
}

TEST(TlmProtocolChecker, CatchesAMisbehavingInitiatorThroughTheSockets) {
    ScriptedInitiator init("init");
    ScriptedTarget target("target");
    TlmProtocolChecker checker("check", "sm0->noc");
    init.socket.bind(checker.in());
    checker.out().bind(target.socket);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);

    PayloadPool pool;
    target.onFw = [](Payload&, tlm_phase&, sc_core::sc_time&) { return tlm::TLM_ACCEPTED; };  // late END_REQ
    Payload& a = request(pool, 1, 0x100);
    Payload& b = request(pool, 2, 0x200);
    Payload& stray = request(pool, 3, 0x300);
    EXPECT_EQ(init.send(a, tlm::BEGIN_REQ), tlm::TLM_ACCEPTED);
    EXPECT_EQ(init.send(b, tlm::BEGIN_REQ), tlm::TLM_ACCEPTED);  // ignores back-pressure
    target.onFw = [](Payload&, tlm_phase&, sc_core::sc_time&) { return tlm::TLM_COMPLETED; };
    EXPECT_EQ(init.send(stray, tlm::END_RESP), tlm::TLM_COMPLETED);  // END_RESP for an unknown payload

    // Forwarded regardless (the checker observes, it does not filter)...
    EXPECT_EQ(target.seen.size(), 3u);
    // ...and reported, each naming the link and the payload.
    ASSERT_EQ(checker.violationCount(), 2u);
    EXPECT_NE(checker.violations()[0].find("sm0->noc: BEGIN_REQ while another request"), std::string::npos)
        << checker.violations()[0];
    EXPECT_NE(checker.violations()[0].find("0x200"), std::string::npos) << checker.violations()[0];
    EXPECT_NE(checker.violations()[1].find("sm0->noc: END_RESP for a payload without an open response"),
              std::string::npos)
        << checker.violations()[1];
    EXPECT_NE(checker.violations()[1].find("id 3"), std::string::npos) << checker.violations()[1];
    // Both requests are still waiting for END_REQ: left open.
    EXPECT_EQ(checker.openTransactions(), 2u) << checker.describeOpen();
    for (Payload* x : {&a, &b, &stray}) x->release();
}

} // namespace tlm_protocol_checker_test
