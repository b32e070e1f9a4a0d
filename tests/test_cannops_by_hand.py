"""examples/corpus/cannops_by_hand.py: a cann-ops op run on its own example's data and judged by its own script. The
example (gen_data.py, main.cpp, verify_result.py, run.sh) is one written here in the repository's style around the
project's own ScaleAddCustom (examples/opprojects/scale_add_custom): z = x + alpha * y."""
from pathlib import Path

import pytest

from _corpus import git_repo, load_beside

PROJECT = Path(__file__).resolve().parents[1] / "examples" / "opprojects" / "scale_add_custom"
OP = "src/math/scale_add_custom"

GEN_DATA = '''import os
import numpy as np

def gen_golden_data_simple():
    x = np.random.uniform(-2, 2, [4, 96]).astype(np.float32)
    y = np.random.uniform(-2, 2, [4, 96]).astype(np.float32)
    golden = (x + ALPHA * y).astype(np.float32)
    os.system("mkdir -p input")
    os.system("mkdir -p output")
    x.tofile("./input/input_x.bin")
    y.tofile("./input/input_y.bin")
    golden.tofile("./output/golden.bin")

if __name__ == "__main__":
    gen_golden_data_simple()
'''

MAIN_CPP = '''#include "acl/acl.h"
#include "aclnn_scale_add_custom.h"
#define INDEX_ZERO 0

int main(int argc, char **argv)
{
    // the shapes, and the attribute
    std::vector<int64_t> inputXShape = {4, 96};
    std::vector<int64_t> inputYShape = {inputXShape[INDEX_ZERO], 96};
    std::vector<int64_t> outputZShape = {4, 96};
    float alpha = 0.5f;
    size_t n = inputXShape[0] * inputXShape[1];
    std::vector<float> inputXHostData(n);
    std::vector<float> inputYHostData(n);
    std::vector<float> outputZHostData(n);
    void ** input1=(void **)(&inputXHostData);
    void ** input2=(void **)(&inputYHostData);
    ReadFile("../input/input_x.bin", fileSize, *input1, n * sizeof(float));
    ReadFile("../input/input_y.bin", fileSize, *input2, n * sizeof(float));
    ret = CreateAclTensor(inputXHostData, inputXShape, &inputXDeviceAddr, aclDataType::ACL_FLOAT, &inputX);
    ret = CreateAclTensor(inputYHostData, inputYShape, &inputYDeviceAddr, aclDataType::ACL_FLOAT, &inputY);
    ret = CreateAclTensor(outputZHostData, outputZShape, &outputZDeviceAddr, aclDataType::ACL_FLOAT, &outputZ);
    ret = aclnnScaleAddCustomGetWorkspaceSize(inputX, inputY, alpha, outputZ, &workspaceSize, &executor);
    ret = aclnnScaleAddCustom(workspaceAddr, workspaceSize, executor, stream);
    std::vector<float> resultData(n, 0);
    ret = aclrtMemcpy(resultData.data(), resultData.size() * sizeof(resultData[0]), outputZDeviceAddr,
                      n * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST);
    void ** output1=(void **)(&resultData);
    WriteFile("../output/output_z.bin", *output1, n * sizeof(float));
    return 0;
}
'''

VERIFY = '''import sys
import numpy as np

LOSS = 1e-4

def verify_result(real_result, golden):
    real = np.fromfile(real_result, dtype=np.float32)
    gold = np.fromfile(golden, dtype=np.float32)
    if real.shape != gold.shape or not np.allclose(real, gold, rtol=LOSS, atol=LOSS):
        print("[ERROR] result error")
        return False
    print("test pass")
    return True

if __name__ == '__main__':
    verify_result(sys.argv[1], sys.argv[2])
'''

RUN_SH = '''python3 gen_data.py
ret=`python3 verify_result.py output/output_z.bin output/golden.bin`
echo $ret
'''


@pytest.fixture(scope="module")
def cbh():
    return load_beside("cannops_by_hand")


def example(root: Path, alpha: str = "0.5", main: str = MAIN_CPP):
    ex = f"{OP}/examples/AclNNInvocationNaive"
    return git_repo(root, {f"{ex}/gen_data.py": GEN_DATA.replace("ALPHA", alpha), f"{ex}/main.cpp": main,
                           f"{ex}/verify_result.py": VERIFY, f"{ex}/run.sh": RUN_SH})


def test_main_cpp_gives_the_tensors_files_attribute_and_output_file(cbh):
    plan = cbh.parse_main(MAIN_CPP)
    assert plan.api == "aclnnScaleAddCustom" and plan.args == ["inputX", "inputY", "alpha", "outputZ"]
    x, y, z = (plan.tensors[n] for n in ("inputX", "inputY", "outputZ"))
    assert (x.shape, x.dtype, x.file) == ((4, 96), "float32", "../input/input_x.bin")
    assert (y.shape, y.file) == ((4, 96), "../input/input_y.bin")     # a shape of an earlier shape's element
    assert z.file is None and plan.writes == {"outputZ": "../output/output_z.bin"}
    assert plan.values["alpha"] == 0.5
    assert cbh.tolerance(VERIFY) == "LOSS=1e-4"
    assert cbh.verify_commands(RUN_SH) == [["output/output_z.bin", "output/golden.bin"]]


def project_of(path):
    from ascendcraft.config import load_settings
    from ascendcraft.opproject import load_project
    return load_project(PROJECT), load_settings()


