// libtiff for Swift. TIFFSetField/TIFFGetField are variadic; each wrapper here fixes one
// argument shape. DNG rationals go in as float arrays, EXIF rationals as double.
#pragma once
#include <stdint.h>
#include <tiffio.h>

static inline int reflex_tiff_set_u16(TIFF *tif, uint32_t tag, uint16_t value) {
    return TIFFSetField(tif, tag, value);
}
static inline int reflex_tiff_set_u32(TIFF *tif, uint32_t tag, uint32_t value) {
    return TIFFSetField(tif, tag, value);
}
static inline int reflex_tiff_set_double(TIFF *tif, uint32_t tag, double value) {
    return TIFFSetField(tif, tag, value);
}
static inline int reflex_tiff_set_string(TIFF *tif, uint32_t tag, const char *value) {
    return TIFFSetField(tif, tag, value);
}
/// Tags with a count: arrays of bytes, shorts, longs or floats.
static inline int reflex_tiff_set_array(TIFF *tif, uint32_t tag, uint16_t count, const void *values) {
    return TIFFSetField(tif, tag, count, values);
}
/// Tags whose array length is fixed by the tag definition (no count argument).
static inline int reflex_tiff_set_fixed_array(TIFF *tif, uint32_t tag, const void *values) {
    return TIFFSetField(tif, tag, values);
}
static inline int reflex_tiff_get_u16(TIFF *tif, uint32_t tag, uint16_t *value) {
    return TIFFGetField(tif, tag, value);
}
static inline int reflex_tiff_get_u32(TIFF *tif, uint32_t tag, uint32_t *value) {
    return TIFFGetField(tif, tag, value);
}
