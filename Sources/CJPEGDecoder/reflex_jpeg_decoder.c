// Half-size Motion-JPEG decoding with libjpeg and a memory manager that keeps its memory.
// The memory manager interface is libjpeg's (jpeglib.h, struct jpeg_memory_mgr; described
// in libjpeg.txt): two pools, JPOOL_PERMANENT for the decoder's life and JPOOL_IMAGE for one
// image, freed whole. Here each pool is an arena of chunks that is rewound rather than freed,
// so an image of the same kind as the last one is decoded in the same bytes. Memory that
// no image has used for a while (a stream's one odd frame, say a progressive one, needs far
// more than its usual frames) is given back.
#include "reflex_jpeg_decoder.h"

#include <limits.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <jerror.h>

// libjpeg-turbo's SIMD code reads and writes whole vectors: every block is aligned to a
// cache line, and sample rows have room for a vector's overrun past their end.
enum { ALIGNMENT = 64, ROW_SLACK = 128, CHUNK_BYTES = 1 << 20 };

/// Images (rewinds of the image pool) after which the chunks none of them reached are freed:
/// about two seconds of a 30 fps stream, so a steady stream frees nothing and mallocs nothing.
enum { TRIM_AFTER_IMAGES = 64 };

static size_t round_up(size_t size, size_t unit) { return (size + unit - 1) / unit * unit; }

// ---- Arenas ----------------------------------------------------------------------------

struct chunk {
    struct chunk *next;
    size_t index;  // its place in the arena: 0, 1, ...
    size_t size;
    size_t used;
    unsigned char *bytes;  // aligned, inside the allocation that holds this header
};

/// Chunks handed out front to back. Rewinding starts again at the first chunk; the same
/// requests in the same order then fit where they fitted before, so nothing new is allocated.
struct arena {
    struct chunk *first;
    struct chunk *last;
    struct chunk *current;
    size_t held;
    /// The furthest chunk handed out from since the last trim, and the rewinds since then.
    size_t deepest;
    unsigned rewinds;
};

/// `size` bytes from the arena; NULL when that needs a new chunk and there is not `room` for
/// one, or no memory.
static void *arena_take(struct arena *arena, size_t size, size_t room) {
    size = round_up(size, ALIGNMENT);
    for (struct chunk *chunk = arena->current; chunk; chunk = chunk->next) {
        if (chunk->size - chunk->used >= size) {
            arena->current = chunk;
            if (chunk->index > arena->deepest) arena->deepest = chunk->index;
            void *bytes = chunk->bytes + chunk->used;
            chunk->used += size;
            return bytes;
        }
    }
    size_t capacity = size > CHUNK_BYTES ? size : CHUNK_BYTES;
    if (capacity > room) capacity = size;  // under a limit, only what this request needs
    if (capacity > room) return NULL;
    unsigned char *allocation = malloc(sizeof(struct chunk) + ALIGNMENT + capacity);
    if (!allocation) return NULL;
    struct chunk *chunk = (struct chunk *)allocation;
    uintptr_t start = (uintptr_t)(allocation + sizeof(struct chunk));
    chunk->bytes = (unsigned char *)round_up(start, ALIGNMENT);
    chunk->size = capacity;
    chunk->used = size;
    chunk->next = NULL;
    chunk->index = arena->last ? arena->last->index + 1 : 0;
    arena->deepest = chunk->index;
    if (arena->last) arena->last->next = chunk; else arena->first = chunk;
    arena->last = chunk;
    arena->current = chunk;
    arena->held += capacity;
    return chunk->bytes;
}

/// Frees the chunks past the deepest one used since the last trim (the first is kept).
static void arena_trim(struct arena *arena) {
    struct chunk *keep = arena->first;
    while (keep && keep->next && keep->next->index <= arena->deepest) keep = keep->next;
    if (keep) {
        struct chunk *chunk = keep->next;
        while (chunk) {
            struct chunk *next = chunk->next;
            arena->held -= chunk->size;
            free(chunk);
            chunk = next;
        }
        keep->next = NULL;
    }
    arena->last = keep;
    arena->deepest = 0;
    arena->rewinds = 0;
}

/// Starts again at the first chunk; every `TRIM_AFTER_IMAGES` rewinds, trims.
static void arena_rewind(struct arena *arena) {
    for (struct chunk *chunk = arena->first; chunk; chunk = chunk->next) chunk->used = 0;
    arena->current = arena->first;
    if (++arena->rewinds >= TRIM_AFTER_IMAGES) arena_trim(arena);
}

static void arena_release(struct arena *arena) {
    struct chunk *chunk = arena->first;
    while (chunk) {
        struct chunk *next = chunk->next;
        free(chunk);
        chunk = next;
    }
    memset(arena, 0, sizeof *arena);
}

// ---- The memory manager ----------------------------------------------------------------

