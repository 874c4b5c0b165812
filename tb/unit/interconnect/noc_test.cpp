// The NoC through its TLM sockets (crossbar by default, butterfly and mesh at the end), one
// simulation per test case. Expected times are derived by hand from the rules in
// interconnect/Network.hpp and Router.hpp with the defaults (noc.router_cycles R = 3,
// noc.link_cycles L = 1, noc.buffer_flits 8, noc.input_queue_packets 8,
// noc.output_queue_packets 2 (x 5 flits = 10 per sink VC), 1 VC, noc.clock_mhz 1400: one NoC
// cycle is 714 ps after rounding to the kernel's 1 ps resolution):
//   a packet that enters its network interface at edge c0 may be injected from c0+1, one flit
//   per cycle; a flit injected at c leaves the router at c+R and reaches the sink at c+R+L; the
//   packet is delivered into the target socket when its tail arrives. Over H routers:
//   delivery = c0 + 1 + (F-1) + H*(R+L) = c0 + F + H*(R+L).
// The network's latency histogram counts from c0+1 (the first possible injection): F-1+H*(R+L).
#include <gtest/gtest.h>

#include "common/SimError.hpp"
#include "tb/unit/interconnect/NocTestHelpers.hpp"

namespace noc_test {

using namespace gpusim;
using namespace gpusim::test;
using sc_core::sc_time;

namespace {

constexpr unsigned kR = 3;             // noc.router_cycles default
constexpr unsigned kLink = 1;          // noc.link_cycles default
constexpr unsigned kL = kR + kLink;    // one hop
constexpr unsigned kQueue = 8;         // noc.input_queue_packets and noc.buffer_flits default
constexpr unsigned kSinkFlits = 10;    // noc.output_queue_packets (2) x largest packet (5)
constexpr unsigned kLineFlits = 5;     // 1 header + 128 B / 32 B
constexpr unsigned kService = 10;      // test memory answers 10 NoC cycles after arrival
constexpr double kStart = 10;          // first send, on a NoC edge

void expectAllDone(const NocBench& b) {
    EXPECT_TRUE(b.xbar->quiescent()) << b.xbar->dumpState();
    EXPECT_FALSE(b.xbar->busy());
    EXPECT_EQ(b.pool.outstanding(), 0u);
}

} // namespace

TEST(NocCrossbar, ZeroLoadReadRequestAndReplyLatency) {
    NocBench b(1, 1, kService);
    const uint64_t id = b.sms[0]->post(b.cyc(kStart), 0, AccessKind::Read);
    sc_core::sc_start();

    // Read request, F = 1: enters at edge 10, injected at 11, leaves the crossbar at 11 + 3,
    // reaches the partition at 15: 5 cycles = 5 * 714 ps = 3570 ps.
    const auto& arr = b.mems[0]->arrivals();
    ASSERT_EQ(arr.size(), 1u);
    EXPECT_EQ(arr[0].at - b.cyc(kStart), b.cyc(1 + kL));
    EXPECT_EQ(arr[0].at - b.cyc(kStart), sc_time(3570, sc_core::SC_PS));
    // The request was accepted at once (END_REQ with BEGIN_REQ: queue had room).
    EXPECT_EQ(b.sms[0]->request(id).endReq, b.cyc(kStart));

    // Reply, F = 5: memory answers at 15 + 10 = 25; flits injected 26..30, the tail leaves at
    // 33 and is delivered at 34: 9 cycles = 6426 ps after the answer.
    const Request& r = b.sms[0]->request(id);
    ASSERT_TRUE(r.answered);
    ASSERT_EQ(b.mems[0]->answerTimes().size(), 1u);
    EXPECT_EQ(b.mems[0]->answerTimes()[0], b.cyc(kStart + 1 + kL + kService));
    EXPECT_EQ(r.answer - b.mems[0]->answerTimes()[0], b.cyc(kLineFlits + kL));
    EXPECT_EQ(r.answer - b.mems[0]->answerTimes()[0], sc_time(6426, sc_core::SC_PS));

    EXPECT_EQ(b.stat("noc.req.packets"), 1);
    EXPECT_EQ(b.stat("noc.req.flits"), 1);
    EXPECT_EQ(b.stat("noc.reply.packets"), 1);
    EXPECT_EQ(b.stat("noc.reply.flits"), kLineFlits);
    EXPECT_EQ(b.stat("noc.req.eject0.flits"), 1);
    EXPECT_EQ(b.stat("noc.req.inject0.flits"), 1);
    EXPECT_EQ(b.stat("noc.reply.eject0.flits"), kLineFlits);
    // Network latency, from the first possible injection: F - 1 + R + L.
    EXPECT_DOUBLE_EQ(b.hist("noc.req.latency").mean(), 0 + kL);
    EXPECT_DOUBLE_EQ(b.hist("noc.reply.latency").mean(), kLineFlits - 1 + kL);
    EXPECT_DOUBLE_EQ(b.hist("noc.reply.latency").percentile(50), kLineFlits - 1 + kL);
    EXPECT_EQ(b.stat("noc.req.input_full_cycles"), 0);
    expectAllDone(b);
}

TEST(NocCrossbar, ZeroLoadWriteRequestAndAckLatency) {
    NocBench b(1, 1, kService);
    const uint64_t id = b.sms[0]->post(b.cyc(kStart), 0, AccessKind::Write, kLineBytes);
    sc_core::sc_start();
    // Write request carries 128 B: F = 5, delivered 5 + 4 = 9 cycles after entry. The ack is a
    // header flit: F = 1, 1 + 4 = 5 cycles.
    ASSERT_EQ(b.mems[0]->arrivals().size(), 1u);
    EXPECT_EQ(b.mems[0]->arrivals()[0].at, b.cyc(kStart + kLineFlits + kL));
    EXPECT_EQ(b.sms[0]->request(id).answer, b.cyc(kStart + kLineFlits + kL + kService + 1 + kL));
    EXPECT_EQ(b.stat("noc.req.flits"), kLineFlits);
    EXPECT_EQ(b.stat("noc.reply.flits"), 1);
    expectAllDone(b);
}

TEST(NocCrossbar, RoutesEverySmToEveryPartitionAndRepliesBack) {
    constexpr unsigned kSms = 4, kParts = 3;  // not square: a swapped index cannot pass
    NocBench b(kSms, kParts, kService);
    for (unsigned i = 0; i < kSms; ++i)
        for (unsigned j = 0; j < kParts; ++j)
            b.sms[i]->post(b.cyc(kStart + j), static_cast<int>(j),
                           (i + j) % 2 ? AccessKind::Write : AccessKind::Read, 4 * (i + 1));
    sc_core::sc_start();

    for (unsigned j = 0; j < kParts; ++j) {
        const auto& arr = b.mems[j]->arrivals();
        ASSERT_EQ(arr.size(), kSms) << "partition " << j;
        std::vector<bool> seen(kSms, false);
        for (const Arrival& a : arr) {
            EXPECT_EQ(a.partition, static_cast<int>(j));
            EXPECT_EQ(a.srcPort, a.smId) << "the NoC stamps the input port the request came in on";
            ASSERT_GE(a.smId, 0);
            EXPECT_FALSE(seen[a.smId]);
            seen[a.smId] = true;
            EXPECT_EQ(a.id / kIdsPerSm, static_cast<uint64_t>(a.smId));
        }
    }
    for (unsigned i = 0; i < kSms; ++i) {
        EXPECT_EQ(b.sms[i]->answers(), kParts);
        for (const auto& [id, r] : b.sms[i]->requests()) {
            EXPECT_TRUE(r.answered) << "request " << id;
            EXPECT_EQ(r.answerSmId, static_cast<int>(i));
            EXPECT_EQ(r.answerSrcPort, static_cast<int>(i));
        }
    }
    EXPECT_EQ(b.stat("noc.req.packets"), kSms * kParts);
    EXPECT_EQ(b.stat("noc.reply.packets"), kSms * kParts);
    expectAllDone(b);
}

TEST(NocCrossbar, RoundRobinAlternatesTwoInputsOnOneOutput) {
    constexpr unsigned kEach = 4;
    NocBench b(2, 1, kService);
    for (unsigned k = 0; k < kEach; ++k) {
        b.sms[0]->post(b.cyc(kStart), 0);
        b.sms[1]->post(b.cyc(kStart), 0);
    }
    sc_core::sc_start();
    // Both SMs fill their injection queues at edge 10 (END_REQ at once) and inject one flit per
    // cycle from 11, so both inputs have a ready head from 14 on. Output 0 grants one 1-flit
    // packet per cycle, input 0 first (nobody has won yet), then alternating (iSLIP pointers);
    // each reaches the partition L = 1 cycle after it left: at 15, 16, ..., 22 from SMs 0, 1, 0,
    // 1, ... (the FIFO keeps each SM's packets in order, and 4 flits per input never fill the
    // 8-flit buffers or the 10 sink credits, which come back as fast as packets are taken).
    const auto& arr = b.mems[0]->arrivals();
    ASSERT_EQ(arr.size(), 2 * kEach);
    for (unsigned n = 0; n < arr.size(); ++n) {
        EXPECT_EQ(arr[n].srcPort, static_cast<int>(n % 2)) << "arrival " << n;
        EXPECT_EQ(arr[n].at, b.cyc(kStart + 1 + n + kL)) << "arrival " << n;
    }
    EXPECT_EQ(b.stat("noc.req.eject0.flits"), 2 * kEach);
    expectAllDone(b);
}

TEST(NocCrossbar, RepliesToOneSmAreSerialisedByTheirFlits) {
    NocBench b(1, 2, kService);
    b.sms[0]->post(b.cyc(kStart), 0);
    b.sms[0]->post(b.cyc(kStart), 1);
    // The request to partition 0 is injected at 11 (arrives 15), the one to partition 1 at 12
    // (one flit per cycle from the SM's interface; arrives 16). With service 11 and 10 both
    // partitions answer at 26 and inject flits 27..31, ready in the router 30..34. The replies
    // contend for the one VC towards SM 0: partition 0 wins (flits leave 30..34, delivered at
    // 35); its tail frees the VC, and partition 1's flits, all ready, leave 35..39 (delivered
    // 40): serialised by the 5 flits of the first reply.
    b.mems[0]->setService(b.cyc(kService + 1));
    sc_core::sc_start();

    ASSERT_EQ(b.mems[0]->answerTimes().size(), 1u);
    ASSERT_EQ(b.mems[1]->answerTimes().size(), 1u);
    EXPECT_EQ(b.mems[0]->answerTimes()[0], b.cyc(26));
    EXPECT_EQ(b.mems[1]->answerTimes()[0], b.cyc(26));
    const auto& order = b.sms[0]->answerOrder();
    ASSERT_EQ(order.size(), 2u);
    const sc_time first = b.sms[0]->request(order[0]).answer;
    const sc_time second = b.sms[0]->request(order[1]).answer;
    EXPECT_EQ(b.sms[0]->request(order[0]).partition, 0);
    EXPECT_EQ(first, b.cyc(26 + 1 + kLineFlits - 1 + kL));
    EXPECT_EQ(second - first, b.cyc(kLineFlits));
    EXPECT_EQ(b.stat("noc.reply.eject0.flits"), 2 * kLineFlits);
    expectAllDone(b);
}

TEST(NocCrossbar, RequestBackPressureFillsSinkRouterAndInterfaceAndLosesNothing) {
    constexpr unsigned kRequests = 40;
    constexpr double kResume = 200;
    constexpr double kCheck = 100;  // long after the buffers filled, before the memory resumes
    NocBench b(1, 1, kService);
    b.mems[0]->stallUntil(b.cyc(kResume));
    std::vector<uint64_t> ids;
    for (unsigned k = 0; k < kRequests; ++k) ids.push_back(b.sms[0]->post(b.cyc(kStart), 0));

    sc_core::sc_start(b.cyc(kCheck));
    // Held where (1-flit reads): the first request sits in the memory's socket without
    // END_REQ; the next 10 fill the partition's reassembly buffer (its credits); 8 fill the
    // crossbar input buffer; 8 the SM's injection queue; one more is held in the NoC's socket
    // (END_REQ withheld from the SM). So the SM has sent 1 + 10 + 8 + 8 + 1.
    const unsigned held = 1 + kSinkFlits + kQueue + kQueue + 1;
    EXPECT_TRUE(b.mems[0]->port().hasHeldRequest());
    EXPECT_TRUE(b.mems[0]->arrivals().empty());
    EXPECT_EQ(b.xbar->requestNet().sourceOccupancy(0), kQueue);
    EXPECT_EQ(b.xbar->requestNet().router(0).buffered(), kQueue);
    EXPECT_EQ(b.xbar->requestNet().router(0).outputCredits(0, 0), 0u);
    EXPECT_EQ(b.xbar->requestNet().packetsInside(), kSinkFlits + kQueue + kQueue);
    EXPECT_EQ(b.sms[0]->port().sent(), held);
    EXPECT_FALSE(b.sms[0]->port().canSend());
    EXPECT_FALSE(b.sms[0]->request(ids[held - 1]).endReqSeen);
    EXPECT_TRUE(b.sms[0]->request(ids[held - 2]).endReqSeen);
    EXPECT_FALSE(b.xbar->quiescent());
    const std::string dump = b.xbar->dumpState();
    EXPECT_NE(dump.find("noc.req.src0 [8/8]"), std::string::npos) << dump;
    EXPECT_NE(dump.find("noc.req.xbar.in0.vc0 [8/8]"), std::string::npos) << dump;
    EXPECT_NE(dump.find("noc.req.sink0.vc0 [10/10]"), std::string::npos) << dump;
    EXPECT_NE(dump.find("END_REQ withheld"), std::string::npos) << dump;
    EXPECT_NE(dump.find("awaiting END_REQ"), std::string::npos) << dump;

    sc_core::sc_start();
    EXPECT_GT(b.sms[0]->request(ids[held - 1]).endReq, b.cyc(kResume));
    const auto& arr = b.mems[0]->arrivals();
    ASSERT_EQ(arr.size(), kRequests);
    for (unsigned k = 0; k < kRequests; ++k) EXPECT_EQ(arr[k].id, ids[k]) << "in order";
    EXPECT_EQ(arr[0].at, b.cyc(kResume));
    EXPECT_EQ(b.sms[0]->answers(), kRequests);
    EXPECT_GT(b.stat("noc.req.input_full_cycles"), 0);
    EXPECT_EQ(b.stat("noc.req.packets"), kRequests);
    expectAllDone(b);
}

TEST(NocCrossbar, ReplyBackPressureFillsSinkRouterAndInterfaceAndLosesNothing) {
    constexpr unsigned kRequests = 20;
    constexpr double kResume = 300;
    constexpr double kCheck = 250;
    NocBench b(1, 1, 1);
    b.sms[0]->refuseAnswersUntil(b.cyc(kResume));
    for (unsigned k = 0; k < kRequests; ++k) b.sms[0]->post(b.cyc(kStart), 0);

    sc_core::sc_start(b.cyc(kCheck));
    // Mirror image with 5-flit replies: the first is held by the SM (END_RESP withheld); the
    // SM's reassembly buffer holds 10 flits = 2 replies; the crossbar input buffer 8 flits = one
    // reply and 3 flits of the next, which still counts in the partition's injection queue of 8;
    // one more reply is held in the NoC's memory socket. The memory answered 1 + 2 + 1 + 8 + 1.
    const unsigned answered = 1 + kSinkFlits / kLineFlits + 1 + kQueue + 1;
    EXPECT_EQ(b.mems[0]->arrivals().size(), kRequests);
    EXPECT_EQ(b.mems[0]->answerTimes().size(), answered);
    EXPECT_FALSE(b.mems[0]->port().canRespond());
    EXPECT_TRUE(b.sms[0]->port().hasHeldResponse());
    EXPECT_EQ(b.xbar->replyNet().sourceOccupancy(0), kQueue);
    EXPECT_EQ(b.xbar->replyNet().router(0).buffered(), kQueue);
    EXPECT_EQ(b.sms[0]->answers(), 0u);
    const std::string dump = b.xbar->dumpState();
    EXPECT_NE(dump.find("END_RESP withheld"), std::string::npos) << dump;
    EXPECT_NE(dump.find("injecting"), std::string::npos) << dump;

    sc_core::sc_start();
    EXPECT_EQ(b.sms[0]->answers(), kRequests);
    const auto& order = b.sms[0]->answerOrder();
    for (unsigned k = 1; k < order.size(); ++k) EXPECT_LT(order[k - 1], order[k]) << "in order";
    EXPECT_GT(b.stat("noc.reply.input_full_cycles"), 0);
    expectAllDone(b);
}

TEST(NocCrossbar, BadPartitionIsAModelError) {
    NocBench b(1, 2, kService);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);  // elaborate
    for (int bad : {2, -1}) {
        Payload& p = b.pool.allocate();
        gpuExt(p).partition = bad;
        gpuExt(p).requestId = 7;
        tlm::tlm_phase ph = tlm::BEGIN_REQ;
        sc_time t = sc_core::SC_ZERO_TIME;
        // Called directly (not from a process) so the exception type reaches the test intact.
        EXPECT_THROW(b.sms[0]->socket->nb_transport_fw(p, ph, t), ModelError) << bad;
        p.release();
    }
    EXPECT_TRUE(b.xbar->quiescent());
}

