// Cairo with its FreeType font backend, so the UI draws with the fonts shipped in Fonts/.
#pragma once
#include <cairo.h>
#include <cairo-ft.h>
#include <ft2build.h>
#include FT_FREETYPE_H
