// The crossbar through its TLM sockets, one simulation per test case. Expected times are
// derived by hand from the rule in interconnect/CrossbarSubnet.hpp with the defaults
// (noc.latency_cycles L = 4, noc.flit_bytes 32, queues of 8, noc.clock_mhz 1400, so one NoC
// cycle is 714 ps after rounding to the kernel's 1 ps resolution):
//   a packet entering an input queue at edge c0 may be granted from c0+1; granted at c it
//   crosses during c .. c+F-1 and is delivered into the target socket at c+F-1+L.
// Zero load: latency = 1 + (F-1) + L = F + L cycles.
#include <gtest/gtest.h>

#include "common/SimError.hpp"
#include "tb/unit/interconnect/NocTestHelpers.hpp"

using namespace gpusim;
using namespace gpusim::test;
using sc_core::sc_time;

namespace {

constexpr unsigned kL = 4;             // noc.latency_cycles default
constexpr unsigned kQueue = 8;         // noc.input_queue_packets / output_queue_packets default
constexpr unsigned kLineFlits = 5;     // 1 header + 128 B / 32 B
constexpr unsigned kService = 10;      // test memory answers 10 NoC cycles after arrival
constexpr double kStart = 10;          // first send, on a NoC edge

void expectAllDone(const NocBench& b) {
    EXPECT_TRUE(b.xbar->quiescent()) << b.xbar->dumpState();
    EXPECT_FALSE(b.xbar->busy());
    EXPECT_EQ(b.pool.outstanding(), 0u);
}

} // namespace

TEST(Crossbar, ZeroLoadReadRequestAndReplyLatency) {
    NocBench b(1, 1, kService);
    const uint64_t id = b.sms[0]->post(b.cyc(kStart), 0, AccessKind::Read);
    sc_core::sc_start();

    // Read request, F = 1: enters at edge 10, granted at 11, last flit 11, delivered at
    // 11 + 4 = 15: 5 cycles = 5 * 714 ps = 3570 ps.
    const auto& arr = b.mems[0]->arrivals();
    ASSERT_EQ(arr.size(), 1u);
    EXPECT_EQ(arr[0].at - b.cyc(kStart), b.cyc(1 + kL));
    EXPECT_EQ(arr[0].at - b.cyc(kStart), sc_time(3570, sc_core::SC_PS));
    // The request was accepted at once (END_REQ with BEGIN_REQ: queue had room).
    EXPECT_EQ(b.sms[0]->request(id).endReq, b.cyc(kStart));

    // Reply, F = 5: memory answers at 15 + 10 = 25; granted 26, flits 26..30, delivered at
    // 30 + 4 = 34: 9 cycles = 6426 ps after the answer.
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
    EXPECT_EQ(b.stat("noc.req.out0.busy_cycles"), 1);
    EXPECT_EQ(b.stat("noc.reply.out0.busy_cycles"), kLineFlits);
    EXPECT_DOUBLE_EQ(b.hist("noc.req.latency").mean(), 1 + kL);
    EXPECT_DOUBLE_EQ(b.hist("noc.reply.latency").mean(), kLineFlits + kL);
    EXPECT_DOUBLE_EQ(b.hist("noc.reply.latency").percentile(50), kLineFlits + kL);
    EXPECT_EQ(b.stat("noc.req.input_full_cycles"), 0);
    expectAllDone(b);
}

