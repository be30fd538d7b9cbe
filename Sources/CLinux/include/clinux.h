// Linux calls that Swift's Glibc module does not bring in: timer and event file
// descriptors, which let every wait in Reflex be one poll().
#pragma once
#include <sys/timerfd.h>
#include <sys/eventfd.h>
#include <stdint.h>
#include <unistd.h>

/// A non-blocking monotonic timer that becomes readable every `interval_ns`.
static inline int reflex_periodic_timer(int64_t interval_ns) {
    int fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    if (fd < 0) return -1;
    struct itimerspec spec = {
        .it_interval = { .tv_sec = interval_ns / 1000000000, .tv_nsec = interval_ns % 1000000000 },
        .it_value = { .tv_sec = interval_ns / 1000000000, .tv_nsec = interval_ns % 1000000000 },
    };
    if (timerfd_settime(fd, 0, &spec, 0) != 0) { close(fd); return -1; }
    return fd;
}

/// Changes a periodic timer's interval; the next expiry is one interval from now.
static inline int reflex_set_timer_interval(int fd, int64_t interval_ns) {
    struct itimerspec spec = {
        .it_interval = { .tv_sec = interval_ns / 1000000000, .tv_nsec = interval_ns % 1000000000 },
        .it_value = { .tv_sec = interval_ns / 1000000000, .tv_nsec = interval_ns % 1000000000 },
    };
    return timerfd_settime(fd, 0, &spec, 0);
}

#include <poll.h>
#include <time.h>
#include <sys/syscall.h>

/// poll() with a timeout in microseconds (ppoll): the realtime loop sleeps until a frame's
/// latch, a millisecond before its vblank, where poll()'s milliseconds would overshoot.
static inline int reflex_poll_microseconds(struct pollfd *fds, nfds_t count, int64_t microseconds) {
    if (microseconds < 0) microseconds = 0;
    struct timespec timeout = { .tv_sec = microseconds / 1000000, .tv_nsec = (microseconds % 1000000) * 1000 };
    // (The system call itself: glibc declares ppoll only under _GNU_SOURCE, which would
    // make this module's definitions differ from Swift's Glibc module.)
    return (int)syscall(SYS_ppoll, fds, count, &timeout, 0, 8);
}

/// A non-blocking event counter for waking a poll() from another thread.
static inline int reflex_event_fd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

#include <sys/resource.h>
#include <sys/syscall.h>
#include <sched.h>
#include <pthread.h>

/// Puts the calling thread in ordinary scheduling (SCHED_OTHER), which a thread started by a
/// realtime one does not have: it inherits its creator's SCHED_FIFO. Returns 0 or the error
/// number.
static inline int reflex_leave_realtime(void) {
    struct sched_param ordinary = { .sched_priority = 0 };
    return pthread_setschedparam(pthread_self(), SCHED_OTHER, &ordinary);
}

/// Puts the calling thread at the lowest CPU priority (nice 19) and the idle I/O class, for
/// work that must never take time from the realtime loop (saving files, encoding PNGs).
/// Not SCHED_IDLE: that runs only on an idle core, and a camera whose cores are busy (a
/// video encode, a test run) never saved a photo; the loop is SCHED_FIFO, which nice 19
/// threads never preempt anyway. Returns 0, or -1 if either could not be set.
static inline int reflex_make_thread_background(void) {
    pid_t tid = (pid_t)syscall(SYS_gettid);
    // (A thread started by the realtime loop would be SCHED_FIFO whatever nice it asks for:
    // a merge's helpers at FIFO 40 held a core from the loop for 300 ms.)
    int policy = reflex_leave_realtime();
    int cpu = setpriority(PRIO_PROCESS, (id_t)tid, 19);
    // ioprio_set(IOPRIO_WHO_PROCESS, tid, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_IDLE, 0))
    int io = (int)syscall(SYS_ioprio_set, 1, tid, 3 << 13);
    return policy == 0 && cpu == 0 && io == 0 ? 0 : -1;
}

#include <errno.h>

/// Gives the calling thread the nice value `nice` (0 to 19): it yields the CPU to nice-0
/// threads when they have work and takes what they leave. Returns 0, or the error number.
static inline int reflex_set_thread_nice(int nice) {
    int policy = reflex_leave_realtime();
    if (policy != 0) return policy;
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice) == 0 ? 0 : errno;
}

/// The calling thread's I/O priority (ioprio_get): its class is the value >> 13.
static inline int reflex_thread_io_priority(void) {
    return (int)syscall(SYS_ioprio_get, 1, (pid_t)syscall(SYS_gettid));
}

#include <pthread.h>
#include <sched.h>

