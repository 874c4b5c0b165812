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
        if (ph != tlm::END_REQ) linkError(link_, "the target returned phase " + phaseName(ph) + " to BEGIN_REQ", p);
        break;
    case tlm::TLM_COMPLETED:
        outstanding_.erase(&p);
        if (!take_(p)) linkError(link_, "the initiator refused an immediately completed request", p);
        break;
    }
}

tlm::tlm_sync_enum AtInitiatorPort::nbTransportBw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
    if (ph == tlm::END_REQ) {
        if (open_ != &p) linkError(link_, "END_REQ for a request that does not await it", p);
        open_ = nullptr;
        if (onEndReq_) onEndReq_();
        return tlm::TLM_ACCEPTED;
    }
    if (ph == tlm::BEGIN_RESP) {
        // Taken out at once (one probe where find() and erase() make two): every check below
        // that fails ends the simulation with a ModelError.
        uint64_t id = 0;
        if (!outstanding_.take(&p, id)) answerNotOutstanding(link_, p);
        if (id != requestIdOf(p))
            linkError(link_, "answer changed the request id (sent as request " + std::to_string(id) + ")", p);
        if (held_) linkError(link_, "BEGIN_RESP while the previous answer awaits END_RESP", p);
        if (open_ == &p) {  // BEGIN_RESP implies END_REQ
            open_ = nullptr;
            if (onEndReq_) onEndReq_();
        }
        if (take_(p)) return tlm::TLM_COMPLETED;
        held_ = &p;
        return tlm::TLM_ACCEPTED;
    }
    linkError(link_, "unexpected phase " + phaseName(ph) + " on the backward path", p);
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
    if (!held_ || !take_(*held_)) return false;
    Payload* p = held_;
    held_ = nullptr;
    tlm::tlm_phase ph = tlm::END_RESP;
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    forward(*p, ph, t);
    return true;
}

tlm::tlm_sync_enum AtTargetPort::nbTransportFw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time&) {
    if (ph == tlm::BEGIN_REQ) {
        if (held_) linkError(link_, "BEGIN_REQ before END_REQ of the previous request", p);
        if (take_(p)) {
            ph = tlm::END_REQ;
            return tlm::TLM_UPDATED;
        }
        held_ = &p;
        return tlm::TLM_ACCEPTED;
    }
    if (ph == tlm::END_RESP) {
        if (open_ != &p) linkError(link_, "END_RESP for an answer that does not await it", p);
        open_ = nullptr;
        if (onEndResp_) onEndResp_();
        return tlm::TLM_COMPLETED;
    }
    linkError(link_, "unexpected phase " + phaseName(ph) + " on the forward path", p);
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
        break;
    case tlm::TLM_COMPLETED: break;
    }
}

} // namespace gpusim
