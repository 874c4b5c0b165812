#pragma once
// The TLM-2.0 AT base-protocol bookkeeping of one link, separated from the socket type so that
// single sockets and multi-sockets share it. Rules kept here:
//  - an initiator sends BEGIN_REQ only when the previous request got END_REQ (back-pressure is
//    a late END_REQ: the target returns TLM_ACCEPTED and sends END_REQ when it has room);
//  - a target sends BEGIN_RESP only when the previous response is finished (TLM_COMPLETED or
//    END_RESP received);
//  - fast paths avoid kernel events: an accepting target answers BEGIN_REQ with TLM_UPDATED +
//    END_REQ, an accepting initiator answers BEGIN_RESP with TLM_COMPLETED (or, in the end_resp
//    answering style, with TLM_ACCEPTED and an END_RESP on the forward path a delta cycle later,
//    for targets that wait for END_RESP);
//  - every phase the peer passes, on a call or in a return, takes effect at the current time plus
//    the delay it annotated (IEEE 1666-2011, 15.2): with a zero delay at once, inside the call;
//    with a non-zero one through a payload event queue (tlm_utils::peq_with_cb_and_phase, made
//    at the first such phase), whose process hands it to the owner at that time. A response
//    that arrives with a delay cannot be completed by the return value (the owner may be full at
//    that time): it is answered TLM_ACCEPTED and finished with END_RESP, whatever the style. Every
//    sequence of the base protocol is accepted: TLM_ACCEPTED, TLM_UPDATED with END_REQ or with
//    BEGIN_RESP (an implicit END_REQ), TLM_COMPLETED (early completion) to BEGIN_REQ; END_REQ and
//    BEGIN_RESP on the backward path, a BEGIN_RESP before END_REQ included; TLM_ACCEPTED,
//    TLM_UPDATED with END_RESP and TLM_COMPLETED to BEGIN_RESP.
// Payload ownership: the originator acquired the payload; intermediate units hold plain pointers
// while it is in their queues and never release it.
// Each end knows the name of its link (the platform's: "sm3->noc", "noc->l2.2", "l2.2->mem") and
// the initiator end what it has outstanding on it (sent, not yet answered), so a peer that breaks
// the protocol (an answer to nothing outstanding here: a duplicate, an invented or another link's
// transaction; a phase out of turn) is a ModelError raised at once, naming the link, the address
// and the request id, rather than a fault somewhere downstream later.
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>

#include "common/PointerMap.hpp"
#include "common/TlmLinkParams.hpp"