/// Moves the calling thread into SCHED_FIFO at `priority`, so no ordinary thread (saving,
/// PNG encoding, the rest of the system) can take its core while it has work. Needs root,
/// CAP_SYS_NICE or an RLIMIT_RTPRIO allowance. Returns 0 or the error number.
static inline int reflex_make_thread_realtime(int priority) {
    struct sched_param parameter = { .sched_priority = priority };
    return pthread_setschedparam(pthread_self(), SCHED_FIFO, &parameter);
}

#include <sys/prctl.h>

/// Names the calling thread (15 characters at most), as `top -H` and /proc show it.
static inline int reflex_name_thread(const char *name) { return prctl(PR_SET_NAME, name, 0, 0, 0); }

#include <linux/input.h>
#include <sys/ioctl.h>
#include <errno.h>
#include <string.h>

/// 1 if the evdev node open on `fd` is a force-feedback device that can rumble (a
/// `pwm-vibrator`, `gpio-vibra`, a phone's motor, a gamepad), 0 if not, -errno if unreadable.
static inline int reflex_evdev_can_rumble(int fd) {
    unsigned char events[EV_MAX / 8 + 1] = {0}, effects[FF_MAX / 8 + 1] = {0};
    if (ioctl(fd, EVIOCGBIT(0, sizeof(events)), events) < 0) return -errno;
    if (!(events[EV_FF / 8] & (1 << (EV_FF % 8)))) return 0;
    if (ioctl(fd, EVIOCGBIT(EV_FF, sizeof(effects)), effects) < 0) return -errno;
    return (effects[FF_RUMBLE / 8] & (1 << (FF_RUMBLE % 8))) ? 1 : 0;
}

/// Uploads one rumble effect (magnitudes 0…65535, `milliseconds` long) into the device,
/// once; returns the id it is played by, or -errno.
static inline int reflex_evdev_upload_rumble(int fd, uint16_t strong, uint16_t weak, uint16_t milliseconds) {
    struct ff_effect effect;
    memset(&effect, 0, sizeof(effect));
    effect.type = FF_RUMBLE;
    effect.id = -1;
    effect.replay.length = milliseconds;
    effect.u.rumble.strong_magnitude = strong;
    effect.u.rumble.weak_magnitude = weak;
    if (ioctl(fd, EVIOCSFF, &effect) < 0) return -errno;
    return effect.id;
}

/// Plays an uploaded effect once: one write of one event, nothing allocated, never blocking
/// (the driver times the motor). Returns 0 or -errno (ENODEV: the device went away).
static inline int reflex_evdev_play(int fd, int effect_id) {
    struct input_event event;
    memset(&event, 0, sizeof(event));
    event.type = EV_FF;
    event.code = (uint16_t)effect_id;
    event.value = 1;
    return write(fd, &event, sizeof(event)) == (ssize_t)sizeof(event) ? 0 : -errno;
}

#include <sys/vfs.h>

/// The file system's type (statfs's f_type: 0x4d44 FAT, 0xEF53 ext4…) at `path`; -1 if unknown.
static inline long reflex_file_system_type(const char *path) {
    struct statfs info;
    return statfs(path, &info) == 0 ? (long)info.f_type : -1;
}

#include <malloc.h>

/// Gives the free pages of every heap arena back to the kernel; 1 if any were. (glibc keeps
/// what threads free in their arenas, and raises its mapping threshold as big blocks are
/// freed, so frames and encoder buffers come to live in the heap: without this, hours of
/// photos and movies step the resident size up.)
static inline int reflex_heap_trim(void) { return malloc_trim(0); }

/// What malloc holds, over every arena: the bytes of the blocks in use in its heaps, and of
/// the big blocks it mapped one by one (each its own mapping, gone when freed).
static inline void reflex_heap_figures(size_t *inUse, size_t *mapped) {
    struct mallinfo2 info = mallinfo2();
    *inUse = info.uordblks;
    *mapped = info.hblkhd;
}

#include <linux/usbdevice_fs.h>

/// Claims a USB device's interface through usbdevfs (the computer's end of a cable, for `reflex
/// bench usb`); 0 or -errno.
static inline int reflex_usb_claim_interface(int fd, unsigned int interface) {
    return ioctl(fd, USBDEVFS_CLAIMINTERFACE, &interface) < 0 ? -errno : 0;
}

/// One bulk transfer on `endpoint` (its address: 0x80 set for in) of up to `length` bytes,
/// waiting at most `timeout_ms`: the bytes moved, or -errno. An in transfer ends early at the
/// device's short packet, as a transfer does.
static inline int reflex_usb_bulk(int fd, unsigned int endpoint, void *data, unsigned int length, unsigned int timeout_ms) {
    struct usbdevfs_bulktransfer transfer;
    memset(&transfer, 0, sizeof(transfer));
    transfer.ep = endpoint;
    transfer.len = length;
    transfer.timeout = timeout_ms;
    transfer.data = data;
    int moved = ioctl(fd, USBDEVFS_BULK, &transfer);
    return moved < 0 ? -errno : moved;
}