def test_an_op_on_its_own_data_matches_by_its_own_script(cbh, tmp_path):
    gitdir, commit = example(tmp_path / "repo")
    line = cbh.run_example(OP, gitdir, commit, tmp_path / "work", project_of)
    assert line.startswith("scale_add_custom: key ") and line.endswith(": match"), line
    assert "tolerance LOSS=1e-4" in line and "worst abs error" in line
    assert (tmp_path / "work" / "example" / "output" / "output_z.bin").stat().st_size == 4 * 96 * 4


def test_a_golden_answer_the_kernel_does_not_give_is_a_mismatch(cbh, tmp_path):
    # the authors' golden with another alpha than main.cpp passes: their script refuses our (right) output
    gitdir, commit = example(tmp_path / "repo", alpha="0.75")
    line = cbh.run_example(OP, gitdir, commit, tmp_path / "work", project_of)
    assert line.endswith(": MISMATCH"), line
    assert float(line.split("worst abs error ")[1].split(":")[0]) > 0.01


def test_a_call_that_does_not_fit_the_definition_is_no_reference(cbh, tmp_path):
    main = MAIN_CPP.replace("(inputX, inputY, alpha, outputZ,", "(inputX, inputY, outputZ,")
    gitdir, commit = example(tmp_path / "repo", main=main)
    line = cbh.run_example(OP, gitdir, commit, tmp_path / "work", project_of)
    assert line.startswith("scale_add_custom: NO REFERENCE (main.cpp's aclnnScaleAddCustom call passes 3 arguments"), line


VERIFY_LOGGING = '''import sys
import logging
import numpy as np

LOSS = 1e-4
logging.basicConfig(level=logging.DEBUG, format='%(asctime)s - %(levelname)s - %(message)s')

def verify_result(real_result, golden):
    real = np.fromfile(real_result, dtype=np.float32)
    gold = np.fromfile(golden, dtype=np.float32)
    if real.shape != gold.shape or not np.allclose(real, gold, rtol=LOSS, atol=LOSS):
        logging.error("compare failed")
        sys.exit(1)
    logging.info("test pass")
    sys.exit(0)

if __name__ == '__main__':
    verify_result(sys.argv[1], sys.argv[2])
'''


@pytest.mark.parametrize("alpha, verdict", [("0.5", ": match"), ("0.75", ": MISMATCH")])
def test_a_script_that_judges_through_logging_and_its_exit_status(cbh, tmp_path, alpha, verdict):
    # (cann-ops add_custom's style: "test pass" on stderr through logging, a refusal as exit status 1)
    ex = f"{OP}/examples/AclNNInvocationNaive"
    gitdir, commit = git_repo(tmp_path / "repo", {f"{ex}/gen_data.py": GEN_DATA.replace("ALPHA", alpha),
                                                  f"{ex}/main.cpp": MAIN_CPP, f"{ex}/verify_result.py": VERIFY_LOGGING,
                                                  f"{ex}/run.sh": RUN_SH})
    line = cbh.run_example(OP, gitdir, commit, tmp_path / "work", project_of)
    assert line.endswith(verdict), line


def test_main_cpp_other_forms_tensor_first_a_dtype_variable_and_a_scalar_input(cbh):
    # CreateAclTensor(host, shape, dtype, &tensor, &deviceAddr), ReadFile(path, host.data(), bytes), and an aclScalar
    # passed where the definition has a (scalar) input
    main = '''int main() {
    std::vector<int64_t> xShape = {8, 16};
    aclTensor *x = nullptr;
    aclTensor *y = nullptr;
    aclScalar *value = nullptr;
    aclDataType valueType = aclDataType::ACL_FLOAT16;
    std::vector<int32_t> xHostData(128);
    std::vector<int32_t> yHostData(128);
    CHECK_RET(ReadFile("../input/input_x.bin", xHostData.data(), 512), return FAILED);
    ret = CreateAclTensor(xHostData, xShape, ACL_INT32, &x, &xDeviceAddr);
    ret = CreateAclTensor(yHostData, xShape, valueType, &y, &yDeviceAddr);
    aclFloat16 scalarValue = aclFloatToFloat16(1.5f);
    value = aclCreateScalar(&scalarValue, valueType);
    ret = aclnnThingGetWorkspaceSize(x, value, y, &workspaceSize, &executor);
    ret = aclrtMemcpy(yHostData.data(), 256, yDeviceAddr, 256, ACL_MEMCPY_DEVICE_TO_HOST);
    CHECK_RET(WriteFile("../output/output_y.bin", yHostData.data(), 256), return FAILED);
}'''
    plan = cbh.parse_main(main)
    assert set(plan.tensors) == {"x", "y"} and plan.tensors["x"].addr == "xDeviceAddr"
    assert (plan.tensors["x"].dtype, plan.tensors["x"].file) == ("int32", "../input/input_x.bin")
    assert plan.tensors["y"].dtype == "float16" and plan.writes == {"y": "../output/output_y.bin"}
    assert plan.values["value"] == 1.5 and plan.scalars == {"value": "float16"}


