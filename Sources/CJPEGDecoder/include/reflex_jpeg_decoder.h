// Motion-JPEG frames decoded at half size by libjpeg (libjpeg-turbo), through a memory
// manager of our own: libjpeg's own one mallocs every image's working memory and frees it
// when the image ends, which is an allocation a frame on the sensor thread. Ours keeps that
// memory and hands the same bytes out again, so once the first frame of a stream has been
// decoded, the next ones allocate nothing.
#pragma once
#include <stddef.h>

typedef struct reflex_jpeg_decoder reflex_jpeg_decoder;

/// A decoder, or NULL without memory.
reflex_jpeg_decoder *reflex_jpeg_decoder_create(void);
void reflex_jpeg_decoder_destroy(reflex_jpeg_decoder *decoder);

enum {
    REFLEX_JPEG_DECODED = 0,
    /// Decoded whole, with a harmless warning: a missing end marker (some webcams always leave
    /// it out) or stray bytes before a marker.
    REFLEX_JPEG_DECODED_WITH_WARNING = 1,
    /// Not decoded: a damaged frame (libjpeg could not read all of it, and filled in grey, or
    /// failed), or one of another size than the stream's. `pixels` may have been written.
    REFLEX_JPEG_FAILED = -1,
};

/// Decodes a `width` x `height` frame at half size ((width + 1) / 2 by (height + 1) / 2) into
/// XRGB8888 `pixels`, rows `stride` bytes apart. The message of a failure or a warning is
/// `reflex_jpeg_decoder_message`.
int reflex_jpeg_decode_half(reflex_jpeg_decoder *decoder, const unsigned char *jpeg, size_t size,
                            int width, int height, unsigned char *pixels, size_t stride);

/// The last failure's or warning's message ("" if none).
const char *reflex_jpeg_decoder_message(const reflex_jpeg_decoder *decoder);

/// Caps the memory the decoder may hold at `bytes` (0: none); a frame that needs more fails
/// ("Insufficient memory"). Without a call, libjpeg's limit holds: JPEGMEM in the
/// environment, or none.
void reflex_jpeg_decoder_limit_memory(reflex_jpeg_decoder *decoder, size_t bytes);

/// Bytes of memory the decoder holds for reuse: the most that recent frames needed (what
/// no frame has needed for a while is given back).
size_t reflex_jpeg_decoder_pool_bytes(const reflex_jpeg_decoder *decoder);