namespace gpusim {

using Payload = tlm::tlm_generic_payload;
using TransportFn = std::function<tlm::tlm_sync_enum(Payload&, tlm::tlm_phase&, sc_core::sc_time&)>;
// The peer's side of a socket (what `socket->` reaches), for a port bound to a socket: asked once,
// at the first transaction (sockets are bound after the units that own them are built), then
// called directly. Through a TransportFn every call paid a std::function call and the socket's
// bound-port check on top of the interface's virtual call, four times per memory access
// (issue 19).
using FwPeerFn = std::function<tlm::tlm_fw_transport_if<>*()>;
using BwPeerFn = std::function<tlm::tlm_bw_transport_if<>*()>;

// "read 0x1f80 (request 42)": a transaction as the protocol errors and state dumps name it.
std::string describeTransaction(const Payload& p);
// Throws ModelError "<link>: <what>: <transaction>".
[[noreturn]] void linkError(const std::string& link, const std::string& what, const Payload& p);
// The ModelError for an answer to nothing outstanding on `link` (every initiator end raises the
// same one, so a user reads one message whichever unit caught it).
[[noreturn]] void answerNotOutstanding(const std::string& link, const Payload& p);

// A reference held on a pooled payload by a unit that needs it past the moment its owner may
// release it (an END_RESP still to send); no-ops for a payload without a memory manager.
inline void holdPayload(Payload& p) {
    if (p.has_mm()) p.acquire();
}
inline void unholdPayload(Payload& p) {
    if (p.has_mm()) p.release();
}

class AtInitiatorPort {
public:
    // link: the link's name, for errors. take(p): the owner takes a response now (true) or not
    // yet (false, it is held and offered again by retryHeldResponse()). onEndReq: a blocked
    // request was accepted.
    void bind(std::string link, TransportFn fw, std::function<bool(Payload&)> take, std::function<void()> onEndReq) {
        link_ = std::move(link);
        fw_ = std::move(fw);
        take_ = std::move(take);
        onEndReq_ = std::move(onEndReq);
    }
    // The same, bound to a socket: `peer` gives the socket's forward interface.
    void bind(std::string link, FwPeerFn peer, std::function<bool(Payload&)> take, std::function<void()> onEndReq) {
        bind(std::move(link), TransportFn(), std::move(take), std::move(onEndReq));
        peer_ = std::move(peer);
    }
    void setResponseCompletion(ResponseCompletion c) { completion_ = c; }
    ResponseCompletion responseCompletion() const { return completion_; }
    // Called each time a response becomes held (the owner refused it), whichever call or queued
    // phase it came in: an owner that counts its held responses counts them here.
    void setOnHeld(std::function<void()> onHeld) { onHeld_ = std::move(onHeld); }
    bool canSend() const { return open_ == nullptr; }
    void send(Payload& p);
    tlm::tlm_sync_enum nbTransportBw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time&);
    bool hasHeldResponse() const { return !held_.empty(); }
    // Offers the oldest held response again; true if the owner took it (END_RESP was sent when
    // the target awaits one).
    bool retryHeldResponse();
    uint64_t sent() const { return sent_; }
    // Sent and not yet answered (BEGIN_RESP or an immediate TLM_COMPLETED, at the time its
    // annotated delay gives): a request the target still holds, whatever it is (a line read, a
    // write-back nobody waits for); plus the answers in the payload event queue and those whose
    // END_RESP is not sent yet (the link is not idle before).
    size_t outstanding() const { return outstanding_.size() + queuedAnswers_ + endRespOwed_; }
    // Up to `max` outstanding transactions, oldest request id first ("read 0x1f80 (request
    // 42), ..."), for state dumps; "none" when nothing is outstanding.
    std::string describeOutstanding(size_t max) const;
    const std::string& link() const { return link_; }

private:
    tlm::tlm_sync_enum forward(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
        if (fwIf_) [[likely]]
            return fwIf_->nb_transport_fw(p, ph, t);
        return firstForward(p, ph, t);
    }
    tlm::tlm_sync_enum firstForward(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    // An answer whose checks passed (taken out of outstanding_), at its effective time.
    // endRespOwed: the target awaits END_RESP (it was not completed by a return value).
    // Returns true if the owner took it.
    bool deliver(Payload& p, bool endRespOwed);
    void endRequest(Payload& p);
    void sendEndResp(Payload& p);
    // Checks an answer arriving now (BEGIN_RESP, TLM_COMPLETED) and takes it out of outstanding_.
    void checkAnswer(Payload& p, bool viaBeginResp);
    void later(Payload& p, const tlm::tlm_phase& ph, const sc_core::sc_time& t);
    void onQueued(Payload& p, const tlm::tlm_phase& ph);  // the payload event queue's callback

    struct Held {
        Payload* p;
        bool endRespOwed;
    };

    std::string link_;
    TransportFn fw_;
    FwPeerFn peer_;
    tlm::tlm_fw_transport_if<>* fwIf_ = nullptr;  // peer_(), once asked
    std::function<bool(Payload&)> take_;
    std::function<void()> onEndReq_;
    std::function<void()> onHeld_;
    ResponseCompletion completion_ = ResponseCompletion::Completed;
    Payload* open_ = nullptr;      // awaiting END_REQ (or a BEGIN_RESP, which implies it)
    std::deque<Held> held_;        // answers the owner refused, oldest first
    size_t queuedAnswers_ = 0;     // answers in the payload event queue
    unsigned endRespOwed_ = 0;     // answers queued or held whose target awaits END_RESP
    std::unique_ptr<tlm_utils::peq_with_cb_and_phase<AtInitiatorPort>> peq_;
    uint64_t sent_ = 0;
    // Payload -> the request id it was sent with. Looked up per answer, never iterated for a
    // decision (describeOutstanding sorts). A flat table: no allocation per request.
    PointerMap outstanding_;
};

class AtTargetPort {
public:
    // link: the link's name, for errors. take(p): the owner queues a request now (true) or not
    // yet (false: it is held, END_REQ is withheld, and retryHeldRequest() offers it again).
    // onEndResp: a response was finished.
    void bind(std::string link, TransportFn bw, std::function<bool(Payload&)> take, std::function<void()> onEndResp) {
        link_ = std::move(link);
        bw_ = std::move(bw);
        take_ = std::move(take);
        onEndResp_ = std::move(onEndResp);
    }
    // The same, bound to a socket: `peer` gives the socket's backward interface.
    void bind(std::string link, BwPeerFn peer, std::function<bool(Payload&)> take, std::function<void()> onEndResp) {
        bind(std::move(link), TransportFn(), std::move(take), std::move(onEndResp));
        peer_ = std::move(peer);
    }
    tlm::tlm_sync_enum nbTransportFw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time&);
    // Called each time a request becomes held (the owner refused it), whichever call or queued
    // phase it came in.
    void setOnHeld(std::function<void()> onHeld) { onHeld_ = std::move(onHeld); }
    bool hasHeldRequest() const { return held_ != nullptr; }
    // Offers the held request again; true if the owner took it (END_REQ was sent).
    bool retryHeldRequest();
    bool canRespond() const { return open_ == nullptr; }
    void respond(Payload& p);
    // A BEGIN_REQ or END_RESP in the payload event queue (annotated with a delay, not yet due).
    bool hasQueuedPhase() const { return queued_ != 0; }
    const std::string& link() const { return link_; }

private:
    tlm::tlm_sync_enum backward(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
        if (bwIf_) [[likely]]
            return bwIf_->nb_transport_bw(p, ph, t);
        return firstBackward(p, ph, t);
    }
    tlm::tlm_sync_enum firstBackward(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    void later(Payload& p, const tlm::tlm_phase& ph, const sc_core::sc_time& t);
    void onQueued(Payload& p, const tlm::tlm_phase& ph);  // the payload event queue's callback
    void endResponse(Payload& p);

    std::string link_;
    TransportFn bw_;
    BwPeerFn peer_;
    tlm::tlm_bw_transport_if<>* bwIf_ = nullptr;  // peer_(), once asked
    std::function<bool(Payload&)> take_;
    std::function<void()> onEndResp_;
    std::function<void()> onHeld_;
    Payload* held_ = nullptr;
    Payload* open_ = nullptr;
    Payload* queuedReq_ = nullptr;  // a BEGIN_REQ in the payload event queue
    unsigned queued_ = 0;           // phases in the payload event queue
    std::unique_ptr<tlm_utils::peq_with_cb_and_phase<AtTargetPort>> peq_;
};

} // namespace gpusim