TEST(NocCrossbar, WrongClockDomainIsRejected) {
    ParamSchema s = nocSchema();
    Config cfg(s);
    StatRegistry stats;
    ClockDomain clock("core_clock", sc_time(1, sc_core::SC_NS));  // not 1400 MHz
    EXPECT_THROW(Noc("noc", NocParams::from(cfg), stats, clock, 1, 1), std::logic_error);
}

TEST(NocCrossbar, BadPartitionInsideTheSimulationStopsIt) {
    NocBench b(1, 2, kService);
    b.sms[0]->post(b.cyc(kStart), 5);
    // SystemC turns an exception escaping a process into an sc_report; the message survives.
    try {
        sc_core::sc_start();
        FAIL() << "no error";
    } catch (const sc_core::sc_report& e) {
        EXPECT_NE(std::string(e.what()).find("partition 5"), std::string::npos) << e.what();
    }
}

TEST(NocCrossbar, TargetCompletingAtBeginReqOvershootsTheReplyQueueByOneAtMost) {
    constexpr unsigned kRequests = 20;
    constexpr double kResume = 200;
    NocBench b(1, 1, kService, {}, false);
    CompletingMem mem("mem0");
    b.xbar->memSide.bind(mem.socket);
    b.sms[0]->refuseAnswersUntil(b.cyc(kResume));
    for (unsigned k = 0; k < kRequests; ++k) b.sms[0]->post(b.cyc(kStart), 0);

    sc_core::sc_start(b.cyc(kResume - 1));
    // The SM holds one answer, its reassembly buffer 2, the crossbar input buffer one (and 3
    // flits of the next); the partition's injection queue took its 8 plus the one answer that
    // came back inside BEGIN_REQ, and no request was sent after that.
    EXPECT_EQ(b.xbar->replyNet().sourceOccupancy(0), kQueue + 1);
    EXPECT_EQ(mem.completed(), 1 + kSinkFlits / kLineFlits + 1 + kQueue + 1);

    sc_core::sc_start();
    EXPECT_EQ(mem.completed(), kRequests);
    EXPECT_EQ(b.sms[0]->answers(), kRequests);
    expectAllDone(b);
}

