#include "common/AtPorts.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include "common/GpuExtension.hpp"
#include "common/SimError.hpp"

namespace gpusim {

std::string describeTransaction(const Payload& p) {
    const GpuExtension* e = findGpuExt(p);
    std::ostringstream os;
    if (e)
        os << (e->atomic ? "atomic " : "") << accessKindName(e->kind);
    else
        os << (p.is_write() ? "write" : "read");
    os << " 0x" << std::hex << p.get_address() << std::dec;
    if (!e) return os.str() + " (no GpuExtension)";
    os << " (request " << e->requestId;
    if (e->smId >= 0) os << ", sm" << e->smId << " warp " << e->warpId;
    os << ")";
    return os.str();
}

void linkError(const std::string& link, const std::string& what, const Payload& p) {
    throw ModelError((link.empty() ? std::string("AT link") : link) + ": " + what + ": " + describeTransaction(p));
}

void answerNotOutstanding(const std::string& link, const Payload& p) {
    linkError(link,
              "answer to a request that is not outstanding on this link (answered twice, never sent, or another "
              "link's)",
              p);
}

namespace {

uint64_t requestIdOf(const Payload& p) {
    const GpuExtension* e = findGpuExt(p);
    return e ? e->requestId : 0;
}

std::string phaseName(const tlm::tlm_phase& ph) {
    std::ostringstream os;
    os << ph;
    return os.str();
}

} // namespace

tlm::tlm_sync_enum AtInitiatorPort::firstForward(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    if (!peer_) return fw_(p, ph, t);
    fwIf_ = peer_();
    if (!fwIf_) linkError(link_, "the socket is bound to nothing", p);
    return fwIf_->nb_transport_fw(p, ph, t);
}

tlm::tlm_sync_enum AtTargetPort::firstBackward(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    if (!peer_) return bw_(p, ph, t);
    bwIf_ = peer_();
    if (!bwIf_) linkError(link_, "the socket is bound to nothing", p);
    return bwIf_->nb_transport_bw(p, ph, t);
}

namespace {
// Payload event queue entries that are no phase of the peer's: an answer completed by a return
// value (no END_RESP owed) due at its annotated time, and an END_RESP this end sends a delta cycle
// after taking an answer inside the BEGIN_RESP call (the end_resp answering style).
DECLARE_EXTENDED_PHASE(gpusim_completed_answer);
DECLARE_EXTENDED_PHASE(gpusim_send_end_resp);
} // namespace

void AtInitiatorPort::later(Payload& p, const tlm::tlm_phase& ph, const sc_core::sc_time& t) {
    if (!peq_)
        peq_ = std::make_unique<tlm_utils::peq_with_cb_and_phase<AtInitiatorPort>>(this, &AtInitiatorPort::onQueued);
    peq_->notify(p, ph, t);
}

void AtInitiatorPort::checkAnswer(Payload& p, bool viaBeginResp) {
    // Taken out at once (one probe where find() and erase() make two): every check below
    // that fails ends the simulation with a ModelError.
    uint64_t id = 0;
    if (!outstanding_.take(&p, id)) answerNotOutstanding(link_, p);
    if (id != requestIdOf(p))
        linkError(link_, "answer changed the request id (sent as request " + std::to_string(id) + ")", p);
    if (viaBeginResp && endRespOwed_) linkError(link_, "BEGIN_RESP while the previous answer awaits END_RESP", p);
}

void AtInitiatorPort::endRequest(Payload& p) {
    if (open_ != &p) return;  // a BEGIN_RESP due earlier implied it
    open_ = nullptr;
    if (onEndReq_) onEndReq_();
}

// The owner may release a payload when it takes the answer (an L2 its write-back's: nothing waits
// for it); an END_RESP still owed to the target must reach it alive, so the port holds a
// reference from before the take until that END_RESP is sent.
bool AtInitiatorPort::deliver(Payload& p, bool endRespOwed) {
    endRequest(p);  // an answer implies END_REQ
    if (!endRespOwed) {
        if (take_(p)) return true;
    } else {
        holdPayload(p);
        const bool taken = take_(p);
        if (taken) sendEndResp(p);
        unholdPayload(p);
        if (taken) return true;
    }
    held_.push_back({&p, endRespOwed});
    if (onHeld_) onHeld_();
    return false;
}

void AtInitiatorPort::sendEndResp(Payload& p) {
    --endRespOwed_;  // before the call: the target may begin its next answer inside it
    tlm::tlm_phase ph = tlm::END_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    forward(p, ph, t);
}

void AtInitiatorPort::send(Payload& p) {
    if (open_) linkError(link_, "BEGIN_REQ while another request awaits END_REQ", p);
    if (!outstanding_.insert(&p, requestIdOf(p)))
        linkError(link_, "request sent again while it is still outstanding", p);
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    ++sent_;
    switch (forward(p, ph, t)) {
    case tlm::TLM_ACCEPTED: open_ = &p; break;
    case tlm::TLM_UPDATED:
        if (ph == tlm::END_REQ) {
            if (t == sc_core::SC_ZERO_TIME) break;
            open_ = &p;  // accepted at the annotated time
            later(p, tlm::END_REQ, t);
        } else if (ph == tlm::BEGIN_RESP) {  // an implicit END_REQ; the target awaits END_RESP
            checkAnswer(p, true);
            ++endRespOwed_;
            if (t == sc_core::SC_ZERO_TIME) {
                deliver(p, true);
                break;
            }
            open_ = &p;
            ++queuedAnswers_;
            later(p, tlm::BEGIN_RESP, t);
        } else {
            linkError(link_, "the target returned phase " + phaseName(ph) + " to BEGIN_REQ", p);
        }
        break;
    case tlm::TLM_COMPLETED:
        checkAnswer(p, false);
        if (t == sc_core::SC_ZERO_TIME) {
            deliver(p, false);
            break;
        }
        open_ = &p;
        ++queuedAnswers_;
        later(p, gpusim_completed_answer, t);
        break;
    }
}

tlm::tlm_sync_enum AtInitiatorPort::nbTransportBw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    if (ph == tlm::END_REQ) {
        if (open_ != &p) linkError(link_, "END_REQ for a request that does not await it", p);
        if (t == sc_core::SC_ZERO_TIME)
            endRequest(p);
        else
            later(p, tlm::END_REQ, t);
        return tlm::TLM_ACCEPTED;
    }
    if (ph == tlm::BEGIN_RESP) {
        checkAnswer(p, true);
        if (t != sc_core::SC_ZERO_TIME) {  // taken at its time, then finished with END_RESP
            ++endRespOwed_;
            ++queuedAnswers_;
            later(p, tlm::BEGIN_RESP, t);
            return tlm::TLM_ACCEPTED;
        }
        endRequest(p);  // BEGIN_RESP implies END_REQ
        if (completion_ == ResponseCompletion::Completed) {
            if (take_(p)) return tlm::TLM_COMPLETED;
        } else {
            holdPayload(p);  // released once the END_RESP is sent
            if (take_(p)) {
                ++endRespOwed_;
                later(p, gpusim_send_end_resp, sc_core::SC_ZERO_TIME);
                return tlm::TLM_ACCEPTED;
            }
            unholdPayload(p);
        }
        ++endRespOwed_;
        held_.push_back({&p, true});
        if (onHeld_) onHeld_();
        return tlm::TLM_ACCEPTED;
    }
    linkError(link_, "unexpected phase " + phaseName(ph) + " on the backward path", p);
}

