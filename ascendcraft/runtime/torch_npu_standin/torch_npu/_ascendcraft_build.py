"""`python -m torch_npu._ascendcraft_build build SOURCE_DIR` (in a build folder, as `cmake SOURCE_DIR && make`): the
PyTorch extension targets of SOURCE_DIR/CMakeLists.txt built for AscendCraft's emulator; `... build-ext --name NAME
[--library] FILES -o DIR` builds one from its files. AscendCraft's torch_npu stand-in (README.md beside this package)."""
import sys

from torch_npu._ascendcraft import main

if __name__ == "__main__":
    sys.exit(main())
