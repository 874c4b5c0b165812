#pragma once
// libsystemc.so refers to sc_main (its own main() calls it); these tests take main() from
// gtest_main and call sc_start() directly, so the reference only needs to resolve. Include from
// exactly one translation unit per test executable (each test file is its own executable).
int sc_main(int, char*[]) { return 0; }
