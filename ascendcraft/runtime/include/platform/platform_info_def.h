// AscendCraft host side: CANN's platform/platform_info_def.h, as platform/platform_info.h brings it in. Only what
// op hosts rely on from it: the SDK header declares std's map, vector and string at global scope, so a source that
// includes platform/platform_info.h names them unqualified (hicann ops-nn conv_platform_util.cpp's `const string&`).
// The platform structs it also declares (fe::PlatformInfo and its parts) no public op host reads. No vendor code.
#pragma once

#include <map>
#include <string>
#include <vector>

using std::map;
using std::string;
using std::vector;
