#pragma once
// Include in exactly one translation unit of a test executable that links SystemC: gtest_main
// owns main(), but libsystemc.so still needs an sc_main symbol. The kernel starts lazily at the
// first sc_start, so the stub is never called.
int sc_main(int, char*[]) { return 0; }
