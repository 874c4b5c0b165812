// The gpusim executable. Our own main() sets the environment before SystemC initialises (its
// banner is printed during start-up, before sc_main), then hands over to SystemC and the CLI.
#include <cstdlib>

#include <systemc>

#include "cli/Cli.hpp"

int sc_main(int argc, char* argv[]) { return gpusim::cliMain(argc, argv); }

int main(int argc, char* argv[]) {
    setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", /*overwrite=*/0);
    return sc_core::sc_elab_and_sim(argc, argv);
}
