// AscendCraft host side: register/tuning_bank_key_registry.h of the CANN SDK (AOE's knowledge-bank keys), as cann-ops'
// shared conv tiling headers include it. The registrations, which only the AOE tuner reads, are accepted and do nothing.
// Written from the public CANN operator sources' use of it; no vendor code.
#pragma once
#include "register/tuning_tiling_registry.h"

#define DECLARE_STRUCT_RELATE_WITH_OP(op, bank_key, ...) static_assert(sizeof(bank_key) > 0, "the bank key's struct")
#define DECLARE_STRUCT_RELATE_WITH_OP_V2(op, bank_key, ...) static_assert(sizeof(bank_key) > 0, "the bank key's struct")
#define REGISTER_OP_BANK_KEY_CONVERT_FUN(op, fn) static_assert(true, "")
#define REGISTER_OP_BANK_KEY_CONVERT_FUN_V2(op, fn) static_assert(true, "")
