#pragma once
// Shared by the memory unit tests: the parameter schema of the memory folder, a scripted AT
// initiator standing in for the NoC, and a bench wiring initiator -> L2 slice -> ideal memory.
// One simulation per test (each gtest case runs in its own process, DESIGN.md section 2).
#include <cmath>
#include <cstdint>
#include <deque>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/AddressMap.hpp"
#include "common/AtPorts.hpp"
#include "common/ClockDomain.hpp"
#include "common/Config.hpp"
#include "common/GpuExtension.hpp"
#include "common/PayloadPool.hpp"
#include "common/Stats.hpp"
#include "memory/DramConfig.hpp"
#include "memory/IdealMemory.hpp"
#include "memory/L2Slice.hpp"

namespace gpusim::test {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

// A clock period in ps from MHz, rounded to the 1 ps resolution (700 MHz -> 1429 ps,
// 924 MHz -> 1082 ps).
inline sc_core::sc_time periodOfMhz(double mhz) {
    return sc_core::sc_time(std::round(1e6 / mhz), sc_core::SC_PS);
}

inline sc_core::sc_time ps(uint64_t v) { return sc_core::sc_time(double(v), sc_core::SC_PS); }

// Everything the memory folder declares, plus the address map it depends on.
struct MemoryConfig {
    ParamSchema schema;
    std::unique_ptr<Config> cfg;
    MemoryConfig() {
        AddressMapParams::declare(schema);
        L2SliceParams::declare(schema);
        IdealMemoryParams::declare(schema);
        DramConfig::declare(schema);
        cfg = std::make_unique<Config>(schema);
    }
    MemoryConfig(const MemoryConfig&) = delete;  // cfg refers to schema
    MemoryConfig& operator=(const MemoryConfig&) = delete;
    MemoryConfig& set(const std::string& key, const nlohmann::json& v) {
        cfg->set(key, v, "test");
        return *this;
    }
};

// Sends a script of requests in order, one BEGIN_REQ at a time (the next only after END_REQ),
// and records when each was sent, accepted and answered. Responses are taken at once, except
// that until `holdResponsesUntilPs` they are refused (held by the port, END_RESP withheld).
class TestInitiator : public sc_core::sc_module {
public:
    struct Op {
        uint64_t addr;
        AccessKind kind;
        uint64_t notBeforePs;  // earliest send time
        bool serial;           // also wait until every earlier request is answered
        uint32_t atomicLanes = 0;  // non-zero: a global atomic of that many 4-byte lanes (Read: ATOM, Write: RED)
    };
    struct Record {
        uint64_t sentPs = kNever;
        uint64_t endReqPs = kNever;
        uint64_t answeredPs = kNever;
        bool l2Hit = false;
        tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    };

    tlm_utils::simple_initiator_socket<TestInitiator> socket;
    std::vector<Op> ops;
    std::vector<Record> records;
    uint64_t holdResponsesUntilPs = 0;
    uint32_t storeBytes = 32;  // ext.bytes of a write
    uint32_t storeChunks = 0;  // ext.chunks of a write (0: not known)

    TestInitiator(sc_core::sc_module_name name, PayloadPool& pool) : sc_module(name), socket("socket"), pool_(pool) {
        SC_HAS_PROCESS(TestInitiator);
        SC_THREAD(run);
        SC_THREAD(releaseHeld);
        socket.register_nb_transport_bw(this, &TestInitiator::bw);
        port_.bind("test->l2", [this](Payload& p, tlm::tlm_phase& ph,
                          sc_core::sc_time& t) { return socket->nb_transport_fw(p, ph, t); },
                   [this](Payload& p) { return take(p); },
                   [this] {
                       records.at(openIndex_).endReqPs = now();
                       endReq_.notify(sc_core::SC_ZERO_TIME);
                   });
    }

