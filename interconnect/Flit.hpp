#pragma once
// A flit as the routers see it, and the fixed-capacity FIFO that holds flits in a virtual
// channel. A flit names its packet by a slot in the network's packet table (the packet record
// itself stays put), carries its destination so routers never look the packet up, and its
// position (seq 0 is the head, seq flits-1 the tail; a one-flit packet is both).
#include <cstdint>
#include <stdexcept>
#include <vector>

namespace gpusim {

struct Flit {
    uint32_t slot = 0;     // packet table index
    uint32_t dst = 0;      // sink terminal
    uint16_t seq = 0;      // 0: head
    uint16_t vc = 0;       // VC on the channel it crossed last / the buffer it is in
    bool tail = false;
    uint64_t ready = 0;    // first NoC cycle it may leave the buffer it is in
    bool head() const { return seq == 0; }
};

// A flit on a channel: it arrives at `target` (the network's index of a router input channel or
// of a sink) at cycle flit.ready, the first cycle it may leave the channel (the receiving router
// sets its own ready time; a sink reads none). The arrival kept in the flit rather than beside
// it makes the record 32 bytes instead of 40, and every flit is pushed and popped once per hop
// (issue 19).
struct FlitEvent {
    Flit flit;
    uint32_t target;
};

// `n` credits on a channel: at cycle `at` they reach output `port`, VC `vc`, of router `router`.
struct CreditEvent {
    uint64_t at;
    uint32_t router, port, vc, n;
};

// A ring of fixed capacity: no allocation after construction (a router holds dozens).
// The capacity is kept apart from the vector: its size() divides by sizeof(T) (24 for a flit),
// and the ring wraps with a comparison instead of a modulo by it; both were on every flit's
// push and pop and every free-slot query (issue 19).
template <class T>
class Ring {
public:
    explicit Ring(unsigned capacity = 0) : buf_(capacity), cap_(capacity) {}
    unsigned capacity() const { return cap_; }
    unsigned size() const { return size_; }
    bool empty() const { return size_ == 0; }
    bool full() const { return size_ == cap_; }
    T& front() { return buf_[head_]; }
    const T& front() const { return buf_[head_]; }
    const T& at(unsigned i) const { return buf_[(head_ + i) % cap_]; }
    void push(const T& v) {
        if (full()) throw std::logic_error("Ring: push into a full buffer (credit protocol broken)");
        unsigned tail = head_ + size_;  // < 2 * capacity: head_ < capacity, size_ < capacity
        if (tail >= cap_) tail -= cap_;
        buf_[tail] = v;
        ++size_;
    }
    void pop() {
        if (++head_ == cap_) head_ = 0;
        --size_;
    }

private:
    std::vector<T> buf_;
    unsigned cap_;
    unsigned head_ = 0, size_ = 0;
};

} // namespace gpusim