def test_a_ref_output_is_one_argument_and_an_int_array_of_a_c_array(cbh):
    # Eye-like: input y and output y (a ref output) are the call's one tensor argument; an aclIntArray of a C array
    from types import SimpleNamespace as NS
    main = '''int main() {
    std::vector<int64_t> yShape = {2, 3};
    std::vector<float> yHostData(6, 0);
    int64_t dims[2] = {2, 3};
    aclIntArray *shape = aclCreateIntArray(&(dims[0]), 2);
    ret = CreateAclTensor(yHostData, yShape, &yDeviceAddr, aclDataType::ACL_FLOAT, &y);
    ret = aclnnThingGetWorkspaceSize(y, shape, 0, &workspaceSize, &executor);
}'''
    plan = cbh.parse_main(main)
    assert plan.values["shape"] == [2, 3]
    op = NS(inputs=[NS(name="y")], attrs=[NS(name="shape", kind="list_int"), NS(name="k", kind="int")],
            outputs=[NS(name="y")])
    import numpy as np
    inputs, attrs, outputs, names, initial = cbh.bind(plan, op, {"y": np.zeros((2, 3), np.float32)})
    assert list(inputs) == ["y"] and attrs == {"shape": [2, 3], "k": 0} and outputs == {} and names == {"y": ["y"]}


def test_an_output_file_main_cpp_writes_in_a_way_not_followed_is_no_reference(cbh, tmp_path):
    # (before: the verify script read a file nobody wrote, and the op was a MISMATCH)
    main = MAIN_CPP.replace('WriteFile("../output/output_z.bin", *output1', 'WriteFile(outputPath, *output1')
    gitdir, commit = example(tmp_path / "repo", main=main)
    line = cbh.run_example(OP, gitdir, commit, tmp_path / "work", project_of)
    assert "NO REFERENCE (verify_result.py reads output/output_z.bin output/golden.bin: main.cpp's writing" in line, line


def test_a_tensor_made_by_a_helper_named_for_its_format(cbh):
    # (cann-ops' image examples make their tensors with a helper of their own naming, CreateAclNchTensor /
    # CreateAclNclTensor, the same arguments as CreateAclTensor; before, none was read and the call's tensors were none)
    main = '''int CreateAclNchTensor(const std::vector<T> &hostData, const std::vector<int64_t> &shape, void **deviceAddr,
    aclDataType dataType, aclTensor **tensor) { return 0; }
int main() {
    std::vector<int64_t> selfShape = {1, 1, 4, 2};
    std::vector<int64_t> outShape = {1, 1, 8, 4};
    std::vector<float> selfHostData = {0, 1, 2, 3, 4, 5, 6, 7};
    std::vector<float> outHostData(32, 0);
    ret = CreateAclNchTensor(selfHostData, selfShape, &selfDeviceAddr, aclDataType::ACL_FLOAT, &self);
    ret = CreateAclNclTensor(outHostData, outShape, &outDeviceAddr, aclDataType::ACL_FLOAT, &out);
    ret = aclnnThingGetWorkspaceSize(self, out, &workspaceSize, &executor);
    std::vector<float> resultData(32, 0);
    ret = aclrtMemcpy(resultData.data(),
        resultData.size() * sizeof(resultData[0]),
        outDeviceAddr,
        32 * sizeof(resultData[0]),
        ACL_MEMCPY_DEVICE_TO_HOST);
    void ** output_out=(void **)(&resultData);
    WriteFile("../output/output_out.bin", *output_out, 32 * sizeof(resultData[0]));
}'''
    plan = cbh.parse_main(main)
    assert set(plan.tensors) == {"self", "out"}
    assert plan.tensors["self"].shape == (1, 1, 4, 2) and plan.tensors["self"].values == [0, 1, 2, 3, 4, 5, 6, 7]
    assert plan.tensors["out"].shape == (1, 1, 8, 4) and plan.writes == {"out": "../output/output_out.bin"}


def test_a_tensor_copied_out_twice_keeps_its_first_file(cbh):
    # (cann-ops fake_quant_affine_cachemask's main.cpp copies `out`'s device address into two host vectors and writes
    # them to output_out.bin and output_mask.bin; run.sh verifies output_out.bin. Before, the later file replaced the
    # first and the verified file was never written: NO REFERENCE)
    main = '''int main() {
    std::vector<int64_t> shape = {4, 8};
    std::vector<float> xHostData(32, 0);
    std::vector<float> outHostData(32, 0);
    ret = CreateAclTensor(xHostData, shape, &xDeviceAddr, aclDataType::ACL_FLOAT, &x);
    ret = CreateAclTensor(outHostData, shape, &outDeviceAddr, aclDataType::ACL_FLOAT, &out);
    ret = aclnnThingGetWorkspaceSize(x, out, &workspaceSize, &executor);
    std::vector<float> resultOutData(32, 0);
    std::vector<float> resultMaskData(32, 0);
    ret = aclrtMemcpy(resultOutData.data(), 128, outDeviceAddr, 128, ACL_MEMCPY_DEVICE_TO_HOST);
    ret = aclrtMemcpy(resultMaskData.data(), 128, outDeviceAddr, 128, ACL_MEMCPY_DEVICE_TO_HOST);
    void ** output_out = (void **)(&resultOutData);
    WriteFile("../output/output_out.bin", *output_out, 128);
    void ** output_mask = (void **)(&resultMaskData);
    WriteFile("../output/output_mask.bin", *output_mask, 32);
}'''
    assert cbh.parse_main(main).writes == {"out": "../output/output_out.bin"}