TEST(NocCrossbar, ZeroLoadWithATargetCompletingAtBeginReq) {
    NocBench b(1, 1, kService, {}, false);
    CompletingMem mem("mem0");
    b.xbar->memSide.bind(mem.socket);
    const uint64_t id = b.sms[0]->post(b.cyc(kStart), 0);
    sc_core::sc_start();
    // Request delivered at 10 + 1 + 4 = 15 and answered at once; the 5-flit reply enters at
    // 15 and is delivered 5 + R + L = 9 cycles later.
    EXPECT_EQ(b.sms[0]->request(id).answer, b.cyc(kStart + 1 + kL + kLineFlits + kL));
    expectAllDone(b);
}

TEST(NocCrossbar, DebugTransportIsRoutedByPartition) {
    NocBench b(2, 3, kService);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    Payload& p = b.pool.allocate();
    gpuExt(p).partition = 2;
    EXPECT_EQ(b.sms[1]->socket->transport_dbg(p), kLineBytes);
    EXPECT_EQ(b.mems[2]->debugAccesses(), 1u);
    EXPECT_EQ(b.mems[0]->debugAccesses() + b.mems[1]->debugAccesses(), 0u);
    gpuExt(p).partition = 3;  // no such partition: nothing transferred
    EXPECT_EQ(b.sms[1]->socket->transport_dbg(p), 0u);
    p.release();
    EXPECT_TRUE(b.xbar->quiescent());
}