void AtInitiatorPort::onQueued(Payload& p, const tlm::tlm_phase& ph) {
    if (ph == tlm::END_REQ) {
        endRequest(p);
    } else if (ph == tlm::BEGIN_RESP) {
        --queuedAnswers_;
        deliver(p, true);
    } else if (ph == gpusim_completed_answer) {
        --queuedAnswers_;
        deliver(p, false);
    } else {  // gpusim_send_end_resp
        sendEndResp(p);
        unholdPayload(p);
    }
}

std::string AtInitiatorPort::describeOutstanding(size_t max) const {
    if (outstanding_.empty()) return "none";
    std::vector<std::pair<uint64_t, const Payload*>> byId;
    byId.reserve(outstanding_.size());
    outstanding_.forEach(
        [&](const void* p, uint64_t id) { byId.emplace_back(id, static_cast<const Payload*>(p)); });
    std::sort(byId.begin(), byId.end());
    std::ostringstream os;
    for (size_t i = 0; i < byId.size() && i < max; ++i) os << (i ? ", " : "") << describeTransaction(*byId[i].second);
    if (byId.size() > max) os << ", ... (" << byId.size() - max << " more)";
    return os.str();
}

bool AtInitiatorPort::retryHeldResponse() {
    if (held_.empty()) return false;
    const Held h = held_.front();
    if (h.endRespOwed) holdPayload(*h.p);
    const bool taken = take_(*h.p);
    if (taken) {
        held_.pop_front();
        if (h.endRespOwed) sendEndResp(*h.p);
    }
    if (h.endRespOwed) unholdPayload(*h.p);
    return taken;
}