def test_a_scalar_list_of_acl_scalars_is_a_one_dimensional_input(cbh):
    # (cann-ops foreach_add_scalar_list / foreach_div_scalar_list: aclCreateScalarList of a vector of aclScalars for
    # the definition's ScalarList input `scalars`; before, NO REFERENCE: "scalarlist is no tensor main.cpp makes")
    from types import SimpleNamespace as NS
    import numpy as np
    main = '''int main() {
    std::vector<int64_t> xShape = {2, 8};
    std::vector<float> xHostData(16, 1);
    std::vector<float> yHostData(16, 0);
    ret = CreateAclTensor(xHostData, xShape, &xDeviceAddr, aclDataType::ACL_FLOAT, &x);
    ret = CreateAclTensor(yHostData, xShape, &yDeviceAddr, aclDataType::ACL_FLOAT, &y);
    std::vector<aclTensor*> tempInput{x};
    aclTensorList* tensorListInput = aclCreateTensorList(tempInput.data(), tempInput.size());
    std::vector<aclTensor*> tempOutput{y};
    aclTensorList* tensorListOutput = aclCreateTensorList(tempOutput.data(), tempOutput.size());
    float alpha1Value = 1.5f;
    float alpha2Value = 2.5f;
    aclScalar* alpha1 = aclCreateScalar(&alpha1Value, aclDataType::ACL_FLOAT);
    aclScalar* alpha2 = aclCreateScalar(&alpha2Value, aclDataType::ACL_FLOAT);
    std::vector<aclScalar*> tempscalar{alpha1, alpha2};
    aclScalarList* scalarlist = aclCreateScalarList(tempscalar.data(), tempscalar.size());
    ret = aclnnThingGetWorkspaceSize(tensorListInput, scalarlist, tensorListOutput, &workspaceSize, &executor);
}'''
    plan = cbh.parse_main(main)
    assert plan.values["scalarlist"] == [1.5, 2.5] and plan.scalars["scalarlist"] == "float32"
    op = NS(inputs=[NS(name="x"), NS(name="scalars")], attrs=[], outputs=[NS(name="y")])
    inputs, attrs, outputs, names, initial = cbh.bind(plan, op, {"x": np.ones((2, 8), np.float32),
                                                                 "y": np.zeros((2, 8), np.float32)})
    assert inputs["scalars"].shape == (2,) and inputs["scalars"].dtype == np.float32
    assert inputs["scalars"].tolist() == [1.5, 2.5] and len(inputs["x"]) == 1 and list(outputs) == ["y"]


def test_an_int_array_input_takes_the_definitions_int32(cbh):
    # (cann-ops upsample_linear1d: aclCreateIntArray for the definition's `size` input, whose DataType list is int32
    # alone; before, an int64 tensor, and the run stopped with "no dtype combination ... size=DT_INT64")
    from types import SimpleNamespace as NS
    import numpy as np
    main = '''int main() {
    std::vector<int64_t> xShape = {1, 1, 4};
    std::vector<int64_t> yShape = {1, 1, 8};
    std::vector<float> xHostData(4, 1);
    std::vector<float> yHostData(8, 0);
    std::vector<int64_t> outArraySize = {8};
    ret = CreateAclTensor(xHostData, xShape, &xDeviceAddr, aclDataType::ACL_FLOAT, &x);
    ret = CreateAclTensor(yHostData, yShape, &yDeviceAddr, aclDataType::ACL_FLOAT, &y);
    const aclIntArray *outputSize = aclCreateIntArray(outArraySize.data(), outArraySize.size());
    ret = aclnnThingGetWorkspaceSize(x, outputSize, false, y, &workspaceSize, &executor);
}'''
    plan = cbh.parse_main(main)
    arrays = {"x": np.ones((1, 1, 4), np.float32), "y": np.zeros((1, 1, 8), np.float32)}
    for dtypes, want in ((["DT_INT32", "DT_INT32"], np.int32), (["DT_INT32", "DT_INT64"], np.int64), ([], np.int64)):
        op = NS(inputs=[NS(name="x", dtypes=["DT_FLOAT"]), NS(name="size", dtypes=dtypes)],
                attrs=[NS(name="align_corners", kind="bool")], outputs=[NS(name="y")])
        inputs, attrs, *_ = cbh.bind(plan, op, arrays)
        assert inputs["size"].dtype == want and inputs["size"].tolist() == [8] and attrs == {"align_corners": False}


def test_a_tensor_left_nullptr_is_an_absent_optional_input(cbh):
    # (cann-ops scatter_list's main.cpp declares `aclTensor* mask = nullptr;`, never makes it, and passes it for the
    # optional input mask; before, NO REFERENCE: "mask is no tensor main.cpp makes")
    from types import SimpleNamespace as NS
    import numpy as np
    main = '''int main() {
    std::vector<int64_t> xShape = {2, 8};
    std::vector<float> xHostData(16, 1);
    std::vector<float> yHostData(16, 0);
    aclTensor* x = nullptr;
    aclTensor* mask = nullptr;
    aclTensor* y = nullptr;
    ret = CreateAclTensor(xHostData, xShape, &xDeviceAddr, aclDataType::ACL_FLOAT, &x);
    ret = CreateAclTensor(yHostData, xShape, &yDeviceAddr, aclDataType::ACL_FLOAT, &y);
    ret = aclnnThingGetWorkspaceSize(x, mask, y, &workspaceSize, &executor);
    aclDestroyTensor(mask);
}'''
    plan = cbh.parse_main(main)
    assert plan.args == ["x", "nullptr", "y"]
    op = NS(inputs=[NS(name="x"), NS(name="mask")], attrs=[], outputs=[NS(name="y")])
    inputs, *_ = cbh.bind(plan, op, {"x": np.ones((2, 8), np.float32), "y": np.zeros((2, 8), np.float32)})
    assert inputs["mask"] is None and inputs["x"].shape == (2, 8)
    # one assigned later (mask = something) is not
    assert cbh.parse_main(main.replace("    ret = aclnnThing", "    mask = MakeMask();\n    ret = aclnnThing")).args == ["x", "mask", "y"]


