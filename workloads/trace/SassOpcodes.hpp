#pragma once
// SASS opcode -> the model's instruction class and memory space. Only the mnemonic before the
// first '.' counts ("LDG.E.128.CONSTANT.SYS" is LDG).
//
//   LDG STG          global load / store
//   LD ST            generic load / store, modelled as global (Accel-Sim resolves generic
//                    addresses through the shared and local windows; we do not)
//   LDS STS LDSM     shared          LDL STL   local
//   LDGSTS           the global read of an asynchronous global->shared copy (Accel-Sim's
//                    post-processing keeps only that half)
//   ATOM ATOMG RED   global, store-like (write-evict in L1D, performed at L2, no register
//                    write-back modelled); ATOMS: shared, store-like
//   BAR              CTA barrier (every variant, including BAR.ARV)
//   EXIT             end of the warp when it is the warp's last instruction; an earlier EXIT
//                    (lanes leaving under a predicate) is ALU
//   MUFU             SFU
//   every other SASS mnemonic of Kepler to Ampere in the table: ALU (texture, surface, constant
//   and cache-control operations included: their addresses are not modelled)
// A mnemonic missing from the table runs as ALU and is reported as unknown.
#include <string_view>

#include "workloads/WarpInstruction.hpp"

namespace gpusim {

struct SassOpcodeClass {
    OpClass op = OpClass::Alu;
    MemSpace space = MemSpace::Global;
    bool known = false;  // false: not in the table, runs as ALU
    bool isExit = false;
};

// The mnemonic of a full opcode: "LDG.E.64" -> "LDG".
std::string_view sassMnemonic(std::string_view opcode);
SassOpcodeClass classifySass(std::string_view opcode);

} // namespace gpusim
