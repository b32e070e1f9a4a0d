// AscendCraft: opbase's atvoss/util/dag.h by its path from op_common/ (the spelling ops-nn and ops-math use).
#pragma once
#include "op_common/atvoss/util/dag.h"