def test_a_vector_whose_elements_main_cpp_sets_one_by_one(cbh):
    # (cann-ops fake_quant_affine_cachemask: `std::vector<float> scaleHostData(1); scaleHostData[0] = 0.1;`; before,
    # the tensor was read as made of its size alone, zeros, and the op ran with scale 0: a MISMATCH of the reading)
    main = '''int main() {
    std::vector<int64_t> scaleShape = {1};
    std::vector<int64_t> zpShape = {2};
    std::vector<float> scaleHostData(1);
    std::vector<int32_t> zeroPointHostData(2);
    scaleHostData[0] = 0.1;
    zeroPointHostData[1] = 25;
    ret = CreateAclTensor(scaleHostData, scaleShape, &scaleDeviceAddr, aclDataType::ACL_FLOAT, &scale);
    ret = CreateAclTensor(zeroPointHostData, zpShape, &zeroPointDeviceAddr, aclDataType::ACL_INT32, &zeroPoint);
    ret = aclnnThingGetWorkspaceSize(scale, zeroPoint, &workspaceSize, &executor);
}'''
    plan = cbh.parse_main(main)
    assert plan.tensors["scale"].values == [0.1] and plan.tensors["zeroPoint"].values == [0, 25]

def test_comment_marks_inside_strings_and_quotes_inside_comments_are_read_as_written(cbh):
    # a "//" or "/*" inside a string path is no comment; an apostrophe inside a comment opens no string
    main = MAIN_CPP.replace('"../input/input_x.bin"', '"../input//input_x.bin"') \
        .replace('"../output/output_z.bin"', '"../output/*output_z*/.bin"') \
        .replace("// the shapes, and the attribute", "// the op's shapes, and its attribute /* (x's and y's) */")
    plan = cbh.parse_main(main)
    assert plan.args == ["inputX", "inputY", "alpha", "outputZ"] and plan.values["alpha"] == 0.5
    assert plan.tensors["inputX"].file == "../input//input_x.bin"
    assert plan.tensors["inputY"].file == "../input/input_y.bin"
    assert plan.writes == {"outputZ": "../output/*output_z*/.bin"}


def test_an_op_whose_own_l2_api_sends_the_example_elsewhere_is_no_reference(cbh, tmp_path, monkeypatch):
    # (cann-ops pows: its aclnnPowTensorScalar runs the Pows kernel for six exponents only, CANN's Pow for 4.1)
    monkeypatch.setitem(cbh.NOT_THIS_KERNEL, "scale_add_custom", "the L2 API calls another op for alpha 0.5")
    gitdir, commit = example(tmp_path / "repo")
    line = cbh.run_example(OP, gitdir, commit, tmp_path / "work", project_of)
    assert line == "scale_add_custom: NO REFERENCE (the L2 API calls another op for alpha 0.5)", line


BLAS_MAIN = '''int main() {
    int32_t n = 6;
    std::vector<int64_t> xShape = {n};
    std::vector<int64_t> yShape = {1};
    size_t xSize = xShape[0];
    size_t ySize = yShape[0];
    std::vector<float> xHostData(xSize);
    std::vector<float> yHostData(ySize);
    std::vector<int64_t> lensHostData(xSize);
    ReadFile("../input/input_x.bin", fileSize, xHostData.data(), xSize * sizeof(float));
    ReadFile("../input/input_y.bin", fileSize, yHostData.data(), ySize * sizeof(float));
    ret = CreateAclTensor(xHostData, xShape, &xDeviceAddr, aclDataType::ACL_FLOAT, &x);
    ret = CreateAclTensor(yHostData, xShape, &yDeviceAddr, aclDataType::ACL_FLOAT, &y);
    lens = aclCreateIntArray(lensHostData.data(), xSize);
    ret = aclnnThingGetWorkspaceSize(x, n, y, &workspaceSize, &executor);
    std::vector<float> resultData(ySize, 0);
    ret = aclrtMemcpy(resultData.data(), 4, yDeviceAddr, 4, ACL_MEMCPY_DEVICE_TO_HOST);
    WriteFile("../output/output_y.bin", resultData.data(), ySize * sizeof(float));
}'''


def test_a_blas_style_main_cpp_writes_the_bytes_it_names_and_its_short_output_vector_is_poison(cbh, tmp_path):
    # (cann-ops scasum / scnrm2: y is made with x's shape from a one-value host vector, and one float is written back;
    # a constant of a shape's element, `size_t ySize = yShape[0]`, is known once the shapes are)
    from types import SimpleNamespace as NS
    import numpy as np
    plan = cbh.parse_main(BLAS_MAIN)
    assert plan.write_bytes == {"y": 4} and plan.writes == {"y": "../output/output_y.bin"}
    assert plan.values["lens"] == [None]      # an int array of a vector made of its size: its values unknown here
    (tmp_path / "input").mkdir()
    np.arange(6, dtype=np.float32).tofile(tmp_path / "input" / "input_x.bin")
    np.ones(1, np.float32).tofile(tmp_path / "input" / "input_y.bin")
    arrays = cbh.arrays_for(plan, tmp_path)
    assert plan.tensors["y"].host_count == 1 and arrays["y"].shape == (6,)
    op = NS(inputs=[NS(name="x")], attrs=[NS(name="n", kind="int")], outputs=[NS(name="y")])
    inputs, attrs, outputs, names, initial = cbh.bind(plan, op, arrays)
    assert outputs == {"y": ((6,), np.dtype("float32"))} and initial == {} and attrs == {"n": 6}
    # as an input, the short vector's tensor is no reference (host memory past the vector)
    op_in = NS(inputs=[NS(name="x"), NS(name="y")], attrs=[], outputs=[])
    plan.args = ["x", "y"]
    with pytest.raises(cbh.NoReference, match="input y: ../input/input_y.bin holds 1 float32 values, y has 6"):
        cbh.bind(plan, op_in, arrays)


