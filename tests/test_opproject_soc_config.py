"""An operator definition that declares its inputs and outputs on the op and again on the OpAICoreConfig it adds for
ascend910b (hicann ops-nn dynamic_block_quant: the op's lists are Ascend 950's, DT_HIFLOAT8 first; its ascend910b
configuration's are A2's, y int8). CANN's build for a SoC merges that SoC's configuration into the op by parameter name:
the configuration's ParamType, and its dtypes and formats where it sets them; a parameter only the configuration
declares is added. AddConfig keeps a copy, so what is declared on the configuration after the AddConfig("ascend910b",
...) call is another SoC's (ops-nn mat_mul_v3 fills its configuration for ascend310p after adding it for ascend910b).
`parse_op_definition` reads the definition as the A2 build does."""
from ascendcraft.opproject import parse_op_definition

BOTH = r"""#include "register/op_def_registry.h"
namespace ops {
static const std::vector<ge::DataType> X_950 = {ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT, ge::DT_FLOAT16};
class BlockScale : public OpDef {
public:
    explicit BlockScale(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType(X_950).Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("offset").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT});
        this->Output("y").ParamType(REQUIRED)
            .DataType({ge::DT_HIFLOAT8, ge::DT_HIFLOAT8, ge::DT_HIFLOAT8, ge::DT_INT8})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT});
        this->Attr("block").AttrType(OPTIONAL).Int(128);

        OpAICoreConfig config950;
        config950.DynamicFormatFlag(false);
        this->AICore().AddConfig("ascend950", config950);

        OpAICoreConfig a2;
        a2.DynamicFormatFlag(true);
        a2.Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16});
        a2.Input("offset").ParamType(OPTIONAL).DataType({ge::DT_FLOAT16, ge::DT_BF16});
        a2.Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        a2.Output("y").ParamType(REQUIRED).DataType({ge::DT_INT8, ge::DT_INT8});
        a2.Output("scale").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT});
        this->AICore().AddConfig("ascend910b", a2);
        this->AICore().AddConfig("ascend910_93", a2);
        a2.Output("y").ParamType(REQUIRED).DataType({ge::DT_INT4, ge::DT_INT4});   // after: another SoC's
        this->AICore().AddConfig("ascend310p", a2);
    }
};
OP_ADD(BlockScale);
}  // namespace ops
"""


def test_the_a2_build_takes_its_configurations_lists_merged_by_name():
    op = parse_op_definition(BOTH, "op_host/block_scale_def.cpp")
    ins, outs = {p.name: p for p in op.inputs}, {p.name: p for p in op.outputs}
    assert [p.name for p in op.inputs] == ["x", "offset", "bias"] and [p.name for p in op.outputs] == ["y", "scale"]
    assert ins["x"].dtypes == ["DT_FLOAT16", "DT_BF16"]
    # the op's formats stay where the configuration sets none (CANN's merge replaces only what the configuration sets)
    assert ins["x"].formats == ["FORMAT_ND"] * 4
    assert ins["offset"].option == "OPTIONAL" and ins["offset"].dtypes == ["DT_FLOAT16", "DT_BF16"]
    assert ins["bias"].option == "OPTIONAL" and ins["bias"].dtypes == ["DT_FLOAT", "DT_FLOAT"]
    assert outs["y"].dtypes == ["DT_INT8", "DT_INT8"] and outs["scale"].dtypes == ["DT_FLOAT", "DT_FLOAT"]
    assert [a.name for a in op.attrs] == ["block"]


def test_a_configuration_filled_after_its_ascend910b_call_leaves_the_ops_lists():
    # mat_mul_v3's form: the configuration is added for ascend910b empty, then filled for ascend310p
    late = BOTH.replace('        this->AICore().AddConfig("ascend910b", a2);\n', "").replace(
        "        OpAICoreConfig a2;\n", '        OpAICoreConfig a2;\n        this->AICore().AddConfig("ascend910b", a2);\n')
    op = parse_op_definition(late, "op_host/block_scale_def.cpp")
    assert [p.name for p in op.inputs] == ["x", "offset"]
    assert op.inputs[0].dtypes == ["DT_FLOAT16", "DT_BF16", "DT_FLOAT", "DT_FLOAT16"]
    assert op.outputs[0].dtypes == ["DT_HIFLOAT8", "DT_HIFLOAT8", "DT_HIFLOAT8", "DT_INT8"]


