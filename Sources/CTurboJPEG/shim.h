// libjpeg-turbo's TurboJPEG API; it imports as it is. Version 2.1 cannot add an APP1
// segment, so EXIF is spliced in after SOI by ReflexFormats.
#pragma once
#include <turbojpeg.h>

static const int REFLEX_TJFLAG_FASTDCT = TJFLAG_FASTDCT;
static const int REFLEX_TJFLAG_NOREALLOC = TJFLAG_NOREALLOC;
// TurboJPEG compresses with the fast DCT unless told otherwise.
static const int REFLEX_TJFLAG_ACCURATEDCT = TJFLAG_ACCURATEDCT;
