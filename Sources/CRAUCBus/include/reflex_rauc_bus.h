// RAUC's D-Bus service (de.pengutronix.rauc, object /, interface de.pengutronix.rauc.Installer)
// through libsystemd's sd-bus, behind calls Swift can make (sd-bus's own are variadic).
// Every call returns 0 or a negative errno and, on failure, a sentence in `error`.
#pragma once
#include <stddef.h>
#include <stdint.h>

typedef struct reflex_rauc_bus reflex_rauc_bus;

// Connects to the system bus (address NULL) or to the bus at `address` (a test's own).
reflex_rauc_bus *reflex_rauc_bus_open(const char *address, char *error, size_t error_size);
void reflex_rauc_bus_close(reflex_rauc_bus *bus);

// InstallBundle(s, a{sv}) with no options: RAUC starts installing and answers at once; the
// end comes as the Completed signal, which reflex_rauc_bus_wait sees.
int reflex_rauc_bus_install(reflex_rauc_bus *bus, const char *bundle, char *error, size_t error_size);

// Processes what the bus sent for up to `microseconds`; *completed is set once Completed came,
// with its result in *result (0: installed).
int reflex_rauc_bus_wait(reflex_rauc_bus *bus, uint64_t microseconds, int *completed, int *result,
                         char *error, size_t error_size);

// The Progress property: percentage, message, nesting depth.
int reflex_rauc_bus_progress(reflex_rauc_bus *bus, int *percentage, char *message, size_t message_size,
                             int *depth, char *error, size_t error_size);

// A string property (Operation, LastError, Compatible, BootSlot).
int reflex_rauc_bus_string_property(reflex_rauc_bus *bus, const char *name, char *value, size_t value_size,
                                    char *error, size_t error_size);

// Mark(state, slot): state good | bad | active; slot booted | other | a slot's name.
int reflex_rauc_bus_mark(reflex_rauc_bus *bus, const char *state, const char *slot, char *slot_name,
                         size_t slot_name_size, char *message, size_t message_size, char *error, size_t error_size);

// GetPrimary: the slot the bootloader will boot next ("rootfs.1").
int reflex_rauc_bus_primary(reflex_rauc_bus *bus, char *slot, size_t slot_size, char *error, size_t error_size);
