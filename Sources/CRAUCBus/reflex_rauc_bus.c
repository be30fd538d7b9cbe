#include "reflex_rauc_bus.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <systemd/sd-bus.h>

#define RAUC_NAME "de.pengutronix.rauc"
#define RAUC_PATH "/"
#define RAUC_INTERFACE "de.pengutronix.rauc.Installer"

struct reflex_rauc_bus {
    sd_bus *bus;
    sd_bus_slot *completed_match;
    int completed;
    int result;
};

static void copy_text(char *out, size_t size, const char *text) {
    if (size == 0) return;
    snprintf(out, size, "%s", text ? text : "");
}

// The sentence for a failed call: the D-Bus error's message when there is one.
static int failed(int code, const sd_bus_error *bus_error, const char *what, char *error, size_t error_size) {
    if (bus_error && sd_bus_error_is_set(bus_error)) {
        snprintf(error, error_size, "%s: %s", what, bus_error->message ? bus_error->message : bus_error->name);
    } else {
        snprintf(error, error_size, "%s: %s", what, strerror(-code));
    }
    return code < 0 ? code : -EIO;
}

reflex_rauc_bus *reflex_rauc_bus_open(const char *address, char *error, size_t error_size) {
    reflex_rauc_bus *handle = calloc(1, sizeof *handle);
    if (!handle) { copy_text(error, error_size, "out of memory"); return NULL; }
    int code;
    if (address) {
        code = sd_bus_new(&handle->bus);
        if (code >= 0) code = sd_bus_set_address(handle->bus, address);
        if (code >= 0) code = sd_bus_set_bus_client(handle->bus, 1);
        if (code >= 0) code = sd_bus_start(handle->bus);
    } else {
        code = sd_bus_open_system(&handle->bus);
    }
    if (code < 0) {
        failed(code, NULL, "cannot connect to D-Bus", error, error_size);
        reflex_rauc_bus_close(handle);
        return NULL;
    }
    return handle;
}

void reflex_rauc_bus_close(reflex_rauc_bus *handle) {
    if (!handle) return;
    sd_bus_slot_unref(handle->completed_match);
    sd_bus_flush_close_unref(handle->bus);
    free(handle);
}

static int on_completed(sd_bus_message *message, void *userdata, sd_bus_error *ret_error) {
    (void)ret_error;
    reflex_rauc_bus *handle = userdata;
    int32_t result = -1;
    if (sd_bus_message_read(message, "i", &result) >= 0) {
        handle->result = result;
        handle->completed = 1;
    }
    return 0;
}

int reflex_rauc_bus_install(reflex_rauc_bus *handle, const char *bundle, char *error, size_t error_size) {
    sd_bus_error bus_error = SD_BUS_ERROR_NULL;
    sd_bus_message *call = NULL, *reply = NULL;
    handle->completed = 0;
    handle->result = -1;
    // The match before the call: Completed can come before InstallBundle's own answer is read.
    int code = handle->completed_match ? 0
        : sd_bus_match_signal(handle->bus, &handle->completed_match, RAUC_NAME, RAUC_PATH, RAUC_INTERFACE,
                              "Completed", on_completed, handle);
    if (code >= 0) code = sd_bus_message_new_method_call(handle->bus, &call, RAUC_NAME, RAUC_PATH, RAUC_INTERFACE, "InstallBundle");
    if (code >= 0) code = sd_bus_message_append(call, "s", bundle);
    if (code >= 0) code = sd_bus_message_open_container(call, 'a', "{sv}");
    if (code >= 0) code = sd_bus_message_close_container(call);
    if (code >= 0) code = sd_bus_call(handle->bus, call, 0, &bus_error, &reply);
    if (code < 0) failed(code, &bus_error, "RAUC refused to install", error, error_size);
    sd_bus_error_free(&bus_error);
    sd_bus_message_unref(call);
    sd_bus_message_unref(reply);
    return code < 0 ? code : 0;
}

