#pragma once
// A warp's instruction buffer: a fixed ring of `sm.ibuffer_entries` decoded instructions. A ring
// rather than a std::deque because a WarpInstruction (per-lane addresses) fills a deque node by
// itself, so every fetch allocated and every issue freed one (3% of the host time).
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

#include "workloads/WarpInstruction.hpp"

namespace gpusim {

class InstructionBuffer {
public:
    void setCapacity(unsigned n) {
        slots_.assign(n, WarpInstruction{});
        cap_ = n;
        head_ = size_ = 0;
    }
    unsigned capacity() const { return cap_; }
    unsigned size() const { return size_; }
    bool empty() const { return size_ == 0; }
    bool full() const { return size_ == cap_; }
    void clear() { head_ = size_ = 0; }
    const WarpInstruction& front() const { return slots_[head_]; }
    void pop_front() {
        head_ = head_ + 1 == cap_ ? 0 : head_ + 1;
        --size_;
    }
    // The free slot after the last entry, to be filled in place; push() makes it the last entry.
    // Only when !full(). Every field but the per-lane addresses is back at its default; the
    // addresses keep the slot's last instruction's, since they count only for active lanes, which
    // every producer writes (clearing the 256 bytes at every fetch cost 0.5 % of a streaming
    // run, issue 19).
    WarpInstruction& next() {
        WarpInstruction& s = slots_[tailSlot()];
        static const WarpInstruction blank{};
        std::memcpy(static_cast<void*>(&s), &blank, offsetof(WarpInstruction, addr));
        return s;
    }
    // The same slot as next() without resetting it (an instruction read but not yet pushed).
    WarpInstruction& tail() { return slots_[tailSlot()]; }
    void push() { ++size_; }

private:
    // next() resets the bytes before `addr`: it must be the last member, and a plain copy must do.
    static_assert(std::is_trivially_copyable_v<WarpInstruction> && std::is_standard_layout_v<WarpInstruction>);
    static_assert(offsetof(WarpInstruction, addr) + sizeof(WarpInstruction::addr) == sizeof(WarpInstruction));
    // The slot after the last entry (head_ + size_ < 2 * cap_ while not full).
    unsigned tailSlot() const { return head_ + size_ >= cap_ ? head_ + size_ - cap_ : head_ + size_; }
    std::vector<WarpInstruction> slots_;
    // cap_: slots_.size(), kept apart because the vector's size() divides by the size of an
    // instruction, and the ring wrapped with a modulo by it (at every fetch and issue, issue 19).
    unsigned head_ = 0, size_ = 0, cap_ = 0;
};

} // namespace gpusim
