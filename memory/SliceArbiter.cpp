#include "memory/SliceArbiter.hpp"

#include <sstream>

#include "common/SimError.hpp"

namespace gpusim {

SliceArbiter::SliceArbiter(sc_core::sc_module_name name, unsigned slices, unsigned partition)
    : sc_module(name), memSide("memSide"), n_(slices), memLink_("l2." + std::to_string(partition) + "->mem"),
      waitingReq_(slices, nullptr) {
    for (unsigned k = 0; k < n_; ++k) {
        sliceSide.push_back(std::make_unique<tlm_utils::simple_target_socket_tagged<SliceArbiter>>(
            ("slice" + std::to_string(k)).c_str()));
        sliceSide.back()->register_nb_transport_fw(this, &SliceArbiter::sliceFw, static_cast<int>(k));
    }
    memSide.register_nb_transport_bw(this, &SliceArbiter::memBw);
    SC_HAS_PROCESS(SliceArbiter);
    SC_METHOD(forwardWaiting);
    sensitive << waiting_;
    dont_initialize();
}

tlm::tlm_sync_enum SliceArbiter::toSlice(unsigned k, Payload& p, tlm::tlm_phase ph, sc_core::sc_time t) {
    return (*sliceSide[k])->nb_transport_bw(p, ph, t);
}

void SliceArbiter::memoryFreeAfter(const sc_core::sc_time& t, bool passWaiting) {
    reqFreeAt_ = sc_core::sc_time_stamp() + t;
    if (passWaiting || t != sc_core::SC_ZERO_TIME) waiting_.notify(t);
}

bool SliceArbiter::toMemory(unsigned k, Payload& p, sc_core::sc_time& t) {
    owner_[&p] = k;
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    t = sc_core::SC_ZERO_TIME;
    switch (memSide->nb_transport_fw(p, ph, t)) {
    case tlm::TLM_ACCEPTED:
        reqOpen_ = &p;
        reqOpenSlice_ = k;
        return false;
    case tlm::TLM_UPDATED:
        if (ph != tlm::END_REQ)
            linkError(memLink_, "the memory returned " + std::string(ph == tlm::BEGIN_RESP ? "BEGIN_RESP" : "a phase") +
                                    " to BEGIN_REQ (not supported behind a slice arbiter)",
                      p);
        memoryFreeAfter(t, false);  // accepted at the annotated time
        return true;
    case tlm::TLM_COMPLETED:
        linkError(memLink_, "the memory completed a request at once (not supported behind a slice arbiter)", p);
    }
    return true;
}

tlm::tlm_sync_enum SliceArbiter::sliceFw(int id, Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    const unsigned k = static_cast<unsigned>(id);
    if (ph == tlm::BEGIN_REQ) {
        if (waitingReq_[k]) throw ModelError(std::string(name()) + ": BEGIN_REQ before END_REQ from slice " + std::to_string(k));
        bool othersWaiting = false;
        for (const Payload* w : waitingReq_) othersWaiting |= w != nullptr;
        sc_core::sc_time accepted;
        if (!reqOpen_ && !othersWaiting && sc_core::sc_time_stamp() >= reqFreeAt_ && toMemory(k, p, accepted)) {
            ph = tlm::END_REQ;
            t += accepted;
            return tlm::TLM_UPDATED;
        }
        if (reqOpen_ != &p) {  // wait for the memory link (END_REQ withheld)
            waitingReq_[k] = &p;
            waiting_.notify(sc_core::SC_ZERO_TIME);
        }
        return tlm::TLM_ACCEPTED;
    }
    if (ph == tlm::END_RESP) {
        if (respOpen_ != static_cast<int>(k))
            throw ModelError(std::string(name()) + ": END_RESP from slice " + std::to_string(k) + ", which has no answer open");
        respOpen_ = -1;
        tlm::tlm_phase end = tlm::END_RESP;
        memSide->nb_transport_fw(p, end, t);  // with the slice's annotation
        return tlm::TLM_COMPLETED;
    }
    throw ModelError(std::string(name()) + ": unexpected phase from slice " + std::to_string(k));
}

tlm::tlm_sync_enum SliceArbiter::memBw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    if (ph == tlm::END_REQ) {
        if (reqOpen_ != &p) linkError(memLink_, "END_REQ for a request that does not await it", p);
        reqOpen_ = nullptr;
        toSlice(reqOpenSlice_, p, tlm::END_REQ, t);
        memoryFreeAfter(t, true);
        return tlm::TLM_ACCEPTED;
    }
    if (ph == tlm::BEGIN_RESP) {
        const auto it = owner_.find(&p);
        if (it == owner_.end()) answerNotOutstanding(memLink_, p);
        const unsigned k = it->second;
        owner_.erase(it);
        if (reqOpen_ == &p) {  // BEGIN_RESP implies END_REQ; the slice's port infers it too
            reqOpen_ = nullptr;
            memoryFreeAfter(t, true);
        }
        if (respOpen_ >= 0) linkError(memLink_, "BEGIN_RESP while the previous answer awaits END_RESP", p);
        const tlm::tlm_sync_enum r = (*sliceSide[k])->nb_transport_bw(p, ph, t);
        if (r == tlm::TLM_ACCEPTED) respOpen_ = static_cast<int>(k);
        return r;
    }
    linkError(memLink_, "unexpected phase on the backward path", p);
}

void SliceArbiter::forwardWaiting() {
    const sc_core::sc_time now = sc_core::sc_time_stamp();
    if (now < reqFreeAt_) {  // the last END_REQ takes effect later
        waiting_.notify(reqFreeAt_ - now);
        return;
    }
    while (!reqOpen_ && sc_core::sc_time_stamp() >= reqFreeAt_) {
        int pick = -1;
        for (unsigned i = 0; i < n_ && pick < 0; ++i) {
            const unsigned k = (next_ + i) % n_;
            if (waitingReq_[k]) pick = static_cast<int>(k);
        }
        if (pick < 0) return;
        const unsigned k = static_cast<unsigned>(pick);
        next_ = (k + 1) % n_;
        Payload* p = waitingReq_[k];
        waitingReq_[k] = nullptr;
        sc_core::sc_time accepted;
        if (toMemory(k, *p, accepted)) toSlice(k, *p, tlm::END_REQ, accepted);  // taken: the slice may go on
    }
}

bool SliceArbiter::quiescent() const {
    for (const Payload* w : waitingReq_)
        if (w) return false;
    return reqOpen_ == nullptr && respOpen_ < 0 && owner_.empty();
}

std::string SliceArbiter::dumpState() const {
    std::ostringstream os;
    unsigned waiting = 0;
    for (const Payload* w : waitingReq_) waiting += w ? 1 : 0;
    os << owner_.size() << " requests in memory, " << waiting << " waiting for the memory link"
       << (reqOpen_ ? ", one awaits END_REQ" : "") << (respOpen_ >= 0 ? ", an answer awaits END_RESP" : "");
    return os.str();
}

} // namespace gpusim