// libjpeg declares these only by name; each memory manager defines its own.
struct jvirt_sarray_control {
    JSAMPARRAY rows;  // NULL until realised
    JDIMENSION samples_per_row;
    JDIMENSION row_count;
    boolean pre_zero;
    struct jvirt_sarray_control *next;
};

struct jvirt_barray_control {
    JBLOCKARRAY rows;  // NULL until realised
    JDIMENSION blocks_per_row;
    JDIMENSION row_count;
    boolean pre_zero;
    struct jvirt_barray_control *next;
};

struct pool_manager {
    struct jpeg_memory_mgr methods;  // first: libjpeg sees only this
    struct arena pools[JPOOL_NUMPOOLS];
    // Whole-image arrays (progressive and multi-scan images), kept in memory; always in the
    // image pool, so they go when it is rewound.
    struct jvirt_sarray_control *sample_arrays;
    struct jvirt_barray_control *block_arrays;
};

static struct pool_manager *manager_of(j_common_ptr cinfo) { return (struct pool_manager *)cinfo->mem; }

/// Bytes the manager holds, in both pools.
static size_t held_bytes(const struct pool_manager *manager) {
    return manager->pools[JPOOL_PERMANENT].held + manager->pools[JPOOL_IMAGE].held;
}

static void *take(j_common_ptr cinfo, int pool_id, size_t size) {
    if (pool_id < 0 || pool_id >= JPOOL_NUMPOOLS) ERREXIT1(cinfo, JERR_BAD_POOL_ID, pool_id);
    // libjpeg's own limit on one request (about 1 GB), which also keeps the sizes below
    // from overflowing.
    if (size > (size_t)cinfo->mem->max_alloc_chunk) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 2);
    // The memory limit, if any: libjpeg's (JPEGMEM in the environment) or the decoder's.
    struct pool_manager *manager = manager_of(cinfo);
    size_t held = held_bytes(manager);
    size_t limit = (size_t)cinfo->mem->max_memory_to_use;
    size_t room = limit == 0 ? SIZE_MAX : limit > held ? limit - held : 0;
    void *bytes = arena_take(&manager->pools[pool_id], size, room);
    if (!bytes) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 1);
    return bytes;
}

static void *alloc_small(j_common_ptr cinfo, int pool_id, size_t size) { return take(cinfo, pool_id, size); }

static void *alloc_large(j_common_ptr cinfo, int pool_id, size_t size) { return take(cinfo, pool_id, size); }

/// `row_count` rows of `row_bytes` each, in one block, and the array of pointers to them.
static void **take_rows(j_common_ptr cinfo, int pool_id, size_t row_bytes, JDIMENSION row_count) {
    if (row_count && row_bytes > SIZE_MAX / row_count) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 3);
    void **rows = take(cinfo, pool_id, (size_t)row_count * sizeof(void *));
    unsigned char *block = take(cinfo, pool_id, row_bytes * row_count);
    for (JDIMENSION row = 0; row < row_count; row++) rows[row] = block + row * row_bytes;
    return rows;
}

static size_t sample_row_bytes(JDIMENSION samples) { return round_up(samples * sizeof(JSAMPLE) + ROW_SLACK, ALIGNMENT); }

static size_t block_row_bytes(JDIMENSION blocks) { return round_up(blocks * sizeof(JBLOCK), ALIGNMENT); }

static JSAMPARRAY alloc_sarray(j_common_ptr cinfo, int pool_id, JDIMENSION samples, JDIMENSION rows) {
    return (JSAMPARRAY)take_rows(cinfo, pool_id, sample_row_bytes(samples), rows);
}

static JBLOCKARRAY alloc_barray(j_common_ptr cinfo, int pool_id, JDIMENSION blocks, JDIMENSION rows) {
    return (JBLOCKARRAY)take_rows(cinfo, pool_id, block_row_bytes(blocks), rows);
}

static jvirt_sarray_ptr request_virt_sarray(j_common_ptr cinfo, int pool_id, boolean pre_zero, JDIMENSION samples,
                                            JDIMENSION rows, JDIMENSION max_access) {
    (void)max_access;  // the whole array is in memory
    if (pool_id != JPOOL_IMAGE) ERREXIT1(cinfo, JERR_BAD_POOL_ID, pool_id);
    struct jvirt_sarray_control *array = take(cinfo, pool_id, sizeof *array);
    *array = (struct jvirt_sarray_control){ NULL, samples, rows, pre_zero, manager_of(cinfo)->sample_arrays };
    manager_of(cinfo)->sample_arrays = array;
    return array;
}

