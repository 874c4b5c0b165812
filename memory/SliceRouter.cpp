#include "memory/SliceRouter.hpp"

#include <sstream>
#include <stdexcept>

namespace gpusim {

// The router needs an answer beyond the moment the NoC side completes it (to send END_RESP to
// the slice afterwards), and the originator may release it then: it holds a reference meanwhile
// (holdPayload).

SliceRouter::SliceRouter(sc_core::sc_module_name name, const AddressMap& map, unsigned slices)
    : sc_module(name), nocSide("nocSide"), map_(map), n_(slices), heldAnswer_(slices, nullptr) {
    nocSide.register_nb_transport_fw(this, &SliceRouter::nocFw);
    for (unsigned k = 0; k < n_; ++k) {
        sliceSide.push_back(std::make_unique<tlm_utils::simple_initiator_socket_tagged<SliceRouter>>(
            ("slice" + std::to_string(k)).c_str()));
        sliceSide.back()->register_nb_transport_bw(this, &SliceRouter::sliceBw, static_cast<int>(k));
    }
    SC_HAS_PROCESS(SliceRouter);
    SC_METHOD(forwardHeldAnswer);
    sensitive << held_;
    dont_initialize();
}

tlm::tlm_sync_enum SliceRouter::toNoc(Payload& p, tlm::tlm_phase ph) {
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    const tlm::tlm_sync_enum r = nocSide->nb_transport_bw(p, ph, t);
    if (r == tlm::TLM_UPDATED && ph != tlm::END_RESP && ph != tlm::END_REQ)
        throw std::logic_error(std::string(name()) + ": unsupported phase from the NoC");
    return r;
}

tlm::tlm_sync_enum SliceRouter::toSlice(unsigned k, Payload& p, tlm::tlm_phase ph) {
    sc_core::sc_time t = sc_core::SC_ZERO_TIME;
    return (*sliceSide[k])->nb_transport_fw(p, ph, t);
}

tlm::tlm_sync_enum SliceRouter::nocFw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    if (ph == tlm::BEGIN_REQ) {
        if (reqOpen_) throw std::logic_error(std::string(name()) + ": BEGIN_REQ before END_REQ");
        const unsigned k = map_.subPartition(p.get_address(), n_);
        const tlm::tlm_sync_enum r = (*sliceSide[k])->nb_transport_fw(p, ph, t);
        if (r == tlm::TLM_ACCEPTED) reqOpen_ = &p;
        return r;
    }
    if (ph == tlm::END_RESP) {
        if (respOpen_ < 0) throw std::logic_error(std::string(name()) + ": END_RESP with no answer open");
        const unsigned k = static_cast<unsigned>(respOpen_);
        respOpen_ = -1;
        toSlice(k, p, tlm::END_RESP);
        unholdPayload(p);
        held_.notify(sc_core::SC_ZERO_TIME);
        return tlm::TLM_COMPLETED;
    }
    throw std::logic_error(std::string(name()) + ": unexpected phase from the NoC");
}

tlm::tlm_sync_enum SliceRouter::sliceBw(int id, Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    const unsigned k = static_cast<unsigned>(id);
    if (ph == tlm::END_REQ) {
        if (reqOpen_ != &p) throw std::logic_error(std::string(name()) + ": END_REQ for a payload not open");
        reqOpen_ = nullptr;
        toNoc(p, tlm::END_REQ);
        return tlm::TLM_ACCEPTED;
    }
    if (ph == tlm::BEGIN_RESP) {
        if (reqOpen_ == &p) reqOpen_ = nullptr;  // BEGIN_RESP implies END_REQ (passed on with it)
        bool othersHeld = false;
        for (const Payload* h : heldAnswer_) othersHeld |= h != nullptr;
        if (respOpen_ >= 0 || othersHeld) {
            if (heldAnswer_[k]) throw std::logic_error(std::string(name()) + ": second answer before END_RESP");
            heldAnswer_[k] = &p;
            holdPayload(p);
            held_.notify(sc_core::SC_ZERO_TIME);
            return tlm::TLM_ACCEPTED;
        }
        holdPayload(p);
        const tlm::tlm_sync_enum r = nocSide->nb_transport_bw(p, ph, t);
        if (r == tlm::TLM_ACCEPTED)
            respOpen_ = static_cast<int>(k);  // released after END_RESP reached the slice
        else
            unholdPayload(p);
        return r;
    }
    throw std::logic_error(std::string(name()) + ": unexpected phase from a slice");
}

void SliceRouter::forwardHeldAnswer() {
    while (respOpen_ < 0) {
        int pick = -1;
        for (unsigned i = 0; i < n_ && pick < 0; ++i) {
            const unsigned k = (next_ + i) % n_;
            if (heldAnswer_[k]) pick = static_cast<int>(k);
        }
        if (pick < 0) return;
        const unsigned k = static_cast<unsigned>(pick);
        next_ = (k + 1) % n_;
        Payload* p = heldAnswer_[k];
        heldAnswer_[k] = nullptr;
        const tlm::tlm_sync_enum r = toNoc(*p, tlm::BEGIN_RESP);
        if (r == tlm::TLM_ACCEPTED) {
            respOpen_ = static_cast<int>(k);  // END_RESP comes from the NoC later
        } else {
            toSlice(k, *p, tlm::END_RESP);  // the NoC completed it at once: finish it at the slice
            unholdPayload(*p);
        }
    }
}

bool SliceRouter::quiescent() const {
    for (const Payload* h : heldAnswer_)
        if (h) return false;
    return reqOpen_ == nullptr && respOpen_ < 0;
}

std::string SliceRouter::dumpState() const {
    std::ostringstream os;
    unsigned held = 0;
    for (const Payload* h : heldAnswer_) held += h ? 1 : 0;
    os << (reqOpen_ ? "a request awaits END_REQ from its slice; " : "") << held << " answers held"
       << (respOpen_ >= 0 ? ", one awaits END_RESP" : "");
    return os.str();
}

} // namespace gpusim
