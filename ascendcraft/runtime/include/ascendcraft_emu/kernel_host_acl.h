// AscendCraft: what a kernel file gets in place of `#include "kernel_operator.h"` when its host launch wrapper (the
// `*_do` function op kernels keep for CANN's NPU build, under `#ifndef __CCE_KT_TEST__`) calls the ACL runtime beside
// its <<<>>> launch, e.g. `aclrtSynchronizeStream(stream)`: CANN's build of such op projects compiled them. The launch
// statement itself is blanked (emu.launch_statements); the wrapper's other calls find ACL's declarations here.
#pragma once

#include "kernel_operator.h"
#include "acl/acl.h"