def test_an_override_broadcasts_a_literal_tensor_as_the_ops_aclnn_does(cbh, tmp_path, monkeypatch):
    # (cann-ops fake_quant_affine_cachemask: its aclnn broadcasts the one-value scale and zeroPoint to (self's dim 0,)
    # before the kernel, which reads one per row; before, the override's "broadcast" was not read and the kernel read
    # past the one-value scale for the second row: a MISMATCH, worst error 2.5)
    import numpy as np
    main = '''int main() {
    std::vector<int64_t> selfShape = {2, 5};
    std::vector<int64_t> scaleShape = {1};
    std::vector<float> selfHostData(10, 1);
    std::vector<float> scaleHostData(1);
    std::vector<int32_t> zeroPointHostData(1);
    scaleHostData[0] = 0.1;
    zeroPointHostData[0] = 25;
    float enabled = 1.0;
    ret = CreateAclTensor(selfHostData, selfShape, &selfDeviceAddr, aclDataType::ACL_FLOAT, &self);
    ret = CreateAclTensor(scaleHostData, scaleShape, &scaleDeviceAddr, aclDataType::ACL_FLOAT, &scale);
    ret = CreateAclTensor(zeroPointHostData, scaleShape, &zeroPointDeviceAddr, aclDataType::ACL_INT32, &zeroPoint);
    ret = aclnnThingGetWorkspaceSize(self, scale, zeroPoint, enabled, &workspaceSize, &executor);
}'''
    monkeypatch.setitem(cbh.OVERRIDES, "thing", {"broadcast": {"scale": (2,), "zeroPoint": (2,)}, "values": {"enabled": 0}})
    plan = cbh.apply_overrides("thing", cbh.parse_main(main))
    arrays = cbh.arrays_for(plan, tmp_path)
    assert arrays["scale"].shape == (2,) and np.allclose(arrays["scale"], [0.1, 0.1]) and arrays["scale"].dtype == np.float32
    assert arrays["zeroPoint"].tolist() == [25, 25] and arrays["zeroPoint"].dtype == np.int32
    assert plan.values["enabled"] == 0 and arrays["self"].shape == (2, 5)
    # a tensor whose values are not known here is no reference, not zeros
    monkeypatch.setitem(cbh.OVERRIDES, "thing", {"broadcast": {"self": (4, 5)}})
    plan = cbh.parse_main(main.replace("std::vector<float> selfHostData(10, 1);", "std::vector<float> selfHostData(10);"))
    with pytest.raises(cbh.NoReference, match="broadcast self: its values unknown here"):
        cbh.apply_overrides("thing", plan)


def test_an_override_orders_the_arguments_as_the_ops_l0_launches_them(cbh, monkeypatch):
    # (cann-ops max_pool3d_grad_with_argmax: its l0 launches OP_INPUT(self, gradOutput, indices) while main.cpp's aclnn
    # call takes (gradOut, self, indices, ...); before, "args" was not read and x got the gradient, the tiling refused it)
    from types import SimpleNamespace as NS
    import numpy as np
    main = '''int main() {
    std::vector<int64_t> gShape = {1, 1, 1};
    std::vector<int64_t> sShape = {1, 2, 2};
    std::vector<float> gHostData(1, 1);
    std::vector<float> sHostData(4, 2);
    std::vector<float> oHostData(4, 0);
    ret = CreateAclTensor(gHostData, gShape, &gDeviceAddr, aclDataType::ACL_FLOAT, &gradOut);
    ret = CreateAclTensor(sHostData, sShape, &sDeviceAddr, aclDataType::ACL_FLOAT, &self);
    ret = CreateAclTensor(oHostData, sShape, &oDeviceAddr, aclDataType::ACL_FLOAT, &gradIn);
    ret = aclnnThingGetWorkspaceSize(gradOut, self, gradIn, &workspaceSize, &executor);
}'''
    monkeypatch.setitem(cbh.OVERRIDES, "thing", {"args": ["self", "gradOut", "gradIn"]})
    plan = cbh.apply_overrides("thing", cbh.parse_main(main))
    op = NS(inputs=[NS(name="x"), NS(name="grad")], attrs=[], outputs=[NS(name="y")])
    arrays = {"gradOut": np.ones((1, 1, 1), np.float32), "self": np.full((1, 2, 2), 2, np.float32),
              "gradIn": np.zeros((1, 2, 2), np.float32)}
    inputs, attrs, outputs, names, initial = cbh.bind(plan, op, arrays)
    assert inputs["x"].shape == (1, 2, 2) and inputs["grad"].shape == (1, 1, 1) and names["y"] == ["gradIn"]
    # a name that is not one of main.cpp's arguments is refused
    monkeypatch.setitem(cbh.OVERRIDES, "thing", {"args": ["self", "other", "gradIn"]})
    with pytest.raises(cbh.NoReference, match="not main.cpp's"):
        cbh.apply_overrides("thing", cbh.parse_main(main))


