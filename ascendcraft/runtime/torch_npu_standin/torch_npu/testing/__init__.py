"AscendCraft's torch_npu stand-in: the test helpers of torch_npu.testing that custom-op test scripts use."
