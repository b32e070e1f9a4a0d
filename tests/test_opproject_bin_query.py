"""DataTypeForBinQuery / FormatForBinQuery: a definition maps a column's dtypes and formats to those CANN's runtime looks
the kernel binary up by. A column mapped onto another column's dtypes and formats runs that column's binary (CANN's
binary build compiles none of its own for it), so the emulator compiles its kernel with that column's DTYPE_* /
ORIG_DTYPE_* / FORMAT_* macros; a column whose mapping matches no column keeps its own binary. Read from the text and
from the compiled op_host (the definition registered)."""
from ascendcraft.opproject import binary_column, dtype_column, dtype_macros, parse_op_definition, registered_definition

# column 0: int16 x; column 1: int32 x; column 2: int16 x in NCHW. Columns 0 and 1 look up the int32 ND binary (column
# 1's); column 2 maps to (int32, NCHW), which no column has: its own binary
DEFINITION = """#include "register/op_def_registry.h"
namespace ops {
class BinQueryCustom : public OpDef {
public:
    explicit BinQueryCustom(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED)
            .DataType({ge::DT_INT16, ge::DT_INT32, ge::DT_INT16})
            .DataTypeForBinQuery({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_NCHW})
            .FormatForBinQuery({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_NCHW});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_NCHW});
    }
};
OP_ADD(BinQueryCustom);
}  // namespace ops
"""


def check(op):
    assert [p.bin_dtypes for p in op.inputs] == [["DT_INT32"] * 3]
    assert [p.bin_formats for p in op.inputs] == [["FORMAT_ND", "FORMAT_ND", "FORMAT_NCHW"]]
    assert dtype_column(op, {"x": "DT_INT16", "y": "DT_FLOAT"}) == 0          # the inputs still pick their own column
    assert [binary_column(op, k) for k in range(3)] == [1, 1, 2]
    m = dtype_macros(op, 0)
    assert m["DTYPE_X"] == "int32_t" and m["ORIG_DTYPE_X"] == dtype_macros(op, 1)["ORIG_DTYPE_X"] and m["FORMAT_X"] == "FORMAT_ND"
    m = dtype_macros(op, 2)
    assert m["DTYPE_X"] == "int16_t" and m["FORMAT_X"] == "FORMAT_NCHW"


def test_a_column_mapped_onto_another_runs_its_binary_read_from_the_text():
    check(parse_op_definition(DEFINITION, "op_host/bin_query_custom.cpp"))


def test_a_column_mapped_onto_another_runs_its_binary_read_from_the_registered_definition():
    op = registered_definition({"op_host/bin_query_custom.cpp": DEFINITION}, "op_host/bin_query_custom.cpp")
    assert op.type == "BinQueryCustom"
    check(op)


def test_without_the_mapping_each_column_is_its_own():
    op = parse_op_definition(DEFINITION.replace(".DataTypeForBinQuery({ge::DT_INT32, ge::DT_INT32, ge::DT_INT32})", "")
                             .replace(".FormatForBinQuery({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_NCHW})", ""),
                             "op_host/bin_query_custom.cpp")
    assert [binary_column(op, k) for k in range(3)] == [0, 1, 2] and dtype_macros(op, 0)["DTYPE_X"] == "int16_t"
