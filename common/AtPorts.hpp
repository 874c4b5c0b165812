#pragma once
// The TLM-2.0 AT base-protocol bookkeeping of one link, separated from the socket type so that
// single sockets and multi-sockets share it. Rules kept here:
//  - an initiator sends BEGIN_REQ only when the previous request got END_REQ (back-pressure is
//    a late END_REQ: the target returns TLM_ACCEPTED and sends END_REQ when it has room);
//  - a target sends BEGIN_RESP only when the previous response is finished (TLM_COMPLETED or
//    END_RESP received);
//  - fast paths avoid kernel events: an accepting target answers BEGIN_REQ with TLM_UPDATED +
//    END_REQ, an accepting initiator answers BEGIN_RESP with TLM_COMPLETED.
// Payload ownership: the originator acquired the payload; intermediate units hold plain pointers
// while it is in their queues and never release it.
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>

#include <systemc>
#include <tlm>

namespace gpusim {

using Payload = tlm::tlm_generic_payload;
using TransportFn = std::function<tlm::tlm_sync_enum(Payload&, tlm::tlm_phase&, sc_core::sc_time&)>;

class AtInitiatorPort {
public:
    // take(p): the owner takes a response now (true) or not yet (false, it is held and offered
    // again by retryHeldResponse()). onEndReq: a blocked request was accepted.
    void bind(TransportFn fw, std::function<bool(Payload&)> take, std::function<void()> onEndReq) {
        fw_ = std::move(fw);
        take_ = std::move(take);
        onEndReq_ = std::move(onEndReq);
    }
    bool canSend() const { return open_ == nullptr; }
    void send(Payload& p) {
        if (open_) throw std::logic_error("BEGIN_REQ while a request awaits END_REQ");
        tlm::tlm_phase ph = tlm::BEGIN_REQ;
        sc_core::sc_time t = sc_core::SC_ZERO_TIME;
        ++sent_;
        switch (fw_(p, ph, t)) {
        case tlm::TLM_ACCEPTED: open_ = &p; break;
        case tlm::TLM_UPDATED:
            if (ph != tlm::END_REQ) throw std::logic_error("unsupported phase returned to BEGIN_REQ");
            break;
        case tlm::TLM_COMPLETED:
            if (!take_(p)) throw std::logic_error("initiator refused an immediately completed request");
            break;
        }
    }
    tlm::tlm_sync_enum nbTransportBw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
        if (ph == tlm::END_REQ) {
            if (open_ != &p) throw std::logic_error("END_REQ for a payload that is not open");
            open_ = nullptr;
            if (onEndReq_) onEndReq_();
            return tlm::TLM_ACCEPTED;
        }
        if (ph == tlm::BEGIN_RESP) {
            if (open_ == &p) {  // BEGIN_RESP implies END_REQ
                open_ = nullptr;
                if (onEndReq_) onEndReq_();
            }
            if (held_) throw std::logic_error("BEGIN_RESP while a response awaits END_RESP");
            if (take_(p)) return tlm::TLM_COMPLETED;
            held_ = &p;
            return tlm::TLM_ACCEPTED;
        }
        throw std::logic_error("unexpected phase on the backward path");
    }
    bool hasHeldResponse() const { return held_ != nullptr; }
    void retryHeldResponse() {
        if (!held_ || !take_(*held_)) return;
        Payload* p = held_;
        held_ = nullptr;
        tlm::tlm_phase ph = tlm::END_RESP;
        sc_core::sc_time t = sc_core::SC_ZERO_TIME;
        fw_(*p, ph, t);
    }
    uint64_t sent() const { return sent_; }

private:
    TransportFn fw_;
    std::function<bool(Payload&)> take_;
    std::function<void()> onEndReq_;
    Payload* open_ = nullptr;
    Payload* held_ = nullptr;
    uint64_t sent_ = 0;
};

class AtTargetPort {
public:
    // take(p): the owner queues a request now (true) or not yet (false: it is held, END_REQ is
    // withheld, and retryHeldRequest() offers it again). onEndResp: a response was finished.
    void bind(TransportFn bw, std::function<bool(Payload&)> take, std::function<void()> onEndResp) {
        bw_ = std::move(bw);
        take_ = std::move(take);
        onEndResp_ = std::move(onEndResp);
    }
    tlm::tlm_sync_enum nbTransportFw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
        if (ph == tlm::BEGIN_REQ) {
            if (held_) throw std::logic_error("BEGIN_REQ before END_REQ of the previous request");
            if (take_(p)) {
                ph = tlm::END_REQ;
                return tlm::TLM_UPDATED;
            }
            held_ = &p;
            return tlm::TLM_ACCEPTED;
        }
        if (ph == tlm::END_RESP) {
            if (open_ != &p) throw std::logic_error("END_RESP for a payload that is not open");
            open_ = nullptr;
            if (onEndResp_) onEndResp_();
            return tlm::TLM_COMPLETED;
        }
        throw std::logic_error("unexpected phase on the forward path");
    }
    bool hasHeldRequest() const { return held_ != nullptr; }
    void retryHeldRequest() {
        if (!held_ || !take_(*held_)) return;
        Payload* p = held_;
        held_ = nullptr;
        tlm::tlm_phase ph = tlm::END_REQ;
        sc_core::sc_time t = sc_core::SC_ZERO_TIME;
        bw_(*p, ph, t);
    }
    bool canRespond() const { return open_ == nullptr; }
    void respond(Payload& p) {
        if (open_) throw std::logic_error("BEGIN_RESP while a response awaits END_RESP");
        tlm::tlm_phase ph = tlm::BEGIN_RESP;
        sc_core::sc_time t = sc_core::SC_ZERO_TIME;
        switch (bw_(p, ph, t)) {
        case tlm::TLM_ACCEPTED: open_ = &p; break;
        case tlm::TLM_UPDATED:
            if (ph != tlm::END_RESP) throw std::logic_error("unsupported phase returned to BEGIN_RESP");
            break;
        case tlm::TLM_COMPLETED: break;
        }
    }

private:
    TransportFn bw_;
    std::function<bool(Payload&)> take_;
    std::function<void()> onEndResp_;
    Payload* held_ = nullptr;
    Payload* open_ = nullptr;
};

} // namespace gpusim
