#pragma once
// kernelslist.g, the command list of an Accel-Sim trace directory, one command per line:
//
//   MemcpyHtoD,0x00007f1234500000,4096      a host-to-device copy (address, bytes)
//   kernel-1.traceg                          a kernel launch (file relative to the list's
//   kernel-2.traceg.xz                       folder; .xz files are decompressed)
//
// Kernels run in the order listed. Copies are recorded with their position and reported, not
// simulated (the model has no host link). Blank lines and '#' comments are skipped; any other
// line is an InputError "FILE:LINE: reason", as is a list without kernels.
#include <cstdint>
#include <string>
#include <vector>

#include "workloads/trace/LineReader.hpp"

namespace gpusim {

struct MemcpyRecord {
    uint64_t address = 0;
    uint64_t bytes = 0;
    size_t beforeKernel = 0;  // index of the kernel launched after it
};

struct KernelsList {
    std::vector<std::string> kernelFiles;  // paths, in launch order
    std::vector<MemcpyRecord> memcpys;
};

// `dir` is prepended to relative kernel file names.
KernelsList parseKernelsList(LineReader& in, const std::string& dir);

} // namespace gpusim
