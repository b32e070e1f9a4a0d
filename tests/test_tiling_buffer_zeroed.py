"""A host tiling function starts with a tiling buffer of zeros, as CANN's runtime hands it one (metadef's
gert::TilingData::CreateCap value-initialises its bytes).

ops-transformer's FusedInferAttentionScore writes PromptFlashAttention's tiling through `GetTilingData<T>()` (the raw
buffer, not a constructed struct) and sizes its workspace from a field its CVDIFF path never sets (spmTmpSize): 0 on
CANN, the emulator's 0xA5 poison gave a 266,824,195,552-byte workspace (forty-fourth / forty-fifth rounds, attn). The
tiling lines below check every byte of the buffer on entry, and read a field of GetTilingData<T>() before anything
writes it, as that adapter does."""
from test_opproject import runs_like_scale_add, with_tiling_lines


def test_the_tiling_buffer_is_zeros_when_the_tiling_function_starts(tmp_path):
    folder = with_tiling_lines(tmp_path, """    {
        struct Unwritten { uint32_t written; uint32_t spmTmpSize; };
        gert::TilingData* raw = context->GetRawTilingData();
        const unsigned char* bytes = static_cast<const unsigned char*>(raw->GetData());
        for (size_t i = 0; i < raw->GetCapacity(); ++i)
            if (bytes[i] != 0) return ge::GRAPH_FAILED;
        const Unwritten* view = context->GetTilingData<Unwritten>();   // the form FusedInferAttentionScore's adapter takes
        if (view->spmTmpSize != 0) return ge::GRAPH_FAILED;
    }
""")
    runs_like_scale_add(folder)   # before the fix: a host-tiling error (the buffer held the 0xA5 poison)
