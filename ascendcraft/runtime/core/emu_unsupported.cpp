// AscendCraft CPU emulation runtime: calls that compile (the official AscendC headers accept them) but cannot
// run on Ascend 910B (A2) or in the emulation. AscendC checks these element types only when the kernel runs;
// the emulator does the same, with the call's own line.
#include "ascendcraft_emu/internal.h"

namespace ascendcraft { namespace emu {

void unsupported_type(Op op, Dt dt, const char* supported, SrcLoc loc) {
    enter(op, loc);
    Report("unsupported", op, loc)
        .msg("%s is not supported for %s on Ascend 910B (A2): it takes %s only (AscendC checks the element type "
             "when the kernel runs, so the call compiles)", op_name(op), dt_name(dt), supported)
        .val("dtype", dt_name(dt))
        .hint("use a data type %s supports on Ascend 910B (A2), or Cast first", op_name(op))
        .fail();
}

void unsupported_call(Op op, const char* message, const char* hint, SrcLoc loc) {
    enter(op, loc);
    Report("unsupported", op, loc).msg("%s", message).hint("%s", hint).fail();
}

void no_core_version(const char* name, bool aic, SrcLoc loc) {
    enter(Op::Kernel, loc);
    Report("core-type", Op::Kernel, loc)
        .msg("%s is called on an %s core, but it is defined only for the other core type (its `template <>` "
             "specialisations); the device compiler would find no %s version of it", name, aic ? "AIC" : "AIV",
             aic ? "AIC" : "AIV")
        .val("core", aic ? "AIC" : "AIV")
        .hint("add the %s specialisation, or declare the kernel type so that this core does not run the code "
              "(KERNEL_TASK_TYPE_DEFAULT)", aic ? "AscendC::AIC" : "AscendC::AIV")
        .fail();
}

}}  // namespace ascendcraft::emu
