// AscendCraft: opbase's atvoss/util/placeholder.h by its path from op_common/ (the spelling ops-nn and ops-math use).
#pragma once
#include "op_common/atvoss/util/placeholder.h"