TEST(Crossbar, ZeroLoadWriteRequestAndAckLatency) {
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

TEST(Crossbar, RoutesEverySmToEveryPartitionAndRepliesBack) {
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

TEST(Crossbar, RoundRobinAlternatesTwoInputsOnOneOutput) {
    constexpr unsigned kEach = 4;
    NocBench b(2, 1, kService);
    for (unsigned k = 0; k < kEach; ++k) {
        b.sms[0]->post(b.cyc(kStart), 0);
        b.sms[1]->post(b.cyc(kStart), 0);
    }
    sc_core::sc_start();
    // Both SMs fill their input queues at edge 10 (END_REQ at once). From cycle 11 output 0
    // grants one 1-flit packet per cycle, input 0 first (nobody has won yet), then alternating;
    // each arrives L cycles after its grant: at 15, 16, ..., 22 from SMs 0, 1, 0, 1, ...
    const auto& arr = b.mems[0]->arrivals();
    ASSERT_EQ(arr.size(), 2 * kEach);
    for (unsigned n = 0; n < arr.size(); ++n) {
        EXPECT_EQ(arr[n].srcPort, static_cast<int>(n % 2)) << "arrival " << n;
        EXPECT_EQ(arr[n].at, b.cyc(kStart + 1 + n + kL)) << "arrival " << n;
    }
    EXPECT_EQ(b.stat("noc.req.out0.busy_cycles"), 2 * kEach);
    expectAllDone(b);
}

TEST(Crossbar, RepliesToOneSmAreSerialisedByTheirFlits) {
    NocBench b(1, 2, kService);
    b.sms[0]->post(b.cyc(kStart), 0);
    b.sms[0]->post(b.cyc(kStart), 1);
    // Request to partition 0 is granted at 11 (arrives 15), the one to partition 1 waits for
    // input 0 and is granted at 12 (arrives 16). With service 11 and 10 both partitions answer
    // at 26; the replies contend for output SM 0: partition 0 wins at 27 (flits 27..31,
    // delivered 35), partition 1 is granted when the channel frees at 32 (delivered 40).
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
    EXPECT_EQ(b.stat("noc.reply.out0.busy_cycles"), 2 * kLineFlits);
    expectAllDone(b);
}

TEST(Crossbar, RequestBackPressureFillsOutputThenInputQueueAndLosesNothing) {
    constexpr unsigned kRequests = 20;
    constexpr double kResume = 200;
    constexpr double kCheck = 100;  // long after the queues filled, before the memory resumes
    NocBench b(1, 1, kService);
    b.mems[0]->stallUntil(b.cyc(kResume));
    std::vector<uint64_t> ids;
    for (unsigned k = 0; k < kRequests; ++k) ids.push_back(b.sms[0]->post(b.cyc(kStart), 0));

    sc_core::sc_start(b.cyc(kCheck));
    // Held where: the first request sits in the memory's socket without END_REQ; the next 8
    // fill output 0 of the request subnet, the next 8 the SM's input queue; one more is held
    // in the crossbar's socket (END_REQ withheld from the SM), so the SM has sent 1+8+8+1.
    const unsigned held = 1 + kQueue + kQueue + 1;
    EXPECT_TRUE(b.mems[0]->port().hasHeldRequest());
    EXPECT_TRUE(b.mems[0]->arrivals().empty());
    EXPECT_EQ(b.xbar->requestNet().outputOccupancy(0), kQueue);
    EXPECT_EQ(b.xbar->requestNet().inputOccupancy(0), kQueue);
    EXPECT_EQ(b.sms[0]->port().sent(), held);
    EXPECT_FALSE(b.sms[0]->port().canSend());
    EXPECT_FALSE(b.sms[0]->request(ids[held - 1]).endReqSeen);
    EXPECT_TRUE(b.sms[0]->request(ids[held - 2]).endReqSeen);
    EXPECT_FALSE(b.xbar->quiescent());
    const std::string dump = b.xbar->dumpState();
    EXPECT_NE(dump.find("noc.req.in0 [8/8]"), std::string::npos) << dump;
    EXPECT_NE(dump.find("noc.req.out0 [8/8]"), std::string::npos) << dump;
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

TEST(Crossbar, ReplyBackPressureFillsOutputThenInputQueueAndLosesNothing) {
    constexpr unsigned kRequests = 20;
    constexpr double kResume = 300;
    constexpr double kCheck = 250;
    NocBench b(1, 1, 1);
    b.sms[0]->refuseAnswersUntil(b.cyc(kResume));
    for (unsigned k = 0; k < kRequests; ++k) b.sms[0]->post(b.cyc(kStart), 0);

    sc_core::sc_start(b.cyc(kCheck));
    // Mirror image: the first reply is held by the SM (END_RESP withheld); 8 fill reply output
    // 0, 8 the partition's reply input queue, and one more is held in the crossbar's memory
    // socket, so the memory has answered 1+8+8+1 and waits for END_RESP.
    const unsigned answered = 1 + kQueue + kQueue + 1;
    EXPECT_EQ(b.mems[0]->arrivals().size(), kRequests);
    EXPECT_EQ(b.mems[0]->answerTimes().size(), answered);
    EXPECT_FALSE(b.mems[0]->port().canRespond());
    EXPECT_TRUE(b.sms[0]->port().hasHeldResponse());
    EXPECT_EQ(b.xbar->replyNet().outputOccupancy(0), kQueue);
    EXPECT_EQ(b.xbar->replyNet().inputOccupancy(0), kQueue);
    EXPECT_EQ(b.sms[0]->answers(), 0u);
    EXPECT_NE(b.xbar->dumpState().find("END_RESP withheld"), std::string::npos);

    sc_core::sc_start();
    EXPECT_EQ(b.sms[0]->answers(), kRequests);
    const auto& order = b.sms[0]->answerOrder();
    for (unsigned k = 1; k < order.size(); ++k) EXPECT_LT(order[k - 1], order[k]) << "in order";
    EXPECT_GT(b.stat("noc.reply.input_full_cycles"), 0);
    expectAllDone(b);
}

TEST(Crossbar, BadPartitionIsAModelError) {
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

TEST(Crossbar, WrongClockDomainIsRejected) {
    ParamSchema s = nocSchema();
    Config cfg(s);
    StatRegistry stats;
    ClockDomain clock("core_clock", sc_time(1, sc_core::SC_NS));  // not 1400 MHz
    EXPECT_THROW(Crossbar("noc", cfg, stats, clock, 1, 1), std::logic_error);
}

TEST(Crossbar, BadPartitionInsideTheSimulationStopsIt) {
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

TEST(Crossbar, TargetCompletingAtBeginReqOvershootsTheReplyQueueByOneAtMost) {
    constexpr unsigned kRequests = 20;
    constexpr double kResume = 200;
    NocBench b(1, 1, kService, {}, false);
    CompletingMem mem("mem0");
    b.xbar->memSide.bind(mem.socket);
    b.sms[0]->refuseAnswersUntil(b.cyc(kResume));
    for (unsigned k = 0; k < kRequests; ++k) b.sms[0]->post(b.cyc(kStart), 0);

    sc_core::sc_start(b.cyc(kResume - 1));
    // The SM holds one answer, reply output 0 holds 8; the reply input queue took its 8 plus
    // the one answer that came back inside BEGIN_REQ, and no request was sent after that.
    EXPECT_EQ(b.xbar->replyNet().outputOccupancy(0), kQueue);
    EXPECT_EQ(b.xbar->replyNet().inputOccupancy(0), kQueue + 1);
    EXPECT_EQ(mem.completed(), 1 + kQueue + kQueue + 1);

    sc_core::sc_start();
    EXPECT_EQ(mem.completed(), kRequests);
    EXPECT_EQ(b.sms[0]->answers(), kRequests);
    expectAllDone(b);
}

TEST(Crossbar, ZeroLoadWithATargetCompletingAtBeginReq) {
    NocBench b(1, 1, kService, {}, false);
    CompletingMem mem("mem0");
    b.xbar->memSide.bind(mem.socket);
    const uint64_t id = b.sms[0]->post(b.cyc(kStart), 0);
    sc_core::sc_start();
    // Request delivered at 10 + 1 + 4 = 15 and answered at once; the 5-flit reply enters at
    // 15 and is delivered 5 + 4 cycles later.
    EXPECT_EQ(b.sms[0]->request(id).answer, b.cyc(kStart + 1 + kL + kLineFlits + kL));
    expectAllDone(b);
}

TEST(Crossbar, DebugTransportIsRoutedByPartition) {
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
