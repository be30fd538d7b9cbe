// libtiff for Swift. TIFFSetField/TIFFGetField are variadic; each wrapper here fixes one
// argument shape. DNG rationals go in as float arrays, EXIF rationals as double.
#pragma once
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <tiffio.h>

/// Where libtiff's errors go, formatted: a sink and its context, kept for the handle's life.
/// libtiff hands its handlers a `va_list`, which is a pointer on x86_64 and a structure on
/// arm64; Swift 6.2 crashes lowering a closure that takes the arm64 one, so the formatting is
/// done here and Swift receives plain text.
typedef void (*reflex_tiff_error_sink)(void *context, const char *message);
struct reflex_tiff_error_route {
    reflex_tiff_error_sink sink;
    void *context;
};
/// A TIFFErrorHandlerExtR: "module: message" to the route given as its user data.
static inline int reflex_tiff_route_error(TIFF *tif, void *route, const char *module, const char *format, va_list arguments) {
    (void)tif;
    char body[512] = "";
    if (format) vsnprintf(body, sizeof body, format, arguments);
    char text[640];
    if (module) snprintf(text, sizeof text, "%s: %s", module, body);
    else snprintf(text, sizeof text, "%s", body);
    const struct reflex_tiff_error_route *to = route;
    to->sink(to->context, text);
    return 1;
}
/// A TIFFErrorHandlerExtR that drops the message (warnings: nothing goes to stderr).
static inline int reflex_tiff_drop_message(TIFF *tif, void *user, const char *module, const char *format, va_list arguments) {
    (void)tif; (void)user; (void)module; (void)format; (void)arguments;
    return 1;
}
/// Errors to the route, warnings dropped: a TIFF opened with these options prints nothing.
static inline void reflex_tiff_options_route_errors(TIFFOpenOptions *options, struct reflex_tiff_error_route *route) {
    TIFFOpenOptionsSetErrorHandlerExtR(options, reflex_tiff_route_error, route);
    TIFFOpenOptionsSetWarningHandlerExtR(options, reflex_tiff_drop_message, NULL);
}

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
