#pragma once
// libsystemc.so refers to sc_main (its own main() calls it); these tests take main() from
// gtest_main, so the reference only needs to resolve. SystemC declares it extern "C", so the stub
// is extern "C" too (it then links whether or not <systemc> was included first). Include from
// exactly one translation unit per test executable (each test file is its own executable).
extern "C" int sc_main(int, char*[]) { return 0; }
