#pragma once
// The parameters of the memory behind the L2 slices, declared once for both memory models: the
// model choice (`memory.model`), the DRAM command clock, and the FR-FCFS controller's timing
// (a preset, gddr5 or gddr3, with every value overridable), bus and queue. DramTiming is the
// resolved set, in DRAM command-clock cycles.
//
// Presets (DESIGN.md section 8; GPGPU-Sim's GTX480 and Quadro FX5800 timing for the values the
// papers do not list: tWL, tCCD, tRTP, burst length, data rate):
//   gddr5: tCL 12, tWL 4, tRCD 12, tRP 12, tRAS 28, tRC 40, tRRD 6, tCCD 2, tWR 12, tCDLR 5,
//          tRTP 2, burst 8 beats at 4 beats per command cycle (a burst takes 2 cycles)
//   gddr3: tCL 10, tWL 7, tRCD 12, tRP 10, tRAS 25, tRC 35, tRRD 8, tCCD 2, tWR 11, tCDLR 6,
//          tRTP 2, burst 4 beats at 2 beats per command cycle (2 cycles)
// tRTW (read command to write command) defaults to tCL + burst cycles + 2 - tWL, GPGPU-Sim's
// rule: the write's data starts two cycles after the read's data ended (bus turnaround).
// Both presets carry GDDR5's bank-group values (GPGPU-Sim's GTX480: tCCDL 3, tRTPL 2), which act
// only with dram.bank_groups > 1.
// Geometry (banks, row size) is part of the address map (common/AddressMap), not of a preset.
#include <cstdint>
#include <string>

namespace gpusim {

class Config;
class ParamSchema;

struct DramTiming {
    unsigned tCL = 12, tWL = 4, tRCD = 12, tRP = 12, tRAS = 28, tRC = 40, tRRD = 6, tCCD = 2,
             tWR = 12, tCDLR = 5, tRTP = 2, tRTW = 12;
    // Bank groups (dram.bank_groups; 1: none, the two values below unused). Bank b is in group
    // b / (banks / groups), GPGPU-Sim's bkgrpindex. tCCDL: column to column in one group (in
    // place of tCCD); tRTPL: RD to PRE of any bank of the RD's group.
    unsigned bankGroups = 1, tCCDL = 3, tRTPL = 2;
    unsigned burstLength = 8;   // beats per column command
    unsigned dataRate = 4;      // beats per command-clock cycle (GDDR5 4, GDDR3 2)
    unsigned busBytes = 8;      // bytes per beat (the partition's data bus width)

    unsigned burstCycles() const { return burstLength / dataRate; }
    unsigned burstBytes() const { return burstLength * busBytes; }

    // The named preset with the default bus; tRTW derived.
    static DramTiming preset(const std::string& name);
    // Resolved from a configuration: preset, then every dram.t* / burst override that is not -1.
    static DramTiming from(const Config& cfg);
};

struct DramConfig {
    // Declares memory.model, dram.clock_mhz, dram.preset, every timing override, dram.bus_bytes,
    // dram.burst_length, dram.data_rate, dram.queue_size, dram.scheduler, the OWL prefetch
    // keys (dram.prefetch, dram.prefetch_*) and their checks.
    static void declare(ParamSchema& s);
};

} // namespace gpusim
