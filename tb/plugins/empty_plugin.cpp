// A plugin whose entry point registers nothing: refused with its path (plugin_test.cpp).
#include "scheduler/PolicyPlugin.hpp"

GPUSIM_POLICY_PLUGIN(registrar) { (void)registrar; }
