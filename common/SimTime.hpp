#pragma once
// The simulated time the model's units read, in the kernel's time units (ps). It is the kernel's
// sc_time_stamp(), except while a batching ClockHub (ClockHub::setBatching) runs edges ahead of
// the kernel: then it is the instant of the edge being run, which the kernel would have reached
// had the hub returned to it between edges. Units read the time through simNow() so that both
// give the same answers; code outside the model (a co-simulated IP) never runs during such a
// batch, and so keeps reading sc_time_stamp().
#include <cstdint>

#include <systemc>

namespace gpusim {

namespace sim_time_detail {
// The instant a batching hub is running ahead of the kernel at, or kNotAhead. Written only by
// the hub's process, between edges (never while worker threads step units).
inline constexpr uint64_t kNotAhead = UINT64_MAX;
inline uint64_t ahead = kNotAhead;
} // namespace sim_time_detail

inline uint64_t simNow() {
    const uint64_t a = sim_time_detail::ahead;
    return a != sim_time_detail::kNotAhead ? a : sc_core::sc_time_stamp().value();
}

} // namespace gpusim
