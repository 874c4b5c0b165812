#include "platforms/ControlTarget.hpp"

#include <cstring>

#include "common/SimError.hpp"
#include "workloads/Workload.hpp"

namespace gpusim {

ControlTarget::ControlTarget(sc_core::sc_module_name name, KernelLauncher& gpu,
                             std::vector<std::unique_ptr<Workload>> workloads, sc_core::sc_time latency)
    : sc_module(name), socket("socket"), irq("irq", false), gpu_(gpu), workloads_(std::move(workloads)),
      latency_(latency) {
    socket.register_b_transport(this, &ControlTarget::bTransport);
    socket.register_transport_dbg(this, &ControlTarget::transportDbg);
}

ControlTarget::~ControlTarget() = default;

uint32_t ControlTarget::readRegister(uint32_t offset) const {
    switch (offset) {
    case kId: return kIdValue;
    case kNumWorkloads: return static_cast<uint32_t>(workloads_.size());
    case kWorkload: return workload_;
    case kControl: return 0;
    case kStatus: return status_;
    case kError: return error_;
    case kIrqEnable: return irqEnable_;
    case kIrqStatus: return irqStatus_;
    case kCyclesLo: return static_cast<uint32_t>(last_.cycles);
    case kCyclesHi: return static_cast<uint32_t>(last_.cycles >> 32);
    case kInstsLo: return static_cast<uint32_t>(last_.instructions);
    case kInstsHi: return static_cast<uint32_t>(last_.instructions >> 32);
    case kLaunches: return launches_;
    default: return 0;  // checkAccess rejects every other offset first
    }
}

tlm::tlm_response_status ControlTarget::checkAccess(const tlm::tlm_generic_payload& p) const {
    const uint64_t a = p.get_address();
    if (a >= kSize || a % 4 != 0) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
    if (p.get_data_length() != 4 || p.get_streaming_width() < 4) return tlm::TLM_BURST_ERROR_RESPONSE;
    if (p.get_byte_enable_ptr()) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
    return tlm::TLM_OK_RESPONSE;
}

tlm::tlm_response_status ControlTarget::write(uint32_t offset, uint32_t v) {
    switch (offset) {
    case kWorkload: workload_ = v; return tlm::TLM_OK_RESPONSE;
    case kControl:
        if (v & ~1u) return tlm::TLM_COMMAND_ERROR_RESPONSE;
        if (v & 1u) startLaunch();
        return tlm::TLM_OK_RESPONSE;
    case kIrqEnable:
        irqEnable_ = v & 1u;
        updateIrq();
        return tlm::TLM_OK_RESPONSE;
    case kIrqStatus:
        irqStatus_ &= ~(v & 1u);
        updateIrq();
        return tlm::TLM_OK_RESPONSE;
    default: return tlm::TLM_COMMAND_ERROR_RESPONSE;  // read-only register
    }
}

void ControlTarget::bTransport(tlm::tlm_generic_payload& p, sc_core::sc_time& delay) {
    // The access happens at the initiator's local time (now + delay): a temporally decoupled CPU
    // must not launch, or read a status, before it. b_transport may wait (IEEE 1666-2011, 11.1.1),
    // so the target synchronises, then annotates only its own latency.
    if (delay != sc_core::SC_ZERO_TIME) {
        sc_core::wait(delay);
        delay = sc_core::SC_ZERO_TIME;
    }
    delay += latency_;
    tlm::tlm_response_status st = checkAccess(p);
    if (st == tlm::TLM_OK_RESPONSE) {
        const uint32_t off = static_cast<uint32_t>(p.get_address());
        if (p.is_read()) {
            const uint32_t v = readRegister(off);
            std::memcpy(p.get_data_ptr(), &v, 4);  // host byte order, like the TLM-2.0 examples
        } else if (p.is_write()) {
            uint32_t v;
            std::memcpy(&v, p.get_data_ptr(), 4);
            st = write(off, v);
        }
    }
    p.set_response_status(st);
}

unsigned ControlTarget::transportDbg(tlm::tlm_generic_payload& p) {
    // Debug reads only: a debugger must not launch kernels or clear interrupts.
    if (!p.is_read() || checkAccess(p) != tlm::TLM_OK_RESPONSE) return 0;
    const uint32_t v = readRegister(static_cast<uint32_t>(p.get_address()));
    std::memcpy(p.get_data_ptr(), &v, 4);
    return 4;
}

void ControlTarget::startLaunch() {
    if (status_ == kRunning) {
        error_ = kBusy;
        return;
    }
    if (workload_ >= workloads_.size()) {
        status_ = kFailed;
        error_ = kBadWorkload;
        return;
    }
    try {
        gpu_.launch(*workloads_[workload_], [this](const LaunchResult& r) { onDone(r); });
    } catch (const InputError& e) {
        status_ = kFailed;
        error_ = kRejected;
        rejectReason_ = e.what();
        return;
    } catch (const ModelError& e) {
        // The GPU cannot start (an earlier run failed): the software sees a failed run.
        status_ = kFailed;
        error_ = kRunFailed;
        rejectReason_ = e.what();
        return;
    }
    status_ = kRunning;
    error_ = kNoError;
    rejectReason_.clear();
}

void ControlTarget::onDone(const LaunchResult& r) {
    last_ = r;
    ++launches_;
    status_ = r.ok ? kDone : kFailed;
    if (!r.ok) error_ = kRunFailed;
    irqStatus_ |= 1u;
    updateIrq();
    ended_.notify(sc_core::SC_ZERO_TIME);
}

void ControlTarget::updateIrq() { irq.write((irqEnable_ & irqStatus_ & 1u) != 0); }

} // namespace gpusim