static jvirt_barray_ptr request_virt_barray(j_common_ptr cinfo, int pool_id, boolean pre_zero, JDIMENSION blocks,
                                            JDIMENSION rows, JDIMENSION max_access) {
    (void)max_access;
    if (pool_id != JPOOL_IMAGE) ERREXIT1(cinfo, JERR_BAD_POOL_ID, pool_id);
    struct jvirt_barray_control *array = take(cinfo, pool_id, sizeof *array);
    *array = (struct jvirt_barray_control){ NULL, blocks, rows, pre_zero, manager_of(cinfo)->block_arrays };
    manager_of(cinfo)->block_arrays = array;
    return array;
}

static void realize_virt_arrays(j_common_ptr cinfo) {
    for (struct jvirt_sarray_control *array = manager_of(cinfo)->sample_arrays; array; array = array->next) {
        if (array->rows) continue;
        array->rows = alloc_sarray(cinfo, JPOOL_IMAGE, array->samples_per_row, array->row_count);
        if (array->pre_zero && array->row_count)
            memset(array->rows[0], 0, sample_row_bytes(array->samples_per_row) * array->row_count);
    }
    for (struct jvirt_barray_control *array = manager_of(cinfo)->block_arrays; array; array = array->next) {
        if (array->rows) continue;
        array->rows = alloc_barray(cinfo, JPOOL_IMAGE, array->blocks_per_row, array->row_count);
        if (array->pre_zero && array->row_count)
            memset(array->rows[0], 0, block_row_bytes(array->blocks_per_row) * array->row_count);
    }
}

static JSAMPARRAY access_virt_sarray(j_common_ptr cinfo, jvirt_sarray_ptr array, JDIMENSION start, JDIMENSION count,
                                     boolean writable) {
    (void)writable;
    if (!array->rows || start + count > array->row_count || start + count < start) ERREXIT(cinfo, JERR_BAD_VIRTUAL_ACCESS);
    return array->rows + start;
}

static JBLOCKARRAY access_virt_barray(j_common_ptr cinfo, jvirt_barray_ptr array, JDIMENSION start, JDIMENSION count,
                                      boolean writable) {
    (void)writable;
    if (!array->rows || start + count > array->row_count || start + count < start) ERREXIT(cinfo, JERR_BAD_VIRTUAL_ACCESS);
    return array->rows + start;
}

static void free_pool(j_common_ptr cinfo, int pool_id) {
    if (pool_id < 0 || pool_id >= JPOOL_NUMPOOLS) ERREXIT1(cinfo, JERR_BAD_POOL_ID, pool_id);
    struct pool_manager *manager = manager_of(cinfo);
    if (pool_id == JPOOL_IMAGE) {
        manager->sample_arrays = NULL;
        manager->block_arrays = NULL;
    }
    arena_rewind(&manager->pools[pool_id]);
}

static void release_pools(struct pool_manager *manager) {
    for (int pool = 0; pool < JPOOL_NUMPOOLS; pool++) arena_release(&manager->pools[pool]);
}

static void self_destruct(j_common_ptr cinfo) {
    release_pools(manager_of(cinfo));
    free(cinfo->mem);
    cinfo->mem = NULL;
}

// ---- The decoder -----------------------------------------------------------------------

struct error_manager {
    struct jpeg_error_mgr methods;  // first: libjpeg sees only this
    jmp_buf failure;
    char *message;
    /// A warning that the picture is damaged (corrupt or missing data, filled in grey) came.
    int damaged;
};

struct reflex_jpeg_decoder {
    struct jpeg_decompress_struct cinfo;
    struct error_manager errors;
    /// The memory manager jpeg_create_decompress installed: it holds what that call made,
    /// and frees it when the decoder is destroyed.
    struct jpeg_memory_mgr *library_manager;
    char message[JMSG_LENGTH_MAX];
};

/// An error ends the decoding where it began (libjpeg's own would exit the process).
static void fail(j_common_ptr cinfo) {
    struct error_manager *errors = (struct error_manager *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, errors->message);
    longjmp(errors->failure, 1);
}

/// Warnings are kept for the caller, not printed, and sorted: a missing end marker (some
/// webcams always leave it out) or stray bytes before a marker leave the picture whole; any
/// other warning means libjpeg filled in what it could not read, and the frame is damaged.
/// (Trace messages, level 0 and up, are not wanted.)
static void sort_warning(j_common_ptr cinfo, int level) {
    if (level >= 0) return;
    struct error_manager *errors = (struct error_manager *)cinfo->err;
    int code = cinfo->err->msg_code;
    int harmless = code == JWRN_JPEG_EOF || code == JWRN_EXTRANEOUS_DATA;
    if (!harmless && !errors->damaged) {
        errors->damaged = 1;
        (*cinfo->err->format_message)(cinfo, errors->message);
    } else if (!errors->message[0]) {
        (*cinfo->err->format_message)(cinfo, errors->message);
    }
    cinfo->err->num_warnings++;
}