// ---- SM clusters: two SMs share one injection port and one ejection port.

TEST(NocClusters, TwoSmsShareOneInjectionPort) {
    NocBench b(2, 2, kService, {"noc.sms_per_cluster=2"});
    ASSERT_EQ(b.xbar->clusters(), 1u);
    const uint64_t a = b.sms[0]->post(b.cyc(kStart), 0);
    const uint64_t c = b.sms[1]->post(b.cyc(kStart), 1);
    sc_core::sc_start();
    // Both enter the one interface queue at edge 10 (SM 0's call first: it was posted first
    // and both threads run at time 10 in creation order); one flit per cycle goes in, at 11 and
    // 12, so they reach partitions 0 and 1 at 15 and 16, though the outputs differ (with a port
    // each both would arrive at 15).
    ASSERT_EQ(b.mems[0]->arrivals().size(), 1u);
    ASSERT_EQ(b.mems[1]->arrivals().size(), 1u);
    EXPECT_EQ(b.mems[0]->arrivals()[0].at, b.cyc(kStart + 1 + kL));
    EXPECT_EQ(b.mems[1]->arrivals()[0].at, b.cyc(kStart + 2 + kL));
    EXPECT_EQ(b.mems[1]->arrivals()[0].srcPort, 1) << "srcPort names the SM, not the cluster";
    // Replies share the cluster's ejection port and still reach their own SM.
    EXPECT_TRUE(b.sms[0]->request(a).answered);
    EXPECT_TRUE(b.sms[1]->request(c).answered);
    EXPECT_EQ(b.sms[0]->answers(), 1u);
    EXPECT_EQ(b.sms[1]->answers(), 1u);
    EXPECT_EQ(b.stat("noc.reply.eject0.flits"), 2 * kLineFlits);
    expectAllDone(b);
}

