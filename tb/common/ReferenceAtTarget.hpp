#pragma once
// A reference TLM-2.0 AT target for the conformance suite (tb/conformance): it answers every
// request by one chosen sequence of the base protocol (IEEE 1666-2011, 15.2), with chosen
// annotated delays, one response at a time, and records the effective time (call time plus
// annotation) of every phase that reaches it. Written against the standard only, as a user's IP
// would be, so it plays the third-party side of any boundary where the GPU is the initiator.
//
// Sequences (what BEGIN_REQ at time T gets):
//   UpdatedEndReq      TLM_UPDATED + END_REQ annotated reqDelay; BEGIN_RESP called at T + latency
//   AcceptedEndReq     TLM_ACCEPTED; END_REQ called at T + endReqAfter annotated reqDelay;
//                      BEGIN_RESP called at T + latency
//   AcceptedBeginResp  TLM_ACCEPTED; no END_REQ: BEGIN_RESP called at T + latency implies it
//   UpdatedBeginResp   TLM_UPDATED + BEGIN_RESP annotated respDelay (implicit END_REQ); END_RESP
//                      is then owed on the forward path
//   Completed          TLM_COMPLETED annotated respDelay (early completion)
// A BEGIN_RESP call carries the annotation respDelay, and is made only after the previous
// response ended (END_RESP or a completing return value, at its effective time). With
// keepAnswerTimes, a call that waited for the previous response annotates only what is left of
// respDelay (none once the answer's effective time T + latency + respDelay has passed), so that
// every answer takes effect when the same target answering late without annotations would have
// answered it: the annotation then changes how the time is told, not the time.
// waitsForEndResp: the target answers only through END_RESP, as some third-party arbiters do: an
// initiator that completes a BEGIN_RESP by its return value is recorded (completedByReturn) and
// the target answers nothing more (the run would hang there).
#include <cstdint>
#include <deque>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace gpusim::tb {

enum class TargetSequence { UpdatedEndReq, AcceptedEndReq, AcceptedBeginResp, UpdatedBeginResp, Completed };

struct ReferenceAtTarget : sc_core::sc_module {
    using Payload = tlm::tlm_generic_payload;

    struct Timing {
        sc_core::sc_time reqDelay = sc_core::SC_ZERO_TIME;     // annotated on END_REQ
        sc_core::sc_time endReqAfter = sc_core::SC_ZERO_TIME;  // AcceptedEndReq: END_REQ call after BEGIN_REQ
        sc_core::sc_time latency = sc_core::sc_time(20, sc_core::SC_NS);  // BEGIN_REQ to the BEGIN_RESP call
        sc_core::sc_time respDelay = sc_core::SC_ZERO_TIME;    // annotated on BEGIN_RESP
    };
    // One answered transaction, in order of BEGIN_REQ.
    struct Record {
        Payload* p = nullptr;
        sc_core::sc_time beginReq, beginResp, endResp;  // effective times
        bool ended = false;
    };

    tlm_utils::simple_target_socket<ReferenceAtTarget> socket{"socket"};
    TargetSequence sequence;
    Timing timing;
    bool waitsForEndResp = false;
    bool keepAnswerTimes = false;
    std::vector<Record> records;
    uint64_t completedByReturn = 0;  // BEGIN_RESP completed by TLM_COMPLETED or TLM_UPDATED/END_RESP
    uint64_t endResps = 0;           // END_RESP calls received

    ReferenceAtTarget(sc_core::sc_module_name n, TargetSequence s, Timing t)
        : sc_module(n), sequence(s), timing(t) {
        socket.register_nb_transport_fw(this, &ReferenceAtTarget::fw);
        SC_HAS_PROCESS(ReferenceAtTarget);
        SC_METHOD(respond);
        sensitive << respEv_;
        dont_initialize();
        SC_METHOD(endRequests);
        sensitive << endReqEv_;
        dont_initialize();
    }
    bool idle() const { return queue_.empty() && open_ == nullptr && endReqs_.empty(); }

private:
    using Time = sc_core::sc_time;

    Record* find(Payload& p) {
        for (auto it = records.rbegin(); it != records.rend(); ++it)
            if (it->p == &p && !it->ended) return &*it;
        return nullptr;
    }

