// AtInitiatorPort's record of what is outstanding on its link: an answer is taken only for a
// request sent on this link and not yet answered; anything else (a second answer, one never
// sent, one whose request id changed) is a ModelError naming the link, the transaction's kind,
// address and request id. Hand-built: the port's transport and take functions are lambdas, no
// SystemC process runs.
#include <string>

#include <gtest/gtest.h>
#include <systemc>
#include <tlm>

#include "common/AtPorts.hpp"
#include "common/PayloadPool.hpp"
#include "common/SimError.hpp"

namespace gpusim {
namespace at_ports_test {

// An initiator port on link "l2.3->mem" whose target accepts every request at once (END_REQ
// returned) and whose owner takes every answer.
struct Link {
    PayloadPool pool;
    AtInitiatorPort port;
    unsigned taken = 0;
    Link() {
        port.bind(
            "l2.3->mem",
            [](Payload&, tlm::tlm_phase& ph, sc_core::sc_time&) {
                ph = tlm::END_REQ;
                return tlm::TLM_UPDATED;
            },
            [this](Payload&) {
                ++taken;
                return true;
            },
            nullptr);
    }
    Payload& request(AccessKind kind, uint64_t addr, uint64_t id) {
        Payload& p = pool.allocate();
        p.set_address(addr);
        gpuExt(p).kind = kind;
        gpuExt(p).requestId = id;
        return p;
    }
    tlm::tlm_sync_enum answer(Payload& p) {
        tlm::tlm_phase ph = tlm::BEGIN_RESP;
        sc_core::sc_time t = sc_core::SC_ZERO_TIME;
        return port.nbTransportBw(p, ph, t);
    }
    std::string answerError(Payload& p) {
        try {
            answer(p);
        } catch (const ModelError& e) {
            return e.what();
        }
        return "no error";
    }
};

TEST(AtInitiatorPort, CountsWhatIsOutstandingUntilAnswered) {
    Link l;
    Payload& a = l.request(AccessKind::Read, 0x1f80, 42);
    Payload& b = l.request(AccessKind::Writeback, 0x2000, 7);
    l.port.send(a);
    l.port.send(b);
    EXPECT_EQ(l.port.outstanding(), 2u);
    EXPECT_EQ(l.port.describeOutstanding(8), "writeback 0x2000 (request 7), read 0x1f80 (request 42)");
    EXPECT_EQ(l.port.describeOutstanding(1), "writeback 0x2000 (request 7), ... (1 more)");
    EXPECT_EQ(l.answer(b), tlm::TLM_COMPLETED);
    EXPECT_EQ(l.port.outstanding(), 1u);
    EXPECT_EQ(l.answer(a), tlm::TLM_COMPLETED);
    EXPECT_EQ(l.port.outstanding(), 0u);
    EXPECT_EQ(l.port.describeOutstanding(8), "none");
    EXPECT_EQ(l.taken, 2u);
}

TEST(AtInitiatorPort, SecondAnswerIsRefusedNamingLinkAddressAndRequest) {
    Link l;
    Payload& a = l.request(AccessKind::Read, 0x1f80, 42);
    l.port.send(a);
    l.answer(a);
    EXPECT_EQ(l.answerError(a),
              "l2.3->mem: answer to a request that is not outstanding on this link (answered twice, never sent, or "
              "another link's): read 0x1f80 (request 42)");
    EXPECT_EQ(l.taken, 1u) << "the owner never saw the duplicate";
}

TEST(AtInitiatorPort, AnswerToARequestNeverSentHereIsRefused) {
    Link l;
    Payload& other = l.request(AccessKind::Read, 0x80, 5);
    gpuExt(other).smId = 3;
    gpuExt(other).warpId = 11;
    EXPECT_EQ(l.answerError(other),
              "l2.3->mem: answer to a request that is not outstanding on this link (answered twice, never sent, or "
              "another link's): read 0x80 (request 5, sm3 warp 11)");
    EXPECT_EQ(l.taken, 0u);
}

TEST(AtInitiatorPort, AnswerWithAChangedRequestIdIsRefused) {
    Link l;
    Payload& a = l.request(AccessKind::Read, 0x1f80, 42);
    l.port.send(a);
    gpuExt(a).requestId = 43;
    EXPECT_EQ(l.answerError(a), "l2.3->mem: answer changed the request id (sent as request 42): read 0x1f80 (request 43)");
}

TEST(AtInitiatorPort, SendingAnOutstandingRequestAgainIsRefused) {
    Link l;
    Payload& a = l.request(AccessKind::Read, 0x1f80, 42);
    l.port.send(a);
    try {
        l.port.send(a);
        FAIL() << "sent twice";
    } catch (const ModelError& e) {
        EXPECT_EQ(std::string(e.what()), "l2.3->mem: request sent again while it is still outstanding: read 0x1f80 (request 42)");
    }
}

// A target reached through its forward interface: accepts every request at once and counts them.
struct CountingTarget : tlm::tlm_fw_transport_if<> {
    unsigned requests = 0;
    tlm::tlm_sync_enum nb_transport_fw(Payload&, tlm::tlm_phase& ph, sc_core::sc_time&) override {
        ++requests;
        ph = tlm::END_REQ;
        return tlm::TLM_UPDATED;
    }
    void b_transport(Payload&, sc_core::sc_time&) override {}
    bool get_direct_mem_ptr(Payload&, tlm::tlm_dmi&) override { return false; }
    unsigned transport_dbg(Payload&) override { return 0; }
};

// A port bound to a socket asks for the peer's interface at its first transaction only (sockets
// are bound after the ports), then calls it directly; a socket bound to nothing is a ModelError
// naming the link.
TEST(AtInitiatorPort, BoundToASocketAsksForThePeerOnceAtTheFirstTransaction) {
    PayloadPool pool;
    CountingTarget target;
    unsigned asked = 0;
    AtInitiatorPort port;
    port.bind("sm3->noc", FwPeerFn([&]() -> tlm::tlm_fw_transport_if<>* {
                  ++asked;
                  return &target;
              }),
              [](Payload&) { return true; }, nullptr);
    EXPECT_EQ(asked, 0u);
    for (uint64_t id = 1; id <= 3; ++id) {
        Payload& p = pool.allocate();
        gpuExt(p).requestId = id;
        port.send(p);
        EXPECT_TRUE(port.canSend());
    }
    EXPECT_EQ(asked, 1u);
    EXPECT_EQ(target.requests, 3u);
    EXPECT_EQ(port.outstanding(), 3u);

    AtInitiatorPort loose;
    loose.bind("sm4->noc", FwPeerFn([]() -> tlm::tlm_fw_transport_if<>* { return nullptr; }),
               [](Payload&) { return true; }, nullptr);
    Payload& p = pool.allocate();
    try {
        loose.send(p);
        ADD_FAILURE() << "no error";
    } catch (const ModelError& e) {
        EXPECT_NE(std::string(e.what()).find("sm4->noc: the socket is bound to nothing"), std::string::npos)
            << e.what();
    }
}

// The pool hands a returned payload out again only after kReuseDistance others were returned,
// oldest first, so a late duplicate answer finds its payload free or on another link.
TEST(PayloadPool, ReusesAReturnedPayloadOnlyAfterKReuseDistanceOthers) {
    PayloadPool pool;
    const size_t k = PayloadPool::kReuseDistance;
    std::vector<Payload*> out;
    for (size_t i = 0; i < k + 2; ++i) out.push_back(&pool.allocate());
    Payload* first = out[0];
    first->release();
    EXPECT_NE(&pool.allocate(), first) << "a single free payload is not reused";
    for (size_t i = 1; i < k + 2; ++i) out[i]->release();
    // k + 2 free now (first, then out[1..k+1]); allocate takes the oldest, `first`.
    EXPECT_EQ(pool.created(), k + 3);
    EXPECT_EQ(&pool.allocate(), first);
    EXPECT_EQ(pool.created(), k + 3);
}

// findGpuExt reads a pool payload's extension in place and asks any other payload the usual
// way: both give the extension the payload carries, and a payload without one gives null.
TEST(PayloadPool, FindGpuExtGivesTheExtensionAPayloadCarries) {
    PayloadPool pool;
    Payload& pooled = pool.allocate();
    gpuExt(pooled).requestId = 7;
    GpuExtension* attached = nullptr;
    pooled.get_extension(attached);
    ASSERT_NE(attached, nullptr);
    EXPECT_EQ(findGpuExt(pooled), attached);
    EXPECT_EQ(findGpuExt(pooled)->requestId, 7u);
    pooled.release();

    // A user's payload: its own extension, or none.
    Payload user;
    EXPECT_EQ(findGpuExt(user), nullptr);
    EXPECT_THROW(gpuExt(user), std::logic_error);
    GpuExtension ext;
    ext.requestId = 9;
    user.set_extension(&ext);
    EXPECT_EQ(findGpuExt(user), &ext);
    EXPECT_EQ(gpuExt(user).requestId, 9u);
    user.clear_extension(&ext);
}

} // namespace at_ports_test
} // namespace gpusim