TEST(NocClusters, HeldRequestsOfAClusterRetryRoundRobin) {
    constexpr unsigned kEach = 6;
    NocBench b(2, 1, kService, {"noc.sms_per_cluster=2", "noc.input_queue_packets=1"});
    for (unsigned k = 0; k < kEach; ++k) {
        b.sms[0]->post(b.cyc(kStart), 0);
        b.sms[1]->post(b.cyc(kStart), 0);
    }
    sc_core::sc_start();
    // A one-packet queue: SM 0's first request takes it at 10; SM 1's first and SM 0's second
    // are held. Each freed slot (one per cycle: 1-flit packets) goes to the next held SM after
    // the last one served, starting with SM 0: arrivals from SMs 0, then 0, 1, 0, 1, ... (SM 0
    // at odd positions), and after SM 0's sixth (position 10) the last from SM 1.
    const auto& arr = b.mems[0]->arrivals();
    ASSERT_EQ(arr.size(), 2 * kEach);
    EXPECT_EQ(arr[0].srcPort, 0);
    for (unsigned n = 1; n + 1 < arr.size(); ++n) EXPECT_EQ(arr[n].srcPort, static_cast<int>((n + 1) % 2)) << n;
    EXPECT_EQ(arr.back().srcPort, 1);
    EXPECT_GT(b.stat("noc.req.input_full_cycles"), 0);
    expectAllDone(b);
}

