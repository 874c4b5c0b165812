#pragma once
// What the commands that generate a documentation page (`validate`, `correlate`) share: the
// date stamped on the page and the hand-written notes read into it.
#include <filesystem>
#include <string>

namespace gpusim {

// Today's date in UTC, YYYY-MM-DD.
std::string todayUtc();

// A text file whole; "" when it cannot be read (callers check existence where it matters).
std::string readTextFile(const std::filesystem::path& p);

} // namespace gpusim
