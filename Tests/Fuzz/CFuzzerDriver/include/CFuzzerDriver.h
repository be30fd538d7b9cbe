// libFuzzer's driver, called from reflex-fuzz's own main (the fuzzing build links
// libclang_rt.fuzzer_no_main, so the program keeps its main and its replay mode), and what
// the targets need of Linux that Swift's Glibc module lacks.
#ifndef REFLEX_FUZZER_DRIVER_H
#define REFLEX_FUZZER_DRIVER_H
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>

/// A file in memory: a movie's bytes as the recovery reads them, with no file system.
static inline int reflex_fuzz_memory_file(void) { return memfd_create("reflex-fuzz", MFD_CLOEXEC); }

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

#endif