// The round-robin pointer can move past a held SM within one retry: three SMs in a cluster with
// a one-packet queue each post one request at 10. SM 0's is taken; SM 1's and SM 2's are held.
// When SM 0's packet is in, the retry takes SM 1's and moves the pointer past it to SM 2, then
// wraps to SM 1 (nothing held) and ends with SM 2 still held. Nothing else is sent, so only the
// next packet's end (SM 1's) can offer SM 2's request again: the network calls back only for a
// source the NoC asked for (Network::notifyWhenFreed), and the NoC asks again while any SM of
// the cluster is held. The three arrive one cycle apart.
TEST(NocClusters, AHeldRequestThePointerSkippedIsRetriedAtTheNextPacket) {
    NocBench b(3, 1, kService, {"noc.sms_per_cluster=3", "noc.input_queue_packets=1"});
    for (unsigned s = 0; s < 3; ++s) b.sms[s]->post(b.cyc(kStart), 0);
    sc_core::sc_start();
    const auto& arr = b.mems[0]->arrivals();
    ASSERT_EQ(arr.size(), 3u) << "a held request was never retried";
    for (unsigned n = 0; n < 3; ++n) {
        EXPECT_EQ(arr[n].srcPort, static_cast<int>(n)) << n;
        EXPECT_EQ(arr[n].at, b.cyc(kStart + 1 + n + kL)) << n;
    }
    expectAllDone(b);
}

