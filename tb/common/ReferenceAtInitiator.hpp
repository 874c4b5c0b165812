#pragma once
// A reference TLM-2.0 AT initiator for the conformance suite (tb/conformance): it sends requests
// (one BEGIN_REQ at a time, the next when the previous got END_REQ or a response, at their
// effective times) with BEGIN_REQ annotated reqDelay, answers every BEGIN_RESP by one chosen
// sequence of the base protocol (IEEE 1666-2011, 15.2), and records the effective time of every
// phase that reaches it. Written against the standard only: it plays the third-party side of any
// boundary where the GPU is the target.
//
// Answering styles (what BEGIN_RESP at time T gets):
//   Completed        TLM_COMPLETED annotated respDelay
//   UpdatedEndResp   TLM_UPDATED + END_RESP annotated respDelay
//   AcceptedEndResp  TLM_ACCEPTED; END_RESP called at T + endRespAfter annotated respDelay
#include <cstdint>
#include <deque>
#include <map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

namespace gpusim::tb {

enum class InitiatorAnswer { Completed, UpdatedEndResp, AcceptedEndResp };

struct ReferenceAtInitiator : sc_core::sc_module {
    using Payload = tlm::tlm_generic_payload;

    struct Timing {
        sc_core::sc_time reqDelay = sc_core::SC_ZERO_TIME;      // annotated on BEGIN_REQ
        sc_core::sc_time endRespAfter = sc_core::SC_ZERO_TIME;  // AcceptedEndResp: END_RESP call after BEGIN_RESP
        sc_core::sc_time respDelay = sc_core::SC_ZERO_TIME;     // annotated on the response's end
    };
    struct Record {
        sc_core::sc_time beginReq, endReq, beginResp, endResp;  // effective times
        bool answered = false;
    };

    tlm_utils::simple_initiator_socket<ReferenceAtInitiator> socket{"socket"};
    InitiatorAnswer answer;
    Timing timing;
    std::vector<Payload*> toSend;  // sent in this order from time 0
    std::map<const Payload*, Record> records;

    ReferenceAtInitiator(sc_core::sc_module_name n, InitiatorAnswer a, Timing t) : sc_module(n), answer(a), timing(t) {
        socket.register_nb_transport_bw(this, &ReferenceAtInitiator::bw);
        SC_HAS_PROCESS(ReferenceAtInitiator);
        SC_THREAD(run);
        SC_METHOD(endResponses);
        sensitive << endRespEv_;
        dont_initialize();
    }
    size_t answered() const {
        size_t n = 0;
        for (const auto& [p, r] : records) n += r.answered;
        return n;
    }

private:
    using Time = sc_core::sc_time;

    void run() {
        for (Payload* p : toSend) {
            while (reqOpen_ || sc_core::sc_time_stamp() < reqFreeAt_) {
                if (reqOpen_)
                    wait(reqFreed_);
                else
                    wait(reqFreeAt_ - sc_core::sc_time_stamp());
            }
            Record& r = records[p];
            const Time now = sc_core::sc_time_stamp();
            r.beginReq = now + timing.reqDelay;
            tlm::tlm_phase ph = tlm::BEGIN_REQ;
            Time t = timing.reqDelay;
            reqOpen_ = p;
            switch (socket->nb_transport_fw(*p, ph, t)) {
            case tlm::TLM_ACCEPTED: break;
            case tlm::TLM_UPDATED:
                if (ph == tlm::END_REQ) {
                    r.endReq = now + t;
                    reqOpen_ = nullptr;
                    reqFreeAt_ = now + t;
                }
                break;
            case tlm::TLM_COMPLETED:
                r.endReq = r.beginResp = r.endResp = now + t;
                r.answered = true;
                reqOpen_ = nullptr;
                reqFreeAt_ = now + t;
                break;
            }
        }
    }

    tlm::tlm_sync_enum bw(Payload& p, tlm::tlm_phase& ph, Time& t) {
        const Time now = sc_core::sc_time_stamp();
        Record& r = records[&p];
        if (ph == tlm::END_REQ) {
            r.endReq = now + t;
            freeRequest(p, now + t);
            return tlm::TLM_ACCEPTED;
        }
        // BEGIN_RESP
        r.beginResp = now + t;
        if (reqOpen_ == &p) {  // BEGIN_RESP implies END_REQ
            r.endReq = now + t;
            freeRequest(p, now + t);
        }
        switch (answer) {
        case InitiatorAnswer::Completed:
            t += timing.respDelay;
            r.endResp = now + t;
            r.answered = true;
            return tlm::TLM_COMPLETED;
        case InitiatorAnswer::UpdatedEndResp:
            t += timing.respDelay;
            r.endResp = now + t;
            r.answered = true;
            ph = tlm::END_RESP;
            return tlm::TLM_UPDATED;
        case InitiatorAnswer::AcceptedEndResp:
            endResps_.push_back({&p, now + t + timing.endRespAfter});
            endRespEv_.notify(t + timing.endRespAfter);
            return tlm::TLM_ACCEPTED;
        }
        return tlm::TLM_ACCEPTED;
    }

    void freeRequest(Payload& p, Time at) {
        if (reqOpen_ != &p) return;
        reqOpen_ = nullptr;
        reqFreeAt_ = at;
        reqFreed_.notify(sc_core::SC_ZERO_TIME);
    }

    void endResponses() {
        const Time now = sc_core::sc_time_stamp();
        while (!endResps_.empty() && endResps_.front().second <= now) {
            Payload* p = endResps_.front().first;
            endResps_.pop_front();
            tlm::tlm_phase ph = tlm::END_RESP;
            Time t = timing.respDelay;
            records[p].endResp = now + t;
            records[p].answered = true;
            socket->nb_transport_fw(*p, ph, t);
        }
        if (!endResps_.empty()) endRespEv_.notify(endResps_.front().second - now);
    }

    Payload* reqOpen_ = nullptr;
    Time reqFreeAt_ = sc_core::SC_ZERO_TIME;
    sc_core::sc_event reqFreed_, endRespEv_;
    std::deque<std::pair<Payload*, Time>> endResps_;
};

} // namespace gpusim::tb
