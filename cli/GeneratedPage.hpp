#pragma once
// What the commands that generate a documentation page from sweeps (`validate`, `correlate`)
// share: running a sweep in the foreground, the date stamped on the page, the hand-written notes
// read into it, and the links from the page to its charts.
#include <filesystem>
#include <string>

namespace gpusim {

// Today's date in UTC, YYYY-MM-DD.
std::string todayUtc();

// A text file whole; "" when it cannot be read (callers check existence where it matters).
std::string readTextFile(const std::filesystem::path& p);

// Runs `gpusim sweep SPEC --out OUT --resume -j N` with this process's output (its progress line
// stays visible). False when the user interrupted it: the message to rerun is printed and the
// caller exits 130. Throws InputError ("COMMAND: `gpusim sweep SPEC` exited N") when it ended
// otherwise than 0 or 1 (1: some jobs failed, which the page lists).
bool runSweepResumed(const std::filesystem::path& spec, const std::filesystem::path& out, unsigned parallel,
                     const std::string& command);

// `target` as a relative link from the Markdown page `page` (from the page's directory).
std::string linkFrom(const std::filesystem::path& page, const std::filesystem::path& target);

} // namespace gpusim