// ---- The other topologies behind the same sockets.

TEST(NocButterfly, ZeroLoadOverTwoStages) {
    // 4 SMs and 2 partitions on a 2-ary 2-fly (the fewest stages with 2^n >= 4): H = 2.
    NocBench b(4, 2, kService, {"noc.topology=butterfly", "noc.butterfly.radix=2"});
    EXPECT_EQ(b.xbar->requestNet().topology().routers().size(), 4u);
    const uint64_t id = b.sms[3]->post(b.cyc(kStart), 1);
    sc_core::sc_start();
    // Read request: 10 + F + H(R + L) = 10 + 1 + 8 = 19; reply answered at 29, delivered at
    // 29 + 5 + 8 = 42.
    ASSERT_EQ(b.mems[1]->arrivals().size(), 1u);
    EXPECT_EQ(b.mems[1]->arrivals()[0].at, b.cyc(kStart + 1 + 2 * kL));
    EXPECT_EQ(b.sms[3]->request(id).answer, b.cyc(kStart + 1 + 2 * kL + kService + kLineFlits + 2 * kL));
    EXPECT_DOUBLE_EQ(b.hist("noc.req.latency").mean(), 2 * kL);
    expectAllDone(b);
}

TEST(NocMesh, ZeroLoadFollowsXyHops) {
    // 2x2 mesh, automatic placement: partitions at floor((2j+1) * 4 / 4) = nodes 1 and 3, SMs
    // on the remaining nodes 0 and 2. SM 0 (node 0) -> partition 0 (node 1): 2 routers;
    // SM 0 -> partition 1 (node 3, one east and one south): 3 routers.
    NocBench b(2, 2, kService, {"noc.topology=mesh"});
    const uint64_t near = b.sms[0]->post(b.cyc(kStart), 0);
    const uint64_t far = b.sms[0]->post(b.cyc(kStart + 20), 1);
    sc_core::sc_start();
    ASSERT_EQ(b.mems[0]->arrivals().size(), 1u);
    ASSERT_EQ(b.mems[1]->arrivals().size(), 1u);
    EXPECT_EQ(b.mems[0]->arrivals()[0].at, b.cyc(kStart + 1 + 2 * kL));
    EXPECT_EQ(b.mems[1]->arrivals()[0].at, b.cyc(kStart + 20 + 1 + 3 * kL));
    EXPECT_EQ(b.sms[0]->request(near).answer, b.cyc(kStart + 1 + 2 * kL + kService + kLineFlits + 2 * kL));
    EXPECT_EQ(b.sms[0]->request(far).answer, b.cyc(kStart + 20 + 1 + 3 * kL + kService + kLineFlits + 3 * kL));
    // The request from node 0 to node 3 went east then south: n0.east and n1.south carried it.
    EXPECT_EQ(b.stat("noc.req.link.n0.east.flits"), 2);
    EXPECT_EQ(b.stat("noc.req.link.n1.south.flits"), 1);
    EXPECT_EQ(b.stat("noc.req.link.n0.south.flits"), 0);
    expectAllDone(b);
}

TEST(NocMesh, TooSmallAMeshIsAnInputError) {
    ParamSchema s = nocSchema();
    Config cfg(s);
    cfg.setFromString("noc.topology=mesh");
    cfg.setFromString("noc.mesh.rows=2");
    cfg.setFromString("noc.mesh.cols=2");
    cfg.validate();
    StatRegistry stats;
    ClockDomain clock("noc_clock", NocParams::from(cfg).period());
    try {
        Noc noc("noc", NocParams::from(cfg), stats, clock, 4, 2);
        FAIL() << "6 terminals on 4 nodes";
    } catch (const InputError& e) {
        EXPECT_NE(std::string(e.what()).find("noc.mesh.rows"), std::string::npos) << e.what();
    }
}

} // namespace noc_test
