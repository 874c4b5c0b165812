#pragma once
// Test initiators (SMs) and targets (memory partitions) around one Noc, built on the same
// AtInitiatorPort/AtTargetPort bookkeeping as the real units. Every time they record is a
// kernel time; tests state expectations in NoC cycles through cyc().
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/AtPorts.hpp"
#include "common/ClockDomain.hpp"
#include "common/Config.hpp"
#include "common/GpuExtension.hpp"
#include "common/PayloadPool.hpp"
#include "common/Stats.hpp"
#include "interconnect/Noc.hpp"

namespace gpusim::test {

constexpr uint32_t kLineBytes = 128;
// Request ids encode the SM so a misrouted answer is obvious in a failure message.
constexpr uint64_t kIdsPerSm = 1000;

// One request as the test SM saw it.
struct Request {
    uint64_t id = 0;
    int partition = -1;
    AccessKind kind = AccessKind::Read;
    sc_core::sc_time at;        // earliest send time (the script)
    sc_core::sc_time sent;      // BEGIN_REQ
    bool endReqSeen = false;
    sc_core::sc_time endReq;
    bool answered = false;
    sc_core::sc_time answer;    // BEGIN_RESP taken
    int answerSmId = -1;        // GpuExtension as it came back
    int answerSrcPort = -1;
};

class TestSm : public sc_core::sc_module {
public:
    tlm_utils::simple_initiator_socket<TestSm> socket;

    TestSm(sc_core::sc_module_name name, int smId, PayloadPool& pool)
        : sc_module(name), socket("socket"), smId_(smId), pool_(pool) {
        SC_HAS_PROCESS(TestSm);
        socket.register_nb_transport_bw(this, &TestSm::bw);
        port_.bind("test->noc", [this](Payload& p, tlm::tlm_phase& ph,
                          sc_core::sc_time& t) { return socket->nb_transport_fw(p, ph, t); },
                   [this](Payload& p) { return take(p); },
                   [this] {
                       Request& r = requests_.at(openId_);
                       r.endReqSeen = true;
                       r.endReq = sc_core::sc_time_stamp();
                       endReq_.notify(sc_core::SC_ZERO_TIME);
                   });
        SC_THREAD(run);
        SC_THREAD(resumeResponses);
    }

    // Queues a request to be sent at `at` or as soon after as the port allows, in post order.
    uint64_t post(sc_core::sc_time at, int partition, AccessKind kind = AccessKind::Read,
                  uint32_t bytes = kLineBytes) {
        Request r;
        r.id = uint64_t(smId_) * kIdsPerSm + script_.size();
        r.partition = partition;
        r.kind = kind;
        r.at = at;
        script_.push_back(r.id);
        bytes_[r.id] = bytes;
        requests_[r.id] = r;
        return r.id;
    }
    // Refuse answers (END_RESP withheld) until `until`.
    void refuseAnswersUntil(sc_core::sc_time until) {
        refusing_ = true;
        refuseUntil_ = until;
    }

    const std::map<uint64_t, Request>& requests() const { return requests_; }
    const Request& request(uint64_t id) const { return requests_.at(id); }
    unsigned answers() const { return answers_; }
    const std::vector<uint64_t>& answerOrder() const { return answerOrder_; }
    const AtInitiatorPort& port() const { return port_; }

private:
    tlm::tlm_sync_enum bw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
        return port_.nbTransportBw(p, ph, t);
    }

    bool take(Payload& p) {
        if (refusing_) return false;
        const GpuExtension& e = gpuExt(p);
        Request& r = requests_.at(e.requestId);
        r.answered = true;
        r.answer = sc_core::sc_time_stamp();
        r.answerSmId = e.smId;
        r.answerSrcPort = e.srcPort;
        ++answers_;
        answerOrder_.push_back(e.requestId);
        p.release();
        return true;
    }

