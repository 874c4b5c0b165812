#include "common/PayloadPool.hpp"

#include <cstring>

namespace gpusim {

PooledPayload::~PooledPayload() = default;

PayloadPool::~PayloadPool() {
    for (size_t i = 0; i < created_; ++i) {
        Slot& s = blocks_[i / kBlockSlots].slots[i % kBlockSlots];
        s.clear_extension(&s.ext);  // the extension belongs to the slot, not the payload
        s.set_mm(nullptr);
    }
}

PayloadPool::Slot& PayloadPool::newSlot() {
    const size_t k = created_ % kBlockSlots;
    if (k == 0)
        blocks_.push_back({std::make_unique<Slot[]>(kBlockSlots),
                           std::unique_ptr<unsigned char[]>(new unsigned char[kBlockSlots * dataBytes_])});
    Block& b = blocks_.back();
    Slot& s = b.slots[k];
    s.data = b.data.get() + k * dataBytes_;
    std::memset(s.data, 0, dataBytes_);
    s.set_mm(this);
    s.set_extension(&s.ext);
    ++created_;
    return s;
}

tlm::tlm_generic_payload& PayloadPool::allocate() {
    Slot* s;
    if (free_.size() <= kReuseDistance) {
        s = &newSlot();
    } else {
        s = free_.front();
        free_.pop_front();
    }
    s->ext = GpuExtension{};
    tlm::tlm_generic_payload& gp = *s;
    gp.set_data_ptr(s->data);
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
