// Linked into every test executable: gtest_main owns main(), but libsystemc.so still refers to
// sc_main. SystemC declares it extern "C". The kernel starts lazily at the first sc_start, so
// this is never called.
extern "C" int sc_main(int, char*[]) { return 0; }