    void run() {
        for (uint64_t id : script_) {
            Request& r = requests_.at(id);
            if (sc_core::sc_time_stamp() < r.at) wait(r.at - sc_core::sc_time_stamp());
            while (!port_.canSend()) wait(endReq_);
            Payload& p = pool_.allocate();
            GpuExtension& e = gpuExt(p);
            e.requestId = id;
            e.smId = smId_;
            e.kind = r.kind;
            e.partition = r.partition;
            e.bytes = bytes_.at(id);
            e.issueTime = sc_core::sc_time_stamp().value();
            p.set_command(r.kind == AccessKind::Read ? tlm::TLM_READ_COMMAND : tlm::TLM_WRITE_COMMAND);
            p.set_address(id * kLineBytes);
            p.set_data_length(kLineBytes);
            r.sent = sc_core::sc_time_stamp();
            openId_ = id;
            port_.send(p);
            if (port_.canSend() && !r.endReqSeen) {  // END_REQ came back with BEGIN_REQ
                r.endReqSeen = true;
                r.endReq = r.sent;
            }
        }
    }

    void resumeResponses() {
        if (!refusing_) return;
        wait(refuseUntil_ - sc_core::sc_time_stamp());
        refusing_ = false;
        port_.retryHeldResponse();
    }

    int smId_;
    PayloadPool& pool_;
    AtInitiatorPort port_;
    sc_core::sc_event endReq_;
    std::vector<uint64_t> script_;
    std::map<uint64_t, uint32_t> bytes_;
    std::map<uint64_t, Request> requests_;
    uint64_t openId_ = 0;
    unsigned answers_ = 0;
    std::vector<uint64_t> answerOrder_;
    bool refusing_ = false;
    sc_core::sc_time refuseUntil_;
};

// One request as the test memory partition accepted it.
struct Arrival {
    uint64_t id = 0;
    int smId = -1;
    int srcPort = -1;
    int partition = -1;
    sc_core::sc_time at;
};

class TestMem : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<TestMem> socket;

    // Answers every accepted request `service` after it arrived, in arrival order.
    TestMem(sc_core::sc_module_name name, sc_core::sc_time service)
        : sc_module(name), socket("socket"), service_(service) {
        SC_HAS_PROCESS(TestMem);
        socket.register_nb_transport_fw(this, &TestMem::fw);
        socket.register_transport_dbg(this, &TestMem::dbg);
        port_.bind("noc->test", [this](Payload& p, tlm::tlm_phase& ph,
                          sc_core::sc_time& t) { return socket->nb_transport_bw(p, ph, t); },
                   [this](Payload& p) { return take(p); },
                   [this] { endResp_.notify(sc_core::SC_ZERO_TIME); });
        SC_THREAD(answer);
        SC_THREAD(resume);
    }

    void setService(sc_core::sc_time service) { service_ = service; }
    // Withhold END_REQ (refuse every request) until `until`.
    void stallUntil(sc_core::sc_time until) {
        stalled_ = true;
        stallUntil_ = until;
    }

    const std::vector<Arrival>& arrivals() const { return arrivals_; }
    const std::vector<sc_core::sc_time>& answerTimes() const { return answerTimes_; }
    const AtTargetPort& port() const { return port_; }
    unsigned debugAccesses() const { return debugAccesses_; }