reflex_jpeg_decoder *reflex_jpeg_decoder_create(void) {
    reflex_jpeg_decoder *decoder = calloc(1, sizeof *decoder);
    struct pool_manager *manager = calloc(1, sizeof *manager);
    if (!decoder || !manager) {
        free(decoder);
        free(manager);
        return NULL;
    }
    decoder->cinfo.err = jpeg_std_error(&decoder->errors.methods);
    decoder->errors.methods.error_exit = fail;
    decoder->errors.methods.emit_message = sort_warning;
    decoder->errors.message = decoder->message;
    if (setjmp(decoder->errors.failure)) {  // out of memory while creating
        jpeg_destroy_decompress(&decoder->cinfo);
        free(manager);
        free(decoder);
        return NULL;
    }
    jpeg_create_decompress(&decoder->cinfo);
    decoder->library_manager = decoder->cinfo.mem;
    manager->methods = (struct jpeg_memory_mgr){
        alloc_small, alloc_large, alloc_sarray, alloc_barray, request_virt_sarray, request_virt_barray,
        realize_virt_arrays, access_virt_sarray, access_virt_barray, free_pool, self_destruct,
        decoder->library_manager->max_memory_to_use, decoder->library_manager->max_alloc_chunk,
    };
    decoder->cinfo.mem = &manager->methods;
    return decoder;
}

void reflex_jpeg_decoder_destroy(reflex_jpeg_decoder *decoder) {
    if (!decoder) return;
    struct pool_manager *manager = (struct pool_manager *)decoder->cinfo.mem;
    release_pools(manager);
    free(manager);
    decoder->cinfo.mem = decoder->library_manager;
    jpeg_destroy_decompress(&decoder->cinfo);
    free(decoder);
}

int reflex_jpeg_decode_half(reflex_jpeg_decoder *decoder, const unsigned char *jpeg, size_t size,
                            int width, int height, unsigned char *pixels, size_t stride) {
    j_decompress_ptr cinfo = &decoder->cinfo;
    decoder->message[0] = 0;
    decoder->errors.methods.num_warnings = 0;
    decoder->errors.damaged = 0;
    if (setjmp(decoder->errors.failure)) {
        jpeg_abort_decompress(cinfo);
        return REFLEX_JPEG_FAILED;
    }
    jpeg_mem_src(cinfo, jpeg, (unsigned long)size);
    jpeg_read_header(cinfo, TRUE);
    // A frame of another size would decode at another scale and leave pixels unwritten.
    if ((int)cinfo->image_width != width || (int)cinfo->image_height != height) {
        snprintf(decoder->message, sizeof decoder->message, "a %ux%u frame in a %dx%d stream",
                 cinfo->image_width, cinfo->image_height, width, height);
        jpeg_abort_decompress(cinfo);
        return REFLEX_JPEG_FAILED;
    }
    // Half size skips most of the inverse DCT; the fast DCT is plenty for a viewfinder.
    cinfo->scale_num = 1;
    cinfo->scale_denom = 2;
    cinfo->dct_method = JDCT_IFAST;
    cinfo->out_color_space = JCS_EXT_BGRX;  // XRGB8888 in a little-endian word
    jpeg_start_decompress(cinfo);
    if ((int)cinfo->output_width != (width + 1) / 2 || (int)cinfo->output_height != (height + 1) / 2) {
        snprintf(decoder->message, sizeof decoder->message, "a half-size picture of %ux%u, not %dx%d",
                 cinfo->output_width, cinfo->output_height, (width + 1) / 2, (height + 1) / 2);
        jpeg_abort_decompress(cinfo);
        return REFLEX_JPEG_FAILED;
    }
    while (cinfo->output_scanline < cinfo->output_height) {
        JSAMPROW rows[16];
        JDIMENSION count = cinfo->output_height - cinfo->output_scanline;
        if (count > 16) count = 16;
        for (JDIMENSION row = 0; row < count; row++) rows[row] = pixels + (size_t)(cinfo->output_scanline + row) * stride;
        jpeg_read_scanlines(cinfo, rows, count);
    }
    jpeg_finish_decompress(cinfo);
    if (decoder->errors.damaged) return REFLEX_JPEG_FAILED;
    return decoder->errors.methods.num_warnings ? REFLEX_JPEG_DECODED_WITH_WARNING : REFLEX_JPEG_DECODED;
}

const char *reflex_jpeg_decoder_message(const reflex_jpeg_decoder *decoder) { return decoder->message; }

void reflex_jpeg_decoder_limit_memory(reflex_jpeg_decoder *decoder, size_t bytes) {
    decoder->cinfo.mem->max_memory_to_use = (long)(bytes > LONG_MAX ? LONG_MAX : bytes);
}

size_t reflex_jpeg_decoder_pool_bytes(const reflex_jpeg_decoder *decoder) {
    return held_bytes((const struct pool_manager *)decoder->cinfo.mem);
}
