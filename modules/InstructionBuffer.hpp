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
        head_ = size_ = 0;
    }
    unsigned capacity() const { return static_cast<unsigned>(slots_.size()); }
    unsigned size() const { return size_; }
    bool empty() const { return size_ == 0; }
    bool full() const { return size_ == slots_.size(); }
    void clear() { head_ = size_ = 0; }
    const WarpInstruction& front() const { return slots_[head_]; }
    void pop_front() {
        head_ = head_ + 1 == slots_.size() ? 0 : head_ + 1;
        --size_;
    }
    // The free slot after the last entry, to be filled in place; push() makes it the last entry.
    // Only when !full(). Every field but the per-lane addresses is back at its default; the
    // addresses keep the slot's last instruction's, since they count only for active lanes, which
    // every producer writes (clearing the 256 bytes at every fetch cost 0.5 % of a streaming
    // run, issue 19).
    WarpInstruction& next() {
        WarpInstruction& s = slots_[(head_ + size_) % slots_.size()];
        static const WarpInstruction blank{};
        std::memcpy(static_cast<void*>(&s), &blank, offsetof(WarpInstruction, addr));
        return s;
    }
    // The same slot as next() without resetting it (an instruction read but not yet pushed).
    WarpInstruction& tail() { return slots_[(head_ + size_) % slots_.size()]; }
    void push() { ++size_; }

private:
    // next() resets the bytes before `addr`: it must be the last member, and a plain copy must do.
    static_assert(std::is_trivially_copyable_v<WarpInstruction> && std::is_standard_layout_v<WarpInstruction>);
    static_assert(offsetof(WarpInstruction, addr) + sizeof(WarpInstruction::addr) == sizeof(WarpInstruction));
    std::vector<WarpInstruction> slots_;
    unsigned head_ = 0, size_ = 0;
};

} // namespace gpusim
