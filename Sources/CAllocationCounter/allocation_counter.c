// Definitions in the executable take precedence over libc's for every library in the
// process; each forwards to glibc's real allocator after one relaxed increment and one
// thread-local increment, so the cost is a few instructions per allocation.
#include "allocation_counter.h"
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);
extern void __libc_free(void *pointer);

static _Atomic int64_t process_allocations;
static _Thread_local int64_t thread_allocations;

// Under a sanitizer (-sanitize=thread or address) the sanitizer's runtime owns malloc: an
// allocator of ours in front of it would hand it memory it never saw (and runs before it is
// set up: the process crashes at start). There nothing is counted, and the counters say 0.
#if defined(__has_feature)
#  if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#    define REFLEX_SANITIZED 1
#  endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#  define REFLEX_SANITIZED 1
#endif
// The same for a heap profiler preloaded in front of glibc (heaptrack): an executable's own
// malloc comes before a preloaded one, so it would see nothing. Built with
// `-Xcc -DREFLEX_HEAP_PROFILED` (see docs/cli.md, the soak).
#ifdef REFLEX_HEAP_PROFILED
#  define REFLEX_SANITIZED 1
#endif

#ifndef REFLEX_SANITIZED

static inline void count(void) {
    thread_allocations++;
    atomic_fetch_add_explicit(&process_allocations, 1, memory_order_relaxed);
}

void *malloc(size_t size) { count(); return __libc_malloc(size); }
void *calloc(size_t count_, size_t size) { count(); return __libc_calloc(count_, size); }
void *realloc(void *pointer, size_t size) { count(); return __libc_realloc(pointer, size); }
void free(void *pointer) { __libc_free(pointer); }
void *memalign(size_t alignment, size_t size) { count(); return __libc_memalign(alignment, size); }
void *aligned_alloc(size_t alignment, size_t size) {
    if (alignment == 0 || (alignment & (alignment - 1)) != 0) { errno = EINVAL; return NULL; }
    count();
    return __libc_memalign(alignment, size);
}
void *valloc(size_t size) { count(); return __libc_valloc(size); }
void *pvalloc(size_t size) { count(); return __libc_pvalloc(size); }
int posix_memalign(void **result, size_t alignment, size_t size) {
    if (alignment < sizeof(void *) || (alignment & (alignment - 1)) != 0) return EINVAL;
    count();
    void *pointer = __libc_memalign(alignment, size);
    if (!pointer && size) return ENOMEM;
    *result = pointer;
    return 0;
}

#endif

int64_t reflex_thread_allocations(void) { return thread_allocations; }
int64_t reflex_process_allocations(void) {
    return atomic_load_explicit(&process_allocations, memory_order_relaxed);
}

bool reflex_allocations_are_counted(void) {
#ifdef REFLEX_SANITIZED
    return false;
#else
    return true;
#endif
}