    void read(uint64_t addr, uint64_t notBeforePs = 0, bool serial = false) {
        add({addr, AccessKind::Read, notBeforePs, serial});
    }
    void write(uint64_t addr, uint64_t notBeforePs = 0, bool serial = false) {
        add({addr, AccessKind::Write, notBeforePs, serial});
    }
    // A global atomic updating `lanes` 4-byte words from `addr` (kind Read: ATOM, Write: RED).
    void atomic(uint64_t addr, AccessKind kind, uint32_t lanes, uint64_t notBeforePs = 0, bool serial = false) {
        add({addr, kind, notBeforePs, serial, lanes});
    }
    void add(const Op& op) {
        ops.push_back(op);
        records.emplace_back();
    }
    size_t answered() const { return answered_; }

private:
    static uint64_t now() { return sc_core::sc_time_stamp().value(); }

    void run() {
        for (size_t i = 0; i < ops.size(); ++i) {
            const Op& op = ops[i];
            if (now() < op.notBeforePs) wait(ps(op.notBeforePs - now()));
            while (op.serial && answered_ < i) wait(answer_);
            while (!port_.canSend()) wait(endReq_);
            Payload& p = pool_.allocate();
            p.set_command(op.kind == AccessKind::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
            p.set_address(op.addr);
            GpuExtension& e = gpuExt(p);
            e.requestId = i;
            e.smId = 0;
            e.kind = op.kind;
            e.bytes = op.kind == AccessKind::Read ? 0 : storeBytes;
            e.chunks = op.kind == AccessKind::Read ? 0 : storeChunks;
            if (op.atomicLanes) {
                e.atomic = true;
                e.atomicLanes = op.atomicLanes;
                e.bytes = 4 * op.atomicLanes;
                e.chunks = 0;
            }
            e.issueTime = now();
            records[i].sentPs = now();
            openIndex_ = i;
            port_.send(p);
            if (port_.canSend() && records[i].endReqPs == kNever) records[i].endReqPs = now();
        }
    }

    void releaseHeld() {
        if (holdResponsesUntilPs == 0) return;
        wait(ps(holdResponsesUntilPs));
        // The port sends END_RESP after take() accepted the answer: release it only then.
        retrying_ = true;
        port_.retryHeldResponse();
        retrying_ = false;
        if (retried_) retried_->release();
        retried_ = nullptr;
    }

    bool take(Payload& p) {
        if (now() < holdResponsesUntilPs) return false;
        Record& r = records.at(gpuExt(p).requestId);
        r.answeredPs = now();
        r.l2Hit = gpuExt(p).l2Hit;
        r.status = p.get_response_status();
        ++answered_;
        if (retrying_)
            retried_ = &p;
        else
            p.release();
        answer_.notify(sc_core::SC_ZERO_TIME);
        return true;
    }

    tlm::tlm_sync_enum bw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
        return port_.nbTransportBw(p, ph, t);
    }

    PayloadPool& pool_;
    AtInitiatorPort port_;
    sc_core::sc_event endReq_, answer_;
    size_t openIndex_ = 0;
    size_t answered_ = 0;
    bool retrying_ = false;
    Payload* retried_ = nullptr;
};

// A memory stand-in with back-pressure: requests arriving in [holdFromPs, holdUntilPs) are
// refused (END_REQ withheld) until holdUntilPs; every accepted request is answered latencyPs
// after its acceptance, in order. Records what it saw.
class TestTarget : public sc_core::sc_module {
public:
    struct Seen {
        uint64_t addr;
        AccessKind kind;
        uint64_t requestId;
        int smId;
        uint64_t acceptedPs;
    };
    tlm_utils::simple_target_socket<TestTarget> socket;
    uint64_t holdFromPs = kNever;
    uint64_t holdUntilPs = 0;
    uint64_t latencyPs = 1000;
    std::vector<Seen> seen;

