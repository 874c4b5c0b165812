#pragma once
// A FIFO queue in one circular buffer that doubles when full: push at the back, pop at the
// front, read by position from the front. For the per-cycle queues of the model (flits and
// credits on NoC channels, packets waiting at a source): a std::deque costs several
// instructions more per push, pop and index (segmented storage) and allocates a segment every
// few hundred bytes pushed (issue 19); this allocates only when it grows. A reference into it
// stays valid until the next push that grows it.
#include <cstddef>
#include <utility>
#include <vector>

namespace gpusim {

template <class T>
class RingQueue {
public:
    bool empty() const { return size_ == 0; }
    size_t size() const { return size_; }
    T& front() { return buf_[head_]; }
    const T& front() const { return buf_[head_]; }
    // The element `i` places behind the front (0: the front).
    const T& operator[](size_t i) const { return buf_[(head_ + i) & mask_]; }

    void push_back(const T& v) {
        if (size_ == cap_) grow();
        buf_[(head_ + size_) & mask_] = v;
        ++size_;
    }
    // Appends an element for the caller to fill in place (it holds whatever the slot held
    // before): a flit written field by field into the ring instead of built aside and copied,
    // once per flit per hop (issue 19).
    T& pushSlot() {
        if (size_ == cap_) grow();
        return buf_[(head_ + size_++) & mask_];
    }
    template <class... Args>
    void emplace_back(Args&&... args) {
        push_back(T(std::forward<Args>(args)...));
    }
    void pop_front() {
        head_ = (head_ + 1) & mask_;
        --size_;
    }
    void clear() { head_ = size_ = 0; }

    class const_iterator {
    public:
        const_iterator(const RingQueue* q, size_t i) : q_(q), i_(i) {}
        const T& operator*() const { return (*q_)[i_]; }
        const_iterator& operator++() {
            ++i_;
            return *this;
        }
        bool operator!=(const const_iterator& o) const { return i_ != o.i_; }

    private:
        const RingQueue* q_;
        size_t i_;
    };
    const_iterator begin() const { return {this, 0}; }
    const_iterator end() const { return {this, size_}; }

private:
    static constexpr size_t kInitialCapacity = 8;  // a power of two, as every capacity after it
    // Doubles the buffer, the elements moving to its start in queue order. Kept out of line (rare)
    // so that push_back stays small enough to be inlined.
    [[gnu::noinline]] void grow() {
        std::vector<T> bigger(buf_.empty() ? kInitialCapacity : buf_.size() * 2);
        for (size_t i = 0; i < size_; ++i) bigger[i] = buf_[(head_ + i) & mask_];
        buf_.swap(bigger);
        head_ = 0;
        cap_ = buf_.size();
        mask_ = cap_ - 1;
    }

    std::vector<T> buf_;
    // cap_: buf_.size(), kept apart because the vector's size() divides by sizeof(T) (40 bytes for
    // a flit on a channel) on every push (issue 19).
    size_t head_ = 0, size_ = 0, mask_ = 0, cap_ = 0;
};

} // namespace gpusim
