// TplScaleCustom's kernel template parameters, in the tiling-template style of CANN's newer operators: the dtype (a
// type), how many tiles a core's share is cut into (a UINT from a list: its key field is the value's index) and
// whether the result is squared (a BOOL). Key = dtype | index(TILES) << 8 | SQUARE << 10.
#ifndef TPL_SCALE_CUSTOM_TILING_KEY_H
#define TPL_SCALE_CUSTOM_TILING_KEY_H

#include "graph/c_types.h"
#include "ascendc/host_api/tiling/template_argument.h"

#define TPL_SCALE_TILES_1 1
#define TPL_SCALE_TILES_4 4

ASCENDC_TPL_ARGS_DECL(TplScaleCustom,
    ASCENDC_TPL_DATATYPE_DECL(D_T, C_DT_FLOAT, C_DT_FLOAT16, ASCENDC_TPL_INPUT(0)),
    ASCENDC_TPL_UINT_DECL(TILES, 2, ASCENDC_TPL_UI_LIST, TPL_SCALE_TILES_1, TPL_SCALE_TILES_4),
    ASCENDC_TPL_BOOL_DECL(SQUARE, 0, 1), );

ASCENDC_TPL_SEL(
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T, C_DT_FLOAT),
                         ASCENDC_TPL_UINT_SEL(TILES, ASCENDC_TPL_UI_LIST, TPL_SCALE_TILES_1, TPL_SCALE_TILES_4),
                         ASCENDC_TPL_BOOL_SEL(SQUARE, 0, 1)),
    ASCENDC_TPL_ARGS_SEL(ASCENDC_TPL_DATATYPE_SEL(D_T, C_DT_FLOAT16),
                         ASCENDC_TPL_UINT_SEL(TILES, ASCENDC_TPL_UI_LIST, TPL_SCALE_TILES_4),
                         ASCENDC_TPL_BOOL_SEL(SQUARE, 0)), );
#endif
