#pragma once
// A traffic generator for the DRAM controller (no SMs, no L2): sends a script of line reads
// and writes as fast as END_REQ allows (each not before its time), takes every answer at once,
// and records when each request was sent, accepted (END_REQ) and answered. Shared by
// bench/dram_bench and the memory tests (tb/unit/memory), so it lives here, where both may
// include it (target gpusim_dram_traffic), not in tb/: nothing under bench/ depends on tb/.
// No gtest here, and no model library includes it.
// Leaves out: data values (nothing is written into a payload's buffer), DMI and debug transport.
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "common/AddressMap.hpp"
#include "common/AtPorts.hpp"
#include "common/ClockDomain.hpp"
#include "common/Config.hpp"
#include "common/GpuExtension.hpp"
#include "common/PayloadPool.hpp"
#include "common/Stats.hpp"
#include "memory/DramConfig.hpp"
#include "memory/DramController.hpp"
#include "memory/IdealMemory.hpp"
#include "memory/L2Slice.hpp"

namespace gpusim::dramtest {

constexpr uint64_t kNone = std::numeric_limits<uint64_t>::max();

class TrafficGenerator : public sc_core::sc_module {
public:
    struct Op {
        uint64_t addr;
        bool write;
        uint64_t notBeforePs;
        bool serial;  // also wait until every earlier request is answered
    };
    struct Record {
        uint64_t sentPs = kNone, endReqPs = kNone, answeredPs = kNone;
        tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    };
    tlm_utils::simple_initiator_socket<TrafficGenerator> socket;
    std::vector<Op> ops;
    std::vector<Record> records;
    uint32_t bytes = 128;

    TrafficGenerator(sc_core::sc_module_name name, PayloadPool& pool) : sc_module(name), socket("socket"), pool_(pool) {
        SC_HAS_PROCESS(TrafficGenerator);
        SC_THREAD(run);
        socket.register_nb_transport_bw(this, &TrafficGenerator::bw);
        port_.bind("traffic->mem", [this](Payload& p, tlm::tlm_phase& ph,
                          sc_core::sc_time& t) { return socket->nb_transport_fw(p, ph, t); },
                   [this](Payload& p) { return take(p); },
                   [this] {
                       records.at(open_).endReqPs = now();
                       endReq_.notify(sc_core::SC_ZERO_TIME);
                   });
    }
    void read(uint64_t addr, uint64_t notBeforePs = 0, bool serial = false) { add({addr, false, notBeforePs, serial}); }
    void write(uint64_t addr, uint64_t notBeforePs = 0, bool serial = false) { add({addr, true, notBeforePs, serial}); }
    void add(const Op& op) {
        ops.push_back(op);
        records.emplace_back();
    }
    size_t answered() const { return answered_; }
    uint64_t lastAnswerPs() const { return lastAnswerPs_; }

private:
    static uint64_t now() { return sc_core::sc_time_stamp().value(); }
    void run() {
        for (size_t i = 0; i < ops.size(); ++i) {
            const Op& op = ops[i];
            if (now() < op.notBeforePs) wait(sc_core::sc_time::from_value(op.notBeforePs - now()));
            while (op.serial && answered_ < i) wait(answer_);
            while (!port_.canSend()) wait(endReq_);
            Payload& p = pool_.allocate();
            p.set_command(op.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
            p.set_address(op.addr);
            p.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
            GpuExtension& e = gpuExt(p);
            e.requestId = i;
            e.smId = -1;
            e.kind = op.write ? AccessKind::Writeback : AccessKind::Read;
            e.bytes = bytes;
            records[i].sentPs = now();
            open_ = i;
            port_.send(p);
            if (port_.canSend() && records[i].endReqPs == kNone) records[i].endReqPs = now();
        }
    }
    bool take(Payload& p) {
        Record& r = records.at(gpuExt(p).requestId);
        r.answeredPs = now();
        r.status = p.get_response_status();
        ++answered_;
        lastAnswerPs_ = now();
        p.release();
        answer_.notify(sc_core::SC_ZERO_TIME);
        return true;
    }
    tlm::tlm_sync_enum bw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) { return port_.nbTransportBw(p, ph, t); }

    PayloadPool& pool_;
    AtInitiatorPort port_;
    sc_core::sc_event endReq_, answer_;
    size_t open_ = 0;
    size_t answered_ = 0;
    uint64_t lastAnswerPs_ = 0;
};

// The parameters of the memory folder, with DRAM-friendly test defaults applied by the caller.
struct DramParams {
    ParamSchema schema;
    std::unique_ptr<Config> cfg;
    DramParams() {
        AddressMapParams::declare(schema);
        L2SliceParams::declare(schema);
        IdealMemoryParams::declare(schema);
        DramConfig::declare(schema);
        cfg = std::make_unique<Config>(schema);
    }
    DramParams(const DramParams&) = delete;
    DramParams& operator=(const DramParams&) = delete;
    DramParams& set(const std::string& key, const nlohmann::json& v) {
        cfg->set(key, v, "test");
        return *this;
    }
};

// Generator -> controller `index`, the DRAM clock at `periodPs`.
struct DramBench {
    StatRegistry stats;
    PayloadPool pool;
    AddressMap map;
    ClockDomain clock;
    DramController ctrl;
    TrafficGenerator gen;

    DramBench(const AddressMapParams& mapParams, const DramControllerParams& params, uint64_t periodPs,
              unsigned index = 0)
        : map(mapParams),
          clock("dramclk", sc_core::sc_time::from_value(periodPs)),
          ctrl("ctrl", params, stats, clock, map, index),
          gen("gen", pool) {
        gen.socket.bind(ctrl.socket);
    }
    // From a configuration, which must pass its checks.
    DramBench(const Config& cfg, uint64_t periodPs, unsigned index = 0)
        : DramBench(AddressMapParams::from(cfg), DramControllerParams::from(cfg), periodPs, index) {
        cfg.validate();
    }
    double stat(const std::string& name) const { return stats.get(name); }
    const Average& average(const std::string& name) const { return dynamic_cast<const Average&>(*stats.find(name)); }
};

// Uniformly random line reads over every bank and `rows` rows of partition `part` (global
// addresses through the map).
inline std::vector<uint64_t> randomLines(const AddressMap& map, unsigned part, size_t n, uint64_t rows,
                                         uint64_t lineBytes, uint32_t seed) {
    std::mt19937_64 rng(seed);
    const auto& g = map.dramGeometry();
    std::uniform_int_distribution<unsigned> bank(0, g.banks - 1);
    std::uniform_int_distribution<uint64_t> row(0, rows - 1);
    std::uniform_int_distribution<uint64_t> col(0, g.rowBytes / lineBytes - 1);
    std::vector<uint64_t> out;
    for (size_t i = 0; i < n; ++i)
        out.push_back(map.globalAddress(part, map.encodeLocal({bank(rng), row(rng), col(rng) * lineBytes})));
    return out;
}

// A queued DRAM request as the scheduler tests build them by hand: two bursts, at `bank`/`row`,
// column 0.
inline DramRequest queuedRequest(uint64_t seq, unsigned bank, uint64_t row, bool write = false,
                                 uint64_t eligible = 0) {
    DramRequest r;
    r.seq = seq;
    r.coord = {bank, row, 0};
    r.write = write;
    r.eligibleCycle = eligible;
    r.burstsLeft = 2;
    return r;
}

} // namespace gpusim::dramtest
