MemcpyHtoD,0x00007f2a10000000,512
MemcpyHtoD,0x00007f2a20000000,16384
kernel-1.traceg
MemcpyHtoD,0x00007f2a50000000,128
kernel-2.traceg.xz
