"""The corpus harness's link step (examples/corpus/corpus.py `_defines`) never brings a source for a function it defines
`static`: file-local, it satisfies no other unit's reference. cann-ops conv3d_backprop_input_v2's link missed
`optiling::Lcm(long, long)` (declared in cube_tiling_runtime.h); the step brought group_norm_silu_tiling.cpp for its
`inline static int64_t Lcm(...)`, which did not compile beside that declaration and kept the link's other sources out."""
from _corpus import load_corpus

corpus = load_corpus("corpus_link_static")


def test_a_static_function_defines_no_symbol_for_the_link():
    local = "namespace optiling {\nnamespace {\n}\n    inline static int64_t Lcm(int64_t a, int64_t b) {\n return a * b; }\n}\n"
    assert not corpus._defines(local, "optiling::Lcm(long, long)")
    assert not corpus._defines("namespace optiling {\nstatic int64_t\nLcm(int64_t a, int64_t b) { return a; }\n}\n",
                               "optiling::Lcm(long, long)")
    # the same function without `static`, and one after a static one, define it
    assert corpus._defines("namespace optiling {\nint64_t Lcm(int64_t a, int64_t b) {\n return a * b; }\n}\n",
                           "optiling::Lcm(long, long)")
    assert corpus._defines("namespace optiling {\nstatic int Gcd(int a, int b) { return a; }\n"
                           "int64_t Lcm(int64_t a, int64_t b) { return a * b / Gcd(a, b); }\n}\n", "optiling::Lcm(long, long)")


def test_a_function_returning_std_string_is_found_under_its_abi_tag():
    # ops-transformer fused_infer_attention_score's link misses `optiling::LayoutToSerialString[abi:cxx11](optiling::
    # FiaLayout)` (g++ tags a function returning std::string); attention/common/op_host/fia_tiling_info.cpp defines it
    text = "namespace optiling {\nstd::string LayoutToSerialString(FiaLayout layout)\n{\n    return \"BSH\";\n}\n}\n"
    assert corpus._defines(text, "optiling::LayoutToSerialString[abi:cxx11](optiling::FiaLayout)")
    assert not corpus._defines(text, "optiling::AxisToSerialString[abi:cxx11](optiling::FiaAxis)")
