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
/* The same for a tag whose count is 32 bits wide (XMLPacket). */
static inline int reflex_tiff_set_array32(TIFF *tif, uint32_t tag, uint32_t count, const void *values) {
    return TIFFSetField(tif, tag, count, values);
}
static inline int reflex_tiff_set_fixed_array(TIFF *tif, uint32_t tag, const void *values) {
    return TIFFSetField(tif, tag, values);
}
static inline int reflex_tiff_get_u16(TIFF *tif, uint32_t tag, uint16_t *value) {
    return TIFFGetField(tif, tag, value);
}
static inline int reflex_tiff_get_u32(TIFF *tif, uint32_t tag, uint32_t *value) {
    return TIFFGetField(tif, tag, value);
}
static inline int reflex_tiff_set_u64(TIFF *tif, uint32_t tag, uint64_t value) {
    return TIFFSetField(tif, tag, value);
}

// DNG 1.2/1.3 tags libtiff 4.5 does not define.
static const uint32_t REFLEX_TIFFTAG_FORWARDMATRIX1 = 50964;
static const uint32_t REFLEX_TIFFTAG_FORWARDMATRIX2 = 50965;
static const uint32_t REFLEX_TIFFTAG_NOISEPROFILE = 51041;

/// Teaches one TIFF handle ForwardMatrix1/2 (SRATIONAL, set as floats) and NoiseProfile (DOUBLE),
/// each with a count. A new directory forgets merged fields: call it again for each. libtiff keeps
/// pointers to the names, hence the static strings. Returns 1 on success.
static inline int reflex_tiff_merge_dng_fields(TIFF *tif) {
    static const TIFFFieldInfo fields[] = {
        {50964, -1, -1, TIFF_SRATIONAL, FIELD_CUSTOM, 1, 1, "ForwardMatrix1"},
        {50965, -1, -1, TIFF_SRATIONAL, FIELD_CUSTOM, 1, 1, "ForwardMatrix2"},
        {51041, -1, -1, TIFF_DOUBLE, FIELD_CUSTOM, 1, 1, "NoiseProfile"},
    };
    return TIFFMergeFieldInfo(tif, fields, sizeof fields / sizeof fields[0]) == 0;
}