    tlm::tlm_sync_enum fw(Payload& p, tlm::tlm_phase& ph, Time& t) {
        const Time now = sc_core::sc_time_stamp();
        if (ph == tlm::END_RESP) {
            ++endResps;
            Record* r = find(p);
            if (r && open_ == &p) {
                r->endResp = now + t;
                r->ended = true;
                open_ = nullptr;
                openUntil_ = now + t;
                respEv_.notify(t);  // the next response may begin at END_RESP's effective time
            }
            return tlm::TLM_COMPLETED;
        }
        // BEGIN_REQ
        records.push_back({&p, now + t, {}, {}, false});
        p.set_response_status(tlm::TLM_OK_RESPONSE);
        switch (sequence) {
        case TargetSequence::UpdatedEndReq:
            queue_.push_back({&p, now + timing.latency});
            respEv_.notify(timing.latency);
            ph = tlm::END_REQ;
            t += timing.reqDelay;
            return tlm::TLM_UPDATED;
        case TargetSequence::AcceptedEndReq:
            endReqs_.push_back({&p, now + timing.endReqAfter});
            endReqEv_.notify(timing.endReqAfter);
            queue_.push_back({&p, now + timing.latency});
            respEv_.notify(timing.latency);
            return tlm::TLM_ACCEPTED;
        case TargetSequence::AcceptedBeginResp:
            queue_.push_back({&p, now + timing.latency});
            respEv_.notify(timing.latency);
            return tlm::TLM_ACCEPTED;
        case TargetSequence::UpdatedBeginResp:
            records.back().beginResp = now + t + timing.respDelay;
            open_ = &p;
            ph = tlm::BEGIN_RESP;
            t += timing.respDelay;
            return tlm::TLM_UPDATED;
        case TargetSequence::Completed:
            records.back().beginResp = records.back().endResp = now + t + timing.respDelay;
            records.back().ended = true;
            t += timing.respDelay;
            return tlm::TLM_COMPLETED;
        }
        return tlm::TLM_ACCEPTED;
    }

    void endRequests() {
        const Time now = sc_core::sc_time_stamp();
        while (!endReqs_.empty() && endReqs_.front().second <= now) {
            Payload* p = endReqs_.front().first;
            endReqs_.pop_front();
            tlm::tlm_phase ph = tlm::END_REQ;
            Time t = timing.reqDelay;
            socket->nb_transport_bw(*p, ph, t);
        }
        if (!endReqs_.empty()) endReqEv_.notify(endReqs_.front().second - now);
    }

    void respond() {
        const Time now = sc_core::sc_time_stamp();
        if (stalled_) return;
        while (!open_ && now >= openUntil_ && !queue_.empty() && queue_.front().second <= now) {
            Payload* p = queue_.front().first;
            queue_.pop_front();
            Record* r = find(*p);
            tlm::tlm_phase ph = tlm::BEGIN_RESP;
            Time t = timing.respDelay;
            if (keepAnswerTimes) {
                const Time wanted = r ? r->beginReq + timing.latency + timing.respDelay : now;
                t = wanted > now ? wanted - now : sc_core::SC_ZERO_TIME;
            }
            if (r) r->beginResp = now + t;
            open_ = p;
            const tlm::tlm_sync_enum s = socket->nb_transport_bw(*p, ph, t);
            if (s == tlm::TLM_ACCEPTED) break;  // END_RESP comes on the forward path
            ++completedByReturn;
            if (waitsForEndResp) {  // a target that only knows END_RESP never answers again
                stalled_ = true;
                return;
            }
            if (r) {
                r->endResp = now + t;
                r->ended = true;
            }
            open_ = nullptr;
            openUntil_ = now + t;
        }
        if (open_ || queue_.empty()) return;
        const Time due = std::max(queue_.front().second, openUntil_);
        respEv_.notify(due > now ? due - now : sc_core::SC_ZERO_TIME);
    }

    std::deque<std::pair<Payload*, Time>> queue_;    // responses due, in order
    std::deque<std::pair<Payload*, Time>> endReqs_;  // AcceptedEndReq: END_REQ calls due
    Payload* open_ = nullptr;                        // response awaiting END_RESP
    Time openUntil_ = sc_core::SC_ZERO_TIME;         // the last response's effective end
    bool stalled_ = false;
    sc_core::sc_event respEv_, endReqEv_;
};

} // namespace gpusim::tb
