// A plugin as one built against another gpusim would be: its recorded version and plugin ABI
// (gpusim 0.0.1, ABI 99) differ from the loading program's, so the loader refuses it before
// calling it, naming both (plugin_test.cpp). Written without GPUSIM_POLICY_PLUGIN, which would
// record this build's numbers.
#include <cstdlib>

#include "scheduler/PolicyPlugin.hpp"

extern "C" __attribute__((visibility("default"))) const gpusim_plugin_abi_info gpusim_plugin_abi = {99, "0.0.1"};

extern "C" __attribute__((visibility("default"))) void gpusim_plugin_register(gpusim::PluginRegistrar&) {
    std::abort();  // never called: the version check comes first
}
