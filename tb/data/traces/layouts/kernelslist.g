MemcpyHtoD,0x00007f1000000000,4096
kernel-v3.traceg
kernel-v4.traceg
kernel-v5_one_immediate.traceg
kernel-v5_two_immediates.traceg
kernel-v6_values.traceg
kernel-v6_lineinfo.traceg
