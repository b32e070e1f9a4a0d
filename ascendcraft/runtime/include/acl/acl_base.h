// AscendCraft: CANN's acl/acl_base.h, the base types of the ACL API (aclError, aclDataType, aclFormat, ...), which
// the emulated acl/acl.h declares. Written from the public ACL documentation; no vendor code.
#pragma once

#include "acl/acl.h"
