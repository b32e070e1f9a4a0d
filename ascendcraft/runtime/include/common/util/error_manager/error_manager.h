// AscendCraft host side: common/util/error_manager/error_manager.h of older CANN SDKs (error reports with a code),
// as the shared operator headers of cann-ops copies use it (REPORT_INNER_ERROR / REPORT_CALL_ERROR). Printed to
// stderr, like base/err_msg.h's REPORT_INNER_ERR_MSG.
// Written from the public CANN operator sources' use of it; no vendor code.
#pragma once
#include "base/err_msg.h"

#ifndef REPORT_INNER_ERROR
#define REPORT_INNER_ERROR(code, fmt, ...) REPORT_INNER_ERR_MSG(code, fmt, ##__VA_ARGS__)
#endif
#ifndef REPORT_CALL_ERROR
#define REPORT_CALL_ERROR(code, fmt, ...) REPORT_INNER_ERR_MSG(code, fmt, ##__VA_ARGS__)
#endif