    explicit TestTarget(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
        SC_HAS_PROCESS(TestTarget);
        SC_THREAD(releaseHeld);
        SC_THREAD(respond);
        socket.register_nb_transport_fw(this, &TestTarget::fw);
        port_.bind("l2->test", [this](Payload& p, tlm::tlm_phase& ph,
                          sc_core::sc_time& t) { return socket->nb_transport_bw(p, ph, t); },
                   [this](Payload& p) { return take(p); },
                   [this] { endResp_.notify(sc_core::SC_ZERO_TIME); });
    }
    bool idle() const { return queue_.empty() && port_.canRespond() && !port_.hasHeldRequest(); }

private:
    static uint64_t now() { return sc_core::sc_time_stamp().value(); }
    bool take(Payload& p) {
        if (now() >= holdFromPs && now() < holdUntilPs) return false;
        const GpuExtension& e = gpuExt(p);
        seen.push_back({p.get_address(), e.kind, e.requestId, e.smId, now()});
        queue_.push_back({&p, now() + latencyPs});
        arrival_.notify(sc_core::SC_ZERO_TIME);
        return true;
    }
    void releaseHeld() {
        if (holdUntilPs == 0) return;
        wait(ps(holdUntilPs));
        port_.retryHeldRequest();
    }
    void respond() {
        for (;;) {
            while (queue_.empty()) wait(arrival_);
            if (now() < queue_.front().duePs) wait(ps(queue_.front().duePs - now()));
            while (!port_.canRespond()) wait(endResp_);
            Payload* p = queue_.front().payload;
            queue_.pop_front();
            p->set_response_status(tlm::TLM_OK_RESPONSE);
            port_.respond(*p);
        }
    }
    tlm::tlm_sync_enum fw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
        return port_.nbTransportFw(p, ph, t);
    }
    struct Due {
        Payload* payload;
        uint64_t duePs;
    };
    AtTargetPort port_;
    std::deque<Due> queue_;
    sc_core::sc_event arrival_, endResp_;
};

// The parameters of an L2Bench's units, built directly (no Config); the member defaults are the
// schema's defaults.
struct L2BenchParams {
    AddressMapParams map;
    L2SliceParams l2;
    IdealMemoryParams mem;
};

// Initiator -> L2 slice `index` -> ideal memory, each in its own clock domain.
struct L2Bench {
    StatRegistry stats;
    PayloadPool pool;
    AddressMap map;
    ClockDomain l2Clock;
    ClockDomain dramClock;
    L2Slice l2;
    IdealMemory mem;
    TestInitiator init;

    L2Bench(const L2BenchParams& p, sc_core::sc_time l2Period, sc_core::sc_time dramPeriod,
            unsigned index = 0)
        : map(p.map),
          l2Clock("l2clk", l2Period),
          dramClock("dramclk", dramPeriod),
          l2("l2", p.l2, stats, l2Clock, pool, map, index),
          mem("mem", p.mem, stats, dramClock, index),
          init("init", pool) {
        init.socket.bind(l2.nocSide);
        l2.memSide.bind(mem.socket);
    }
    // From a configuration, which must pass its checks.
    L2Bench(const Config& cfg, sc_core::sc_time l2Period, sc_core::sc_time dramPeriod,
            unsigned index = 0)
        : L2Bench(L2BenchParams{AddressMapParams::from(cfg), L2SliceParams::from(cfg), IdealMemoryParams::from(cfg)},
                  l2Period, dramPeriod, index) {
        cfg.validate();
    }

    double stat(const std::string& name) const { return stats.get(name); }

    // The end-of-run invariants every test checks.
    void expectDrained() const {
        EXPECT_EQ(init.answered(), init.ops.size());
        EXPECT_TRUE(l2.quiescent()) << l2.dumpState();
        EXPECT_TRUE(mem.quiescent()) << mem.dumpState();
        EXPECT_EQ(pool.outstanding(), 0u);
        for (size_t i = 0; i < init.records.size(); ++i)
            EXPECT_EQ(init.records[i].status, tlm::TLM_OK_RESPONSE) << "request " << i;
    }
};

} // namespace gpusim::test
