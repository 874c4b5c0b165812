#pragma once
// A misbehaving TLM target for the fault-injection tests (docs/cosimulation.md, "When your
// target misbehaves"): a LinkInterposer spliced in front of a correct target, on the L2-to-
// memory link (a user's memory through GpuOptions::externalMemory) or the NoC-to-L2 link (a
// user's L2 through a LinkHook), that passes the base protocol through unchanged except for the
// one fault it is given. Seen from the GPU, the interposer and the target behind it are one
// target that misbehaves:
//   ErrorResponse  the nth matching answer carries TLM_ADDRESS_ERROR_RESPONSE;
//   Hang           the nth matching request is never answered (the target behind it is
//                  finished with TLM_COMPLETED, the GPU never hears of it);
//   Duplicate      the nth matching answer is sent again `delay` after the first, whatever has
//                  happened to the payload since;
//   Throttle       at most one request is accepted per `delay` (a late END_REQ for the others:
//                  a back-pressure storm, legal and slow);
//   Throw          nb_transport_fw throws std::runtime_error on the nth matching request.
// "Matching" is by access kind (GpuExtension::kind), any kind when `kind` is unset. The times of
// what it did are kept, so a test can check that an error came at once.
#include <cstdint>
#include <deque>
#include <optional>
#include <stdexcept>
#include <string>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/AtPorts.hpp"
#include "common/GpuExtension.hpp"
#include "common/LinkInterposer.hpp"

namespace gpusim::tb {

struct Fault {
    enum class Mode { None, ErrorResponse, Hang, Duplicate, Throttle, Throw };
    Mode mode = Mode::None;
    std::optional<AccessKind> kind;               // which transactions count; unset: all
    unsigned nth = 1;                             // the fault hits the nth matching one (1-based)
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;  // Duplicate: after the first answer; Throttle: interval
};

class FaultInjector : public sc_core::sc_module, public LinkInterposer {
public:
    FaultInjector(sc_core::sc_module_name name, const Fault& fault) : sc_module(name), fault_(fault) {
        in_.register_nb_transport_fw(this, &FaultInjector::fw);
        out_.register_nb_transport_bw(this, &FaultInjector::bw);
        SC_HAS_PROCESS(FaultInjector);
        SC_METHOD(sendDuplicate);
        sensitive << duplicateEvent_;
        dont_initialize();
        SC_METHOD(acceptHeld);
        sensitive << acceptEvent_;
        dont_initialize();
    }

    tlm::tlm_target_socket<32>& in() override { return in_; }
    tlm::tlm_initiator_socket<32>& out() override { return out_; }

    // What the fault did: the transaction it hit ("" before it hit) and when (the duplicate's
    // time for Duplicate).
    const std::string& hit() const { return hit_; }
    sc_core::sc_time hitTime() const { return hitTime_; }
    uint64_t hitAddress() const { return hitAddress_; }
    uint64_t requests() const { return requests_; }
    uint64_t heldRequests() const { return held_; }

private:
    using Payload = tlm::tlm_generic_payload;

    bool matches(Payload& p) const { return !fault_.kind || gpuExt(p).kind == *fault_.kind; }
    // Counts matching transactions seen at one point (requests or answers) and says whether this
    // one is the nth.
    bool isNth(Payload& p, unsigned& seen) {
        if (!matches(p)) return false;
        return ++seen == fault_.nth;
    }
    void record(Payload& p) {
        hit_ = describeTransaction(p);
        hitAddress_ = p.get_address();
        hitTime_ = sc_core::sc_time_stamp();
    }

    tlm::tlm_sync_enum fw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
        if (ph == tlm::BEGIN_REQ) {
            ++requests_;
            if (fault_.mode == Fault::Mode::Throw && isNth(p, requestsSeen_)) {
                record(p);
                throw std::runtime_error("user target: injected failure on " + hit_);
            }
            if (fault_.mode == Fault::Mode::Hang && isNth(p, requestsSeen_)) {
                record(p);
                hung_ = &p;
            }
            if (fault_.mode == Fault::Mode::Throttle) {
                const sc_core::sc_time now = sc_core::sc_time_stamp();
                if (now < nextAccept_) {  // END_REQ when the interval has passed
                    waiting_.push_back(&p);
                    ++held_;
                    if (waiting_.size() == 1) acceptEvent_.notify(nextAccept_ - now);
                    return tlm::TLM_ACCEPTED;
                }
                nextAccept_ = now + fault_.delay;
            }
        }
        return out_->nb_transport_fw(p, ph, t);
    }

    tlm::tlm_sync_enum bw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t) {
        if (ph == tlm::BEGIN_RESP) {
            if (&p == hung_) {
                hung_ = nullptr;
                return tlm::TLM_COMPLETED;  // the target behind is done; the GPU never hears
            }
            if (fault_.mode == Fault::Mode::ErrorResponse && isNth(p, answersSeen_)) {
                record(p);
                p.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
            }
            if (fault_.mode == Fault::Mode::Duplicate && isNth(p, answersSeen_)) {
                record(p);  // hitTime_ becomes the duplicate's time when it is sent
                duplicate_ = &p;
                duplicateEvent_.notify(fault_.delay);
            }
        }
        return in_->nb_transport_bw(p, ph, t);
    }

    // Duplicate: the same payload answered again. The first answer's END_RESP (if any) has been
    // passed to the target behind; this one belongs to nobody, so its outcome is the GPU's error.
    void sendDuplicate() {
        hitTime_ = sc_core::sc_time_stamp();
        tlm::tlm_phase ph = tlm::BEGIN_RESP;
        sc_core::sc_time t = sc_core::SC_ZERO_TIME;
        in_->nb_transport_bw(*duplicate_, ph, t);
    }

    // Throttle: pass the oldest held request on and give its END_REQ, one per interval.
    void acceptHeld() {
        Payload* p = waiting_.front();
        waiting_.pop_front();
        nextAccept_ = sc_core::sc_time_stamp() + fault_.delay;
        tlm::tlm_phase ph = tlm::BEGIN_REQ;
        sc_core::sc_time t = sc_core::SC_ZERO_TIME;
        const tlm::tlm_sync_enum r = out_->nb_transport_fw(*p, ph, t);
        if (r != tlm::TLM_UPDATED || ph != tlm::END_REQ)
            throw std::logic_error("FaultInjector: Throttle needs a target that accepts at once");
        ph = tlm::END_REQ;
        in_->nb_transport_bw(*p, ph, t);
        if (!waiting_.empty()) acceptEvent_.notify(fault_.delay);
    }

    Fault fault_;
    tlm_utils::simple_target_socket<FaultInjector> in_{"in"};
    tlm_utils::simple_initiator_socket<FaultInjector> out_{"out"};
    unsigned requestsSeen_ = 0, answersSeen_ = 0;
    uint64_t requests_ = 0, held_ = 0;
    Payload* hung_ = nullptr;
    Payload* duplicate_ = nullptr;
    std::deque<Payload*> waiting_;
    sc_core::sc_time nextAccept_ = sc_core::SC_ZERO_TIME;
    sc_core::sc_event duplicateEvent_, acceptEvent_;
    std::string hit_;
    uint64_t hitAddress_ = 0;
    sc_core::sc_time hitTime_ = sc_core::SC_ZERO_TIME;
};

} // namespace gpusim::tb
