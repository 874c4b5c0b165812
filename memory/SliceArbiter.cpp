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

SliceArbiter::MemoryTook SliceArbiter::toMemory(unsigned k, Payload& p, sc_core::sc_time& t) {
    owner_[&p] = k;
    tlm::tlm_phase ph = tlm::BEGIN_REQ;
    t = sc_core::SC_ZERO_TIME;
    switch (memSide->nb_transport_fw(p, ph, t)) {
    case tlm::TLM_ACCEPTED:
        reqOpen_ = &p;
        reqOpenSlice_ = k;
        return MemoryTook::Open;
    case tlm::TLM_UPDATED:
        if (ph == tlm::END_REQ) {
            memoryFreeAfter(t, false);  // accepted at the annotated time
            return MemoryTook::Accepted;
        }
        if (ph != tlm::BEGIN_RESP) linkError(memLink_, "the memory returned a phase other than END_REQ or BEGIN_RESP to BEGIN_REQ", p);
        break;
    case tlm::TLM_COMPLETED:
        break;
    }
    // Answered inside the call (an implicit END_REQ at the annotated time): the request is no
    // longer the memory's.
    checkAnswerSlot(p);
    answersInCall_ = true;
    owner_.erase(&p);
    return ph == tlm::BEGIN_RESP ? MemoryTook::Answered : MemoryTook::Completed;
}

void SliceArbiter::checkAnswerSlot(Payload& p) const {
    if (respOpen_ < 0) return;
    if (respEndToMemory_) linkError(memLink_, "BEGIN_RESP while the previous answer awaits END_RESP", p);
    // The previous answer was completed early by the memory and its slice has not ended it yet:
    // the arbiter has one answer in flight to the slices (a limitation, docs/cosimulation.md).
    linkError(memLink_, "an answer while a slice has not yet ended the previous, early-completed one (behind a "
                        "slice arbiter, an early completion must be ended by its slice before the next answer)", p);
}

void SliceArbiter::answerWaitingSlice(unsigned k, Payload& p, const sc_core::sc_time& t, bool memoryAwaitsEndResp) {
    tlm::tlm_phase ph = tlm::BEGIN_RESP;  // implies the END_REQ the slice still waits for
    sc_core::sc_time d = t;
    const tlm::tlm_sync_enum r = (*sliceSide[k])->nb_transport_bw(p, ph, d);
    if (r == tlm::TLM_ACCEPTED) {  // the slice ends it with END_RESP later
        respOpen_ = static_cast<int>(k);
        respEndToMemory_ = memoryAwaitsEndResp;
        return;
    }
    if (!memoryAwaitsEndResp) return;
    tlm::tlm_phase end = tlm::END_RESP;  // the slice finished it in its return: so does the memory
    memSide->nb_transport_fw(p, end, d);
}

tlm::tlm_sync_enum SliceArbiter::sliceFw(int id, Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
    const unsigned k = static_cast<unsigned>(id);
    if (ph == tlm::BEGIN_REQ) {
        if (waitingReq_[k]) throw ModelError(std::string(name()) + ": BEGIN_REQ before END_REQ from slice " + std::to_string(k));
        bool othersWaiting = false;
        for (const Payload* w : waitingReq_) othersWaiting |= w != nullptr;
        sc_core::sc_time taken;
        if (!reqOpen_ && !othersWaiting && sc_core::sc_time_stamp() >= reqFreeAt_ && !answerBlocksRequests()) {
            switch (toMemory(k, p, taken)) {
            case MemoryTook::Open: break;
            case MemoryTook::Accepted:
                ph = tlm::END_REQ;
                t += taken;
                return tlm::TLM_UPDATED;
            case MemoryTook::Answered:  // the slice gets the same answer; its END_RESP goes on to memory
                memoryFreeAfter(taken, false);
                respOpen_ = static_cast<int>(k);
                respEndToMemory_ = true;
                ph = tlm::BEGIN_RESP;
                t += taken;
                return tlm::TLM_UPDATED;
            case MemoryTook::Completed:
                memoryFreeAfter(taken, false);
                t += taken;
                return tlm::TLM_COMPLETED;
            }
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
        if (respEndToMemory_) {
            tlm::tlm_phase end = tlm::END_RESP;
            memSide->nb_transport_fw(p, end, t);  // with the slice's annotation
        }
        if (answersInCall_) waiting_.notify(t);  // requests held back by answerBlocksRequests()
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
        checkAnswerSlot(p);
        const tlm::tlm_sync_enum r = (*sliceSide[k])->nb_transport_bw(p, ph, t);
        if (r == tlm::TLM_ACCEPTED) {
            respOpen_ = static_cast<int>(k);
            respEndToMemory_ = true;
        }
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
    while (!reqOpen_ && sc_core::sc_time_stamp() >= reqFreeAt_ && !answerBlocksRequests()) {
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
        sc_core::sc_time taken;
        const MemoryTook took = toMemory(k, *p, taken);
        switch (took) {
        case MemoryTook::Open: break;
        case MemoryTook::Accepted: toSlice(k, *p, tlm::END_REQ, taken); break;  // the slice may go on
        case MemoryTook::Answered:
        case MemoryTook::Completed: {
            // The slice got TLM_ACCEPTED and waits for END_REQ: the answer goes to it on the
            // backward path, at the memory's annotated time.
            const bool awaitsEndResp = took == MemoryTook::Answered;
            memoryFreeAfter(taken, true);
            answerWaitingSlice(k, *p, taken, awaitsEndResp);
            break;
        }
        }
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
