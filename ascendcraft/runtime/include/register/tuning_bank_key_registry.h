// AscendCraft host side: register/tuning_bank_key_registry.h of the CANN SDK (AOE's knowledge-bank keys), as cann-ops'
// shared conv tiling headers include it. The registrations, which only the AOE tuner reads, are accepted and do nothing.
// Written from the public CANN operator sources' use of it; no vendor code.
// Guarded by the name CANN's own header has: a project's copy of that header (ops-nn common/inc/op_host/register/),
// read after this one (ascendcraft_emu/op_host.h includes it first), is the same header read twice, as in CANN.
#ifndef __INC_REGISTER_TUNING_BANK_KEY_REGISTRY_HEADER__
#define __INC_REGISTER_TUNING_BANK_KEY_REGISTRY_HEADER__
#include <register/tuning_tiling_registry.h>   // the SDK's, never a project copy on -iquote

#define DECLARE_STRUCT_RELATE_WITH_OP(op, bank_key, ...) static_assert(sizeof(bank_key) > 0, "the bank key's struct")
#define DECLARE_STRUCT_RELATE_WITH_OP_V2(op, bank_key, ...) static_assert(sizeof(bank_key) > 0, "the bank key's struct")
#define REGISTER_OP_BANK_KEY_CONVERT_FUN(op, fn) static_assert(true, "")
#define REGISTER_OP_BANK_KEY_CONVERT_FUN_V2(op, fn) static_assert(true, "")

#endif  // __INC_REGISTER_TUNING_BANK_KEY_REGISTRY_HEADER__
