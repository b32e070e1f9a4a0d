// AscendCraft CPU emulation runtime: the device log library's CheckLogLevel (weak: an op's own definition wins), for
// every program linked with the runtime library. Written from the public CANN operator sources' use of it; no vendor code.
#include "ascendcraft_emu/dlog_library.h"