int reflex_rauc_bus_wait(reflex_rauc_bus *handle, uint64_t microseconds, int *completed, int *result,
                         char *error, size_t error_size) {
    int code;
    // Everything already received first; then wait for more, once.
    while ((code = sd_bus_process(handle->bus, NULL)) > 0) {}
    if (code >= 0 && !handle->completed) {
        code = sd_bus_wait(handle->bus, microseconds);
        if (code >= 0) while ((code = sd_bus_process(handle->bus, NULL)) > 0) {}
    }
    if (code < 0) return failed(code, NULL, "D-Bus connection to RAUC lost", error, error_size);
    *completed = handle->completed;
    *result = handle->result;
    return 0;
}

int reflex_rauc_bus_progress(reflex_rauc_bus *handle, int *percentage, char *message, size_t message_size,
                             int *depth, char *error, size_t error_size) {
    sd_bus_error bus_error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    int32_t percent = 0, nesting = 0;
    const char *text = NULL;
    int code = sd_bus_get_property(handle->bus, RAUC_NAME, RAUC_PATH, RAUC_INTERFACE, "Progress", &bus_error, &reply, "(isi)");
    if (code >= 0) code = sd_bus_message_read(reply, "(isi)", &percent, &text, &nesting);
    if (code < 0) {
        failed(code, &bus_error, "cannot read RAUC's progress", error, error_size);
    } else {
        *percentage = percent;
        *depth = nesting;
        copy_text(message, message_size, text);
    }
    sd_bus_error_free(&bus_error);
    sd_bus_message_unref(reply);
    return code < 0 ? code : 0;
}

int reflex_rauc_bus_string_property(reflex_rauc_bus *handle, const char *name, char *value, size_t value_size,
                                    char *error, size_t error_size) {
    sd_bus_error bus_error = SD_BUS_ERROR_NULL;
    char *text = NULL;
    int code = sd_bus_get_property_string(handle->bus, RAUC_NAME, RAUC_PATH, RAUC_INTERFACE, name, &bus_error, &text);
    if (code < 0) {
        failed(code, &bus_error, "cannot read RAUC's property", error, error_size);
    } else {
        copy_text(value, value_size, text);
    }
    free(text);
    sd_bus_error_free(&bus_error);
    return code < 0 ? code : 0;
}

int reflex_rauc_bus_mark(reflex_rauc_bus *handle, const char *state, const char *slot, char *slot_name,
                         size_t slot_name_size, char *message, size_t message_size, char *error, size_t error_size) {
    sd_bus_error bus_error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    const char *name = NULL, *text = NULL;
    int code = sd_bus_call_method(handle->bus, RAUC_NAME, RAUC_PATH, RAUC_INTERFACE, "Mark", &bus_error, &reply,
                                  "ss", state, slot);
    if (code >= 0) code = sd_bus_message_read(reply, "ss", &name, &text);
    if (code < 0) {
        failed(code, &bus_error, "RAUC could not mark the slot", error, error_size);
    } else {
        copy_text(slot_name, slot_name_size, name);
        copy_text(message, message_size, text);
    }
    sd_bus_error_free(&bus_error);
    sd_bus_message_unref(reply);
    return code < 0 ? code : 0;
}

int reflex_rauc_bus_primary(reflex_rauc_bus *handle, char *slot, size_t slot_size, char *error, size_t error_size) {
    sd_bus_error bus_error = SD_BUS_ERROR_NULL;
    sd_bus_message *reply = NULL;
    const char *name = NULL;
    int code = sd_bus_call_method(handle->bus, RAUC_NAME, RAUC_PATH, RAUC_INTERFACE, "GetPrimary", &bus_error, &reply, "");
    if (code >= 0) code = sd_bus_message_read(reply, "s", &name);
    if (code < 0) {
        failed(code, &bus_error, "RAUC has no primary slot", error, error_size);
    } else {
        copy_text(slot, slot_size, name);
    }
    sd_bus_error_free(&bus_error);
    sd_bus_message_unref(reply);
    return code < 0 ? code : 0;
}
