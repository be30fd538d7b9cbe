// alsa-lib, for the board's microphone: a PCM opened for capture, read in periods.
#pragma once
#include <alsa/asoundlib.h>
