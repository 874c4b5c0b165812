// The gpusim executable: SystemC's sc_main hands over to the CLI.
#include <cstdlib>

#include <systemc>

#include "platforms/Cli.hpp"

int sc_main(int argc, char* argv[]) { return gpusim::cliMain(argc, argv); }
