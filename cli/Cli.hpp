#pragma once
// The `gpusim` command line: run, list, config. Returns the process exit status: 0 success,
// 2 bad input (one line on stderr naming the file/key/option), 3 model error (watchdog, broken
// invariant); a bare `gpusim` (no command) prints the usage on stderr and exits 2.
namespace gpusim {

int cliMain(int argc, char** argv);

} // namespace gpusim