def test_attribute_values_main_cpp_reads_from_gen_datas_files(cbh, tmp_path):
    # (cann-ops motion_compensation: timestampMin and the translation / quaternion arrays are read from gen_data.py's
    # files into an int64_t and vectors of no tensor, and passed as attributes; before, their values were unknown and
    # the run stopped: "attribute 'timestamp_min' of MotionCompensation is required and has no value")
    from types import SimpleNamespace as NS
    import numpy as np
    main = '''int main() {
    const int64_t N = 4;
    std::vector<float> pointsHost(N);
    int64_t timestampMin, timestampMax;
    std::vector<float> transMin(3), transMax(3);
    std::vector<int64_t> pointsShape = {N};
    ReadFile("../input/input_points.bin", sizeof(float) * N, pointsHost.data(), sizeof(float) * N);
    ReadFile("../input/input_timestamp_min.bin", sizeof(int64_t), &timestampMin, sizeof(int64_t));
    ReadFile("../input/input_translation_min.bin", sizeof(float) * 3, transMin.data(), sizeof(float) * 3);
    ret = CreateAclTensor(pointsHost, pointsShape, &devPoints, ACL_FLOAT, &aclPoints);
    ret |= CreateAclTensor(std::vector<float>(N), pointsShape, &devOut, ACL_FLOAT, &aclOut);
    aclFloatArray *aclTransMin = aclCreateFloatArray(transMin.data(), 3);
    st = aclnnThingGetWorkspaceSize(aclPoints, timestampMin, aclTransMin, aclOut, &workspaceSize, &executor);
}'''
    plan = cbh.parse_main(main)
    assert plan.tensors["aclPoints"].file == "../input/input_points.bin"
    (tmp_path / "input").mkdir()
    np.arange(4, dtype=np.float32).tofile(tmp_path / "input" / "input_points.bin")
    np.array([1700000000123], np.int64).tofile(tmp_path / "input" / "input_timestamp_min.bin")
    np.array([0.5, -1.25, 2.0], np.float32).tofile(tmp_path / "input" / "input_translation_min.bin")
    arrays = cbh.arrays_for(plan, tmp_path)
    op = NS(inputs=[NS(name="points")], attrs=[NS(name="timestamp_min", kind="int"), NS(name="translation_min", kind="list_float")],
            outputs=[NS(name="out")])
    inputs, attrs, outputs, names, initial = cbh.bind(plan, op, arrays)
    assert attrs == {"timestamp_min": 1700000000123, "translation_min": [0.5, -1.25, 2.0]}
    assert inputs["points"].tolist() == [0, 1, 2, 3] and names["out"] == ["aclOut"]
    # a file shorter than what main.cpp reads is no reference
    np.array([0.5], np.float32).tofile(tmp_path / "input" / "input_translation_min.bin")
    with pytest.raises(cbh.NoReference, match="input_translation_min.bin holds 1 float32 values, main.cpp reads 3"):
        cbh.arrays_for(cbh.parse_main(main), tmp_path)


def test_an_output_written_through_std_ofstream(cbh):
    # (cann-ops ge_glu_grad_v2, swi_glu_grad: `std::ofstream outFile("../output/output_out.bin", std::ios::binary);
    # outFile.write(reinterpret_cast<const char*>(resultData.data()), ...)`; before, no file was known for the output,
    # and the line was NO REFERENCE: "main.cpp's writing of it not followed")
    main = '''int main() {
    std::vector<int64_t> xShape = {2, 2};
    std::vector<float> xHostData = {-2, -1, 0, 1};
    std::vector<float> outHostData = {0, 0, 0, 0};
    ret = CreateAclTensor(xHostData, xShape, &xDeviceAddr, aclDataType::ACL_FLOAT, &x);
    ret = CreateAclTensor(outHostData, xShape, &outDeviceAddr, aclDataType::ACL_FLOAT, &out);
    ret = aclnnThingGetWorkspaceSize(x, out, &workspaceSize, &executor);
    std::vector<float> resultData(size, 0);
    ret = aclrtMemcpy(resultData.data(), resultData.size() * sizeof(resultData[0]), outDeviceAddr,
                      size * sizeof(resultData[0]), ACL_MEMCPY_DEVICE_TO_HOST);
    std::ofstream logFile("../output/log.txt");
    std::ofstream outFile("../output/output_out.bin", std::ios::binary);
    if (!outFile) { return 1; }
    outFile.write(reinterpret_cast<const char*>(resultData.data()), 16);
    outFile.close();
}'''
    plan = cbh.parse_main(main)
    assert plan.writes == {"out": "../output/output_out.bin"} and plan.write_bytes == {"out": 16}


def test_an_overrides_data_moves_around_the_kernel(cbh, tmp_path, monkeypatch):
    # (cann-ops adaptive_avg_pool3d_grad: its aclnn reshapes and transposes gradOutput before the kernel and the kernel's
    # output back after it; before, "before" / "after" were not read.) Here the inputs are handed over transposed and the
    # output transposed back: the same answer; without the move back, the file is the transposed answer and the
    # authors' script refuses it
    moves = {"before": {"inputX": [("transpose", (1, 0))], "inputY": [("reshape", (4, 96)), ("transpose", (1, 0))]},
             "shapes": {"outputZ": (96, 4)}}
    gitdir, commit = example(tmp_path / "repo")
    monkeypatch.setitem(cbh.OVERRIDES, "scale_add_custom", moves | {"after": {"outputZ": [("transpose", (1, 0))]}})
    line = cbh.run_example(OP, gitdir, commit, tmp_path / "work", project_of)
    assert line.endswith(": match"), line
    monkeypatch.setitem(cbh.OVERRIDES, "scale_add_custom", moves)
    line = cbh.run_example(OP, gitdir, commit, tmp_path / "work2", project_of)
    assert line.endswith(": MISMATCH"), line