private:
    struct Pending {
        Payload* p;
        sc_core::sc_time due;
    };

    tlm::tlm_sync_enum fw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
        return port_.nbTransportFw(p, ph, t);
    }

    unsigned dbg(Payload& p) {
        ++debugAccesses_;
        return p.get_data_length();
    }

    bool take(Payload& p) {
        if (stalled_) return false;
        const GpuExtension& e = gpuExt(p);
        arrivals_.push_back({e.requestId, e.smId, e.srcPort, e.partition, sc_core::sc_time_stamp()});
        pending_.push_back({&p, sc_core::sc_time_stamp() + service_});
        arrived_.notify(sc_core::SC_ZERO_TIME);
        return true;
    }

    void answer() {
        for (;;) {
            while (pending_.empty()) wait(arrived_);
            const Pending next = pending_.front();
            pending_.erase(pending_.begin());
            if (sc_core::sc_time_stamp() < next.due) wait(next.due - sc_core::sc_time_stamp());
            while (!port_.canRespond()) wait(endResp_);
            next.p->set_response_status(tlm::TLM_OK_RESPONSE);
            answerTimes_.push_back(sc_core::sc_time_stamp());
            port_.respond(*next.p);
        }
    }

    void resume() {
        if (!stalled_) return;
        wait(stallUntil_ - sc_core::sc_time_stamp());
        stalled_ = false;
        port_.retryHeldRequest();
    }

    sc_core::sc_time service_;
    AtTargetPort port_;
    sc_core::sc_event arrived_, endResp_;
    std::vector<Pending> pending_;
    std::vector<Arrival> arrivals_;
    std::vector<sc_core::sc_time> answerTimes_;
    bool stalled_ = false;
    sc_core::sc_time stallUntil_;
    unsigned debugAccesses_ = 0;
};

// A target that answers inside BEGIN_REQ (TLM_COMPLETED): legal in the base protocol, and the
// one answer the crossbar cannot refuse.
class CompletingMem : public sc_core::sc_module {
public:
    tlm_utils::simple_target_socket<CompletingMem> socket;

    explicit CompletingMem(sc_core::sc_module_name name) : sc_module(name), socket("socket") {
        socket.register_nb_transport_fw(this, &CompletingMem::fw);
    }
    unsigned completed() const { return completed_; }

private:
    tlm::tlm_sync_enum fw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
        if (ph != tlm::BEGIN_REQ) throw std::logic_error("CompletingMem: unexpected phase");
        p.set_response_status(tlm::TLM_OK_RESPONSE);
        ++completed_;
        return tlm::TLM_COMPLETED;
    }
    unsigned completed_ = 0;
};

inline ParamSchema nocSchema() {
    ParamSchema s;
    Noc::declare(s);
    return s;
}

// A NoC (noc.topology from the overrides, crossbar by default) with `sms` test SMs and `partitions` test memories bound in index order, built
// from the noc.* defaults plus `overrides` ("key=value").
struct NocBench {
    ParamSchema schema = nocSchema();
    Config cfg{schema};
    StatRegistry stats;
    PayloadPool pool{kLineBytes};
    std::unique_ptr<ClockDomain> clock;
    std::unique_ptr<Noc> xbar;
    std::vector<std::unique_ptr<TestSm>> sms;
    std::vector<std::unique_ptr<TestMem>> mems;
    sc_core::sc_time period;

    // testMems = false: the test binds its own targets to xbar->memSide.
    NocBench(unsigned numSms, unsigned numPartitions, unsigned serviceCycles,
             const std::vector<std::string>& overrides = {}, bool testMems = true) {
        for (const auto& o : overrides) cfg.setFromString(o);
        cfg.validate();
        const NocParams params = NocParams::from(cfg);
        period = params.period();
        clock = std::make_unique<ClockDomain>("noc_clock", period);
        xbar = std::make_unique<Noc>("noc", params, stats, *clock, numSms, numPartitions);
        for (unsigned i = 0; i < numSms; ++i) {
            sms.push_back(std::make_unique<TestSm>(("sm" + std::to_string(i)).c_str(),
                                                   static_cast<int>(i), pool));
            sms.back()->socket.bind(xbar->smSide);
        }
        for (unsigned j = 0; testMems && j < numPartitions; ++j) {
            mems.push_back(std::make_unique<TestMem>(("mem" + std::to_string(j)).c_str(),
                                                     cyc(serviceCycles)));
            xbar->memSide.bind(mems.back()->socket);
        }
    }

    sc_core::sc_time cyc(double n) const { return n * period; }
    double stat(const std::string& name) const { return stats.get(name); }
    const Histogram& hist(const std::string& name) const {
        return dynamic_cast<const Histogram&>(*stats.find(name));
    }
};

} // namespace gpusim::test
