"""One reader of "does this host text register a tiling function" (`opproject._registers_tiling`), asked of one op's
type (`missing_tiling`, the `no-tiling` build error) or of any op (`glue_source`: a definition that registers none is
linked as a library of its own). Before, the two questions had a reader each and disagreed on what a registration looks
like. The forms follow metadef (register/op_impl_registry.h, asc/register/op_def.h): IMPL_OP / IMPL_OP_OPTILING /
IMPL_OP_INFERSHAPE only declare a gert::OpImplRegisterV2 of the type, `.Tiling(fn)` registers the function and
`.TilingParse<T>(fn)` only the compile-info parser; OpDef's SetTiling is a member of OpAICoreDef
(`this->AICore().SetTiling(fn)`)."""
import pytest

from ascendcraft.opproject import _registers_tiling

OPDEF = ("namespace ops {\nclass Foo : public OpDef {\npublic:\n    explicit Foo(const char* name) : OpDef(name)\n    {\n"
         "        this->Input(\"x\").ParamType(REQUIRED);\n        this->AICore()\n            {call};\n"
         "        this->AICore().AddConfig(\"ascend910b\");\n    }\n};\nOP_ADD(Foo);\n}\n")


def _asks(text: str, *others: str) -> tuple[bool, bool, bool]:
    "(registers for Foo, registers for Bar, registers for any op) over `text` and `others`, as host texts of one build."
    texts = {f"op_host/t{i}.cpp": t for i, t in enumerate((text, *others))}
    return _registers_tiling(texts, "Foo"), _registers_tiling(texts, "Bar"), _registers_tiling(texts)


@pytest.mark.parametrize("text, expected", [
    # an OpDef's SetTiling: a member call of AICore()'s OpAICoreDef, on its own line or not
    (OPDEF.replace("{call}", ".SetTiling(optiling::TilingFunc)"), (True, False, True)),
    ("class Foo : public OpDef { Foo(const char* n) : OpDef(n) { this->AICore().SetTiling(TilingFunc); } };",
     (True, False, True)),
    # a function named SetTiling that is no OpAICoreDef's (cann-ops' add_layer_norm_grad / avg_pool3_d helpers, the cube
    # tiling caches' members): no registration, also in the file of the OpDef (before: one for the typed question)
    (OPDEF.replace("{call}", ".AddConfig(\"ascend310p\")") +
     "static void SetTiling(TilingData& t) {}\nvoid F(TilingData& t) { SetTiling(t); }\n", (False, False, False)),
    # a member SetTiling of some other object, in a file of no OpDef (before: one for the any-op question,
    # cann-ops quant_batch_matmul_v3_basic_tiling.cpp's `hashValue.SetTiling(basicTiling_)`)
    ("void G() { hashValue.SetTiling(basicTiling_); }\n", (False, False, False)),
    # the IMPL_OP family, whose chain calls .Tiling
    ("IMPL_OP_OPTILING(Foo).Tiling(TilingFunc);", (True, False, True)),
    ("IMPL_OP_OPTILING(Foo)\n    .TilingParse<CompileInfo>(Prepare)\n    .Tiling(TilingFunc, 4096);", (True, False, True)),
    ("IMPL_OP(Foo).InferShape(Infer).Tiling(TilingFunc);", (True, False, True)),
    ("IMPL_OP_DEFAULT(Foo).Tiling(TilingFunc);", (True, False, True)),
    ("IMPL_OP_DEFAULT().Tiling(TilingFunc);", (False, False, True)),   # metadef's DefaultImpl: no op's own
    # IMPL_OP_INFERSHAPE declares the same registrar: a .Tiling in its chain registers (before: none for the typed one)
    ("IMPL_OP_INFERSHAPE(Foo).InferShape(Infer).Tiling(TilingFunc);", (True, False, True)),
    # a chain that registers no tiling function: shape inference, or only the compile-info parser (before: one for
    # the any-op question); a .Tiling of the next statement is not the chain's
    ("IMPL_OP_INFERSHAPE(Foo).InferShape(Infer);", (False, False, False)),
    ("IMPL_OP_OPTILING(Foo).TilingParse<CompileInfo>(Prepare);", (False, False, False)),
    ("IMPL_OP_OPTILING(Foo).TilingParse<CompileInfo>(Prepare);\nvoid H() { other.Tiling(x); }", (False, False, False)),
    # a macro whose body registers: its type is pasted in, which text cannot resolve, so it counts for every type
    ("#define REG(OP) IMPL_OP_OPTILING(OP).Tiling(TilingFunc)\nREG(Foo);", (True, True, True)),
    ("#define DEF(OP) class OP : public OpDef { \\\n  OP(const char* n) : OpDef(n) { \\\n"
     "    this->AICore().SetTiling(TilingFunc); } }; \\\n  OP_ADD(OP)\nDEF(Foo);", (True, True, True)),
    ("#define REG(OP) IMPL_OP_OPTILING(OP).TilingParse<CompileInfo>(Prepare)\nREG(Foo);", (False, False, False)),
    # a registration in a comment is none
    ("// IMPL_OP_OPTILING(Foo).Tiling(TilingFunc);\n/* this->AICore().SetTiling(TilingFunc); */ class Foo {};",
     (False, False, False)),
    ("", (False, False, False)),
])
def test_one_reader_of_a_tiling_registration_with_and_without_a_type(text, expected):
    assert _asks(text) == expected


def test_the_registration_may_be_in_any_host_text_of_the_build():
    definition = OPDEF.replace("{call}", ".AddConfig(\"ascend310p\")")
    assert _asks(definition) == (False, False, False)
    assert _asks(definition, "IMPL_OP_OPTILING(Foo).Tiling(TilingFunc);") == (True, False, True)
    # the OpDef's SetTiling counts in the file of its class or OP_ADD only
    assert _asks(definition, "void I() { this->AICore().SetTiling(TilingFunc); }")[0] is False
