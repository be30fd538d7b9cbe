// Counts heap allocations, per thread and in all, so tests, `reflex bench` and the
// realtime loop can prove that a path allocates nothing. Linking this module into a
// program replaces malloc and friends with thin counters in front of glibc's own.
#pragma once
#include <stdbool.h>
#include <stdint.h>

/// Allocations (malloc, calloc, realloc, posix_memalign, aligned_alloc, memalign) made by
/// the calling thread since it started.
int64_t reflex_thread_allocations(void);
/// Allocations made by every thread of the process.
int64_t reflex_process_allocations(void);
/// False in a build under a sanitizer, whose runtime owns malloc: nothing is counted there.
bool reflex_allocations_are_counted(void);
