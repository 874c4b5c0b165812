#pragma once
// The variants of a unit that either the configuration or a warp-scheduling policy may choose,
// as typed values rather than names: a policy declares the one it needs (SchedulerPolicy's
// capabilities) and the SM or the platform installs it, without knowing any policy by name.
// In common/ because scheduler/ declares them while modules/ and memory/ implement them.
namespace gpusim {

// The L1D's replacement (l1d.replacement; modules/L1Replacement.hpp): LRU, or CWLP's
// PC-based locality-protected LPC.
enum class L1ReplacementKind { Lru, Lpc };

// The FR-FCFS controllers' memory-side prefetch (dram.prefetch; memory/OwlPrefetcher.hpp):
// none, or OWL's opportunistic prefetch of an open row's unread lines into the L2.
enum class DramPrefetchKind { None, Owl };

} // namespace gpusim