void AtTargetPort::later(Payload& p, const tlm::tlm_phase& ph, const sc_core::sc_time& t) {
    if (!peq_) peq_ = std::make_unique<tlm_utils::peq_with_cb_and_phase<AtTargetPort>>(this, &AtTargetPort::onQueued);
    ++queued_;
    peq_->notify(p, ph, t);
}

void AtTargetPort::endResponse(Payload& p) {
    if (open_ != &p) return;
    open_ = nullptr;
    if (onEndResp_) onEndResp_();
}

tlm::tlm_sync_enum AtTargetPort::nbTransportFw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    if (ph == tlm::BEGIN_REQ) {
        if (held_ || queuedReq_) linkError(link_, "BEGIN_REQ before END_REQ of the previous request", p);
        if (t != sc_core::SC_ZERO_TIME) {  // offered to the owner at its time; END_REQ then
            queuedReq_ = &p;
            later(p, tlm::BEGIN_REQ, t);
            return tlm::TLM_ACCEPTED;
        }
        if (take_(p)) {
            ph = tlm::END_REQ;
            return tlm::TLM_UPDATED;
        }
        held_ = &p;
        if (onHeld_) onHeld_();
        return tlm::TLM_ACCEPTED;
    }
    if (ph == tlm::END_RESP) {
        if (open_ != &p) linkError(link_, "END_RESP for an answer that does not await it", p);
        if (t == sc_core::SC_ZERO_TIME)
            endResponse(p);
        else
            later(p, tlm::END_RESP, t);
        return tlm::TLM_COMPLETED;
    }
    linkError(link_, "unexpected phase " + phaseName(ph) + " on the forward path", p);
}

void AtTargetPort::onQueued(Payload& p, const tlm::tlm_phase& ph) {
    --queued_;
    if (ph == tlm::END_RESP) {
        endResponse(p);
        return;
    }
    queuedReq_ = nullptr;
    if (take_(p)) {
        tlm::tlm_phase end = tlm::END_REQ;
        sc_core::sc_time t = sc_core::SC_ZERO_TIME;
        backward(p, end, t);
        return;
    }
    held_ = &p;
    if (onHeld_) onHeld_();
}

bool AtTargetPort::retryHeldRequest() {
    if (!held_ || !take_(*held_)) return false;
    Payload* p = held_;
    held_ = nullptr;
    tlm::tlm_phase ph = tlm::END_REQ;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    backward(*p, ph, t);
    return true;
}

void AtTargetPort::respond(Payload& p) {
    if (open_) linkError(link_, "BEGIN_RESP while the previous answer awaits END_RESP", p);
    tlm::tlm_phase ph = tlm::BEGIN_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    switch (backward(p, ph, t)) {
    case tlm::TLM_ACCEPTED: open_ = &p; break;
    case tlm::TLM_UPDATED:
        if (ph != tlm::END_RESP) linkError(link_, "the initiator returned phase " + phaseName(ph) + " to BEGIN_RESP", p);
        [[fallthrough]];
    case tlm::TLM_COMPLETED:
        if (t == sc_core::SC_ZERO_TIME) break;
        open_ = &p;  // finished at the annotated time
        later(p, tlm::END_RESP, t);
        break;
    }
}

} // namespace gpusim
