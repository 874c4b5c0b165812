#include "common/PayloadPool.hpp"

namespace gpusim {

PayloadPool::~PayloadPool() {
    for (auto& s : all_) {
        s->clear_extension(&s->ext);  // the extension belongs to the slot, not the payload
        s->set_mm(nullptr);
    }
}

tlm::tlm_generic_payload& PayloadPool::allocate() {
    Slot* s;
    if (free_.size() <= kReuseDistance) {
        all_.push_back(std::make_unique<Slot>());
        s = all_.back().get();
        s->data.resize(dataBytes_);
        s->set_mm(this);
        s->set_extension(&s->ext);
    } else {
        s = free_.front();
        free_.pop_front();
    }
    s->ext = GpuExtension{};
    tlm::tlm_generic_payload& gp = *s;
    gp.set_data_ptr(s->data.data());
    gp.set_data_length(dataBytes_);
    gp.set_streaming_width(dataBytes_);
    gp.set_byte_enable_ptr(nullptr);
    gp.set_dmi_allowed(false);
    gp.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    gp.acquire();
    ++allocated_;
    return gp;
}

void PayloadPool::free(tlm::tlm_generic_payload* p) {
    free_.push_back(static_cast<Slot*>(p));
    ++freed_;
}

} // namespace gpusim