VERIFY_DTYPE_FIRST = '''import sys
import numpy as np

def verify_result(dtype, real_result, golden):
    acc = 0.0009765625
    real = np.fromfile(real_result, dtype=dtype)
    gold = np.fromfile(golden, dtype=dtype)
    if real.shape != gold.shape or not np.allclose(real, gold, rtol=acc, atol=acc):
        print("[ERROR] result error")
        return False
    print("test pass")
    return True

if __name__ == '__main__':
    verify_result(sys.argv[1], sys.argv[2], sys.argv[3])
'''


@pytest.mark.parametrize("alpha, verdict", [("0.5", ": match"), ("0.75", ": MISMATCH")])
def test_a_verify_command_with_a_quoted_dtype_before_the_two_files(cbh, tmp_path, alpha, verdict):
    # (cann-ops cross_entropy_loss / mse_loss_grad_v2: run.sh runs `verify_result.py "float16" ours golden`: the shell
    # passes float16 without its quotes, and the golden file is the third argument, not the dtype word)
    run_sh = RUN_SH.replace("verify_result.py output", 'verify_result.py "float32" output')
    assert cbh.verify_commands(run_sh) == [["float32", "output/output_z.bin", "output/golden.bin"]]
    ex = f"{OP}/examples/AclNNInvocationNaive"
    gitdir, commit = git_repo(tmp_path / "repo", {f"{ex}/gen_data.py": GEN_DATA.replace("ALPHA", alpha),
                                                  f"{ex}/main.cpp": MAIN_CPP, f"{ex}/verify_result.py": VERIFY_DTYPE_FIRST,
                                                  f"{ex}/run.sh": run_sh})
    line = cbh.run_example(OP, gitdir, commit, tmp_path / "work", project_of)
    assert line.endswith(verdict), line
    worst = float(line.split("worst abs error ")[1].split(":")[0])   # a number: the golden file found
    assert (worst == 0) if alpha == "0.5" else (worst > 0.01), line


def test_an_override_gives_the_kernel_main_cpps_arguments_in_the_l2_apis_order(cbh, tmp_path, monkeypatch):
    # (cann-ops mse_loss_grad_v2: aclnnMseLossBackward(gradOutput, self, target, reduction, out) launches the kernel
    # with OP_INPUT(self, target, gradOutput) and reduction 1 as "mean"; here main.cpp passes y before x)
    main = MAIN_CPP.replace("(inputX, inputY, alpha, outputZ,", "(inputY, inputX, alpha, outputZ,")
    gitdir, commit = example(tmp_path / "repo", main=main)
    line = cbh.run_example(OP, gitdir, commit, tmp_path / "work", project_of)
    assert line.endswith(": MISMATCH"), line      # bound positionally: x and y swapped
    monkeypatch.setitem(cbh.OVERRIDES, "scale_add_custom", {"args": ["inputX", "inputY", "alpha", "outputZ"]})
    line = cbh.run_example(OP, gitdir, commit, tmp_path / "work2", project_of)
    assert line.endswith(": match") and "worst abs error 0:" in line, line


FILL_MAIN = '''int main() {
    std::vector<int64_t> xShape = {2, 8};
    int64_t n = 16;
    std::vector<short> xHostData(n, 0x3800);
    std::vector<float> gHostData(n, 2.5f);
    std::vector<short> yHostData(n, 0);
    ret = CreateAclTensor(xHostData, xShape, &xDeviceAddr, aclDataType::ACL_FLOAT16, &x);
    ret = CreateAclTensor(gHostData, xShape, &gDeviceAddr, aclDataType::ACL_FLOAT, &g);
    ret = CreateAclTensor(yHostData, xShape, &yDeviceAddr, aclDataType::ACL_FLOAT16, &y);
    ret = aclnnThingGetWorkspaceSize(x, g, y, &workspaceSize, &executor);
}'''


def test_a_vector_of_its_size_and_a_fill_value_holds_the_fills_bytes(cbh, tmp_path):
    # (cann-ops add_rms_norm_dynamic_quant: `std::vector<short> x1HostData(xShapeSize, 0x3800)` for an ACL_FLOAT16
    # tensor is half 0.5 everywhere, not zeros; a fill of 0 stays a vector of its size alone)
    import numpy as np
    plan = cbh.parse_main(FILL_MAIN)
    arrays = cbh.arrays_for(plan, tmp_path)
    assert arrays["x"].dtype == np.float16 and arrays["x"].shape == (2, 8) and (arrays["x"] == 0.5).all()
    assert arrays["g"].dtype == np.float32 and (arrays["g"] == 2.5).all()
    assert plan.tensors["y"].values is None and (arrays["y"] == 0).all()


def test_a_string_attribute_of_a_char_pointer_written_against_its_name(cbh):
    # (cann-ops instance_norm_v3: `const char *dataFormat = "NCHW";` passed as data_format, which had read as absent)
    main = MAIN_CPP.replace("float alpha = 0.5f;", 'float alpha = 0.5f;\n    const char *fmt = "NCHW";\n    char* other = "ND";') \
        .replace("(inputX, inputY, alpha, outputZ,", "(inputX, inputY, alpha, fmt, other, outputZ,")
    plan = cbh.parse_main(main)
    assert plan.values["fmt"] == "NCHW" and plan.values["other"] == "ND" and plan.values["alpha"] == 0.5
