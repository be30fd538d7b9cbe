// Only the header matters: the driver itself is libFuzzer's, linked in the fuzzing build.
#include "CFuzzerDriver.h"