def test_a_definition_declared_only_on_its_ascend910b_configuration_is_read_as_before():
    # ops-transformer FlashAttentionScore's form: no Input / Output on the op
    only = r"""
namespace ops {
class OnlyConfig : public OpDef {
public:
    explicit OnlyConfig(const char* name) : OpDef(name)
    {
        OpAICoreConfig c;
        c.Input("q").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16});
        c.Output("o").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16});
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
        this->AICore().AddConfig("ascend910b", c);
    }
};
OP_ADD(OnlyConfig);
}
"""
    op = parse_op_definition(only, "op_host/only_config_def.cpp")
    assert [(p.name, p.dtypes) for p in op.inputs] == [("q", ["DT_FLOAT16", "DT_BF16"])]
    assert [(p.name, p.dtypes) for p in op.outputs] == [("o", ["DT_FLOAT16", "DT_BF16"])]
    assert [a.name for a in op.attrs] == ["scale"]


# The compiled reading (`registered_definition`: for definitions whose lists are computed or named by variable) takes
# the ascend910b configuration as the text reading does: a definition of our own whose lists a function computes.
COMPUTED = r"""#include "register/op_def_registry.h"
namespace ops {
static std::vector<ge::DataType> Repeat(ge::DataType d, size_t n) { return std::vector<ge::DataType>(n, d); }
static std::vector<ge::Format> Nd(size_t n) { return std::vector<ge::Format>(n, ge::FORMAT_ND); }
class GroupScale : public OpDef {
public:
    explicit GroupScale(const char* name) : OpDef(name)
    {
        std::vector<ge::DataType> x950 = Repeat(ge::DT_FLOAT16, 3);
        x950.push_back(ge::DT_BF16);
        this->Input("x").ParamType(REQUIRED).DataType(x950).Format(Nd(4));
        this->Input("offset").ParamType(REQUIRED).DataType(Repeat(ge::DT_FLOAT, 4)).Format(Nd(4));
        this->Output("y").ParamType(REQUIRED).DataType(Repeat(ge::DT_HIFLOAT8, 4)).Format(Nd(4));
        this->Attr("group").AttrType(OPTIONAL).Int(32);

        OpAICoreConfig a2;
        a2.Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16});
        a2.Input("offset").ParamType(OPTIONAL).DataType(Repeat(ge::DT_FLOAT, 2)).Format(Nd(2));
        a2.Input("bias").ParamType(OPTIONAL).DataType(Repeat(ge::DT_FLOAT, 2)).Format(Nd(2));
        a2.Output("y").ParamType(REQUIRED).DataType(Repeat(ge::DT_INT8, 2)).FormatForBinQuery(Nd(2));
        this->AICore().AddConfig("ascend910b", a2);
        a2.Output("y").ParamType(REQUIRED).DataType(Repeat(ge::DT_INT4, 2));   // after the call: another SoC's
        this->AICore().AddConfig("ascend310p", a2);
    }
};
OP_ADD(GroupScale);
}  // namespace ops
"""


def _fields(op):
    return ([(p.name, p.option, p.dtypes, p.formats, p.bin_dtypes, p.bin_formats) for p in op.inputs],
            [(p.name, p.option, p.dtypes, p.formats, p.bin_dtypes, p.bin_formats) for p in op.outputs])


def test_the_compiled_reading_merges_the_ascend910b_configuration():
    from ascendcraft.opproject import registered_definition
    op = registered_definition({"op_host/group_scale_def.cpp": COMPUTED}, "op_host/group_scale_def.cpp")
    ins, outs = _fields(op)
    assert ins == [("x", "REQUIRED", ["DT_FLOAT16", "DT_BF16"], ["FORMAT_ND"] * 4, [], []),   # the op's formats stay
                   ("offset", "OPTIONAL", ["DT_FLOAT", "DT_FLOAT"], ["FORMAT_ND"] * 2, [], []),
                   ("bias", "OPTIONAL", ["DT_FLOAT", "DT_FLOAT"], ["FORMAT_ND"] * 2, [], [])]
    assert outs == [("y", "REQUIRED", ["DT_INT8", "DT_INT8"], ["FORMAT_ND"] * 4, [], ["FORMAT_ND"] * 2)]


def test_the_compiled_and_text_readings_agree_on_the_a2_configuration():
    "Where the text can be read (BOTH, and the configuration-only form), both readings give the same lists."
    from ascendcraft.opproject import registered_definition
    for text, file in ((BOTH, "op_host/block_scale_def.cpp"),):
        compiled = registered_definition({file: text}, file)
        assert _fields(compiled) == _fields(parse_op_definition(text, file))
