// AscendCraft: CANN's acl/acl_rt.h, the runtime half of acl/acl.h, which op hosts include for the system queries
// (hicann ops-nn quant_batch_matmul_v3's Ascend 950 tiling asks the installed asc-devkit's version). The emulated runtime
// calls are in acl/acl.h; this header adds aclsysGetVersionNum. Written from the public ACL documentation; no vendor code.
#pragma once

#include "acl/acl.h"

// The documented code for a file the call could not read (acl_base.h's list: 100003).
static const aclError ACL_ERROR_INVALID_FILE = 100003;

// A package's version as a number, read by CANN from ${INSTALL_DIR}/share/info/<pkgName>/version.info. The emulation
// is no CANN install: there is no such file for any package, so the query fails (versionNum is left as it was), as it
// does on a machine without the package; callers then take their older-version path.
inline aclError aclsysGetVersionNum(char* pkgName, int32_t* versionNum) {
    if (pkgName == nullptr || versionNum == nullptr) return ACL_ERROR_INVALID_PARAM;
    return ACL_ERROR_INVALID_FILE;
}
