#pragma once
// What a statistic's dotted name says about it, for the readable dumps (`gpusim stats`, the
// per-kernel tables): its unit, and the pattern that joins the same statistic of every instance
// of a unit ("sm3.l1d.read_misses" and "sm7.l1d.read_misses" are both "sm*.l1d.read_misses").
// Units are not declared where statistics are registered; they follow from the names by the
// rules of statUnit() (docs/statistics.md lists them), so a new statistic named like the others
// gets the right unit, and one named unlike them gets "count".
#include <string>

namespace gpusim {

// The unit of a statistic's value: "count" (events), "<clock> cycles" for durations and
// latencies in the clock of the unit that counts them (core, NoC, L2, DRAM), "core cycle" for an
// instant, "fraction", "flits", "packets", "banks", "MSHR entries", "warps", "lanes", "id".
std::string statUnit(const std::string& name);

// The name with every instance index replaced by '*': a dotted component made of a lower-case
// word and a number ("sm3", "slice2", "mem0", "inject5", "kernel1") loses its number, except the
// cache levels "l1"/"l2". "gpu.cycles" stays itself.
std::string statPattern(const std::string& name);

// The unit kind a statistic belongs to: its first component without its index ("sm", "l2",
// "mem", "noc", "gpu", "kernel", "stream", "launch").
std::string statKind(const std::string& name);

} // namespace gpusim
