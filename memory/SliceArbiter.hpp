#pragma once
// Two (or more) L2 slices in front of one memory controller (GPGPU-Sim's sub-partitions share
// their partition's DRAM). A zero-time TLM-2.0 AT pass-through with no queue of its own:
//  - a slice's request goes straight to memory when the memory link has no request awaiting
//    END_REQ and no other slice is waiting; otherwise the slice gets TLM_ACCEPTED (END_REQ
//    withheld) and its request is passed on, slices in round-robin order, a delta cycle after
//    the open one got its END_REQ (never from inside the memory's own call);
//  - memory's answers go back to the slice that sent the request, END_RESP passed through.
// Annotated delays pass through: an END_REQ's delay reaches the slice with it, and no other
// request goes to memory before it takes effect; a BEGIN_RESP's delay and an END_RESP's too. A
// memory that answers inside the BEGIN_REQ call (TLM_UPDATED with BEGIN_RESP, or TLM_COMPLETED)
// answers the slice the same way when the slice's own call is the one being served (the same
// return, the delays added), and otherwise (the slice's request waited and got TLM_ACCEPTED)
// with a BEGIN_RESP on the backward path at the memory's annotated time; the memory gets the
// END_RESP it awaits (after TLM_UPDATED with BEGIN_RESP) when the slice ends the answer, and
// none after TLM_COMPLETED. One answer is open toward the slices at a time, so once a memory
// has answered inside a call, no request goes to it while an answer is open toward a slice (it
// could not be passed on); a memory that answers later is never held back. A memory's answer to a request it does not hold (a duplicate, an
// invented one) is a ModelError naming the memory link.
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "common/AtPorts.hpp"

namespace gpusim {

class SliceArbiter : public sc_core::sc_module {
public:
    // partition: the partition it serves, for the memory link's name ("l2.<partition>->mem").
    SliceArbiter(sc_core::sc_module_name name, unsigned slices, unsigned partition);

    // One per slice, slice k of the partition at index k.
    std::vector<std::unique_ptr<tlm_utils::simple_target_socket_tagged<SliceArbiter>>> sliceSide;
    tlm_utils::simple_initiator_socket<SliceArbiter> memSide;

    bool quiescent() const;
    std::string dumpState() const;

private:
    tlm::tlm_sync_enum sliceFw(int k, Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    tlm::tlm_sync_enum memBw(Payload& p, tlm::tlm_phase& ph, sc_core::sc_time& t);
    tlm::tlm_sync_enum toSlice(unsigned k, Payload& p, tlm::tlm_phase ph, sc_core::sc_time t);
    // What the memory's return to a BEGIN_REQ said: TLM_ACCEPTED (END_REQ to come), END_REQ, an
    // answer awaiting END_RESP (TLM_UPDATED with BEGIN_RESP), or an early completion.
    enum class MemoryTook { Open, Accepted, Answered, Completed };
    // Sends one request to memory; `t` is the return's annotated delay.
    MemoryTook toMemory(unsigned k, Payload& p, sc_core::sc_time& t);
    // An answer the memory returned to a request of slice k that waits for END_REQ: BEGIN_RESP
    // to the slice `t` from now; the memory's END_RESP when it awaits one.
    void answerWaitingSlice(unsigned k, Payload& p, const sc_core::sc_time& t, bool memoryAwaitsEndResp);
    // A ModelError if an answer of the memory finds the previous one still open toward a slice.
    void checkAnswerSlot(Payload& p) const;
    // A memory that answers inside BEGIN_REQ calls gets no request while an answer is open toward
    // a slice: its answer to it could find the arbiter's one answer slot taken. Memories that
    // answer later (ours) are not held back.
    bool answerBlocksRequests() const { return answersInCall_ && respOpen_ >= 0; }
    // The memory link takes the next request `t` from now (an END_REQ's annotated delay); the
    // waiting requests are passed on then (a delta cycle later for a zero delay if passWaiting).
    void memoryFreeAfter(const sc_core::sc_time& t, bool passWaiting);
    void forwardWaiting();  // SC_METHOD on waiting_

    unsigned n_;
    std::string memLink_;
    Payload* reqOpen_ = nullptr;         // request awaiting END_REQ from memory
    sc_core::sc_time reqFreeAt_;         // when the last END_REQ takes effect (its annotated delay)
    unsigned reqOpenSlice_ = 0;
    int respOpen_ = -1;                  // slice whose answer awaits its END_RESP
    bool respEndToMemory_ = false;       // ... and the memory awaits it too (not after TLM_COMPLETED)
    bool answersInCall_ = false;         // the memory has answered inside a BEGIN_REQ call
    std::vector<Payload*> waitingReq_;   // per slice: a request not yet passed on (END_REQ withheld)
    unsigned next_ = 0;                  // round-robin among waiting requests
    // Which slice a request in memory came from. Looked up by payload, never iterated.
    std::unordered_map<const Payload*, unsigned> owner_;
    sc_core::sc_event waiting_;
};

} // namespace gpusim
