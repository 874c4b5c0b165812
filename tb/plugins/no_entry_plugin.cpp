// A shared library that is not a gpusim plugin (no entry point): refused with its path.
extern "C" int gpusim_test_not_a_plugin() { return 42; }
