// AscendCraft host side: base/alog_pub.h by its bare name, as CANN's include path has it too (hicann ops-transformer's
// ffn_tiling.cpp and flash_attention_score_tiling_general.cpp include <alog_pub.h>).
#pragma once
#include "base/alog_pub.h"
