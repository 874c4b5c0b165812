#pragma once
// The data files gpusim ships beside its code (validation/: the studies, their sweep specs and
// notes, the Accel-Sim reference figures), found from any working directory.
#include <filesystem>
#include <string>

namespace gpusim {

// `rel` (e.g. "validation/studies.json") as found first: under the working directory (a
// checkout's root, or a user's own copy), under P/share/gpusim for an executable installed at
// P/bin (cmake --install), under the source tree this executable was built from. `rel` itself
// when none exists, so that the error reading it names the path asked for.
std::filesystem::path shippedFile(const std::string& rel);

} // namespace gpusim
