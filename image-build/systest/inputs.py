"""The board's inputs, driven from the guest's shell: its keys, its touchscreen, its dials
and a real recorded drag; the keys' codes and the places on the panel the scenarios press."""
import os

import rig

KEY_CAMERA = 212
KEY_MENU = 139
KEY_RECORD = 167
KEY_VOLUMEDOWN = 114
KEY_ZOOMIN = 0x1A2
# The quick menu on the QEMU board's 1280x800 panel (ScreenLayout at 1.00x): its button, a
# point inside its panel, and a line's value (right half: forward). Its lines share the panel's
# 648 px below its header: the row height follows the most lines it ever shows
# (QuickMenuItem.mostLines).
MENU_BUTTON = (48, 108)
MENU_INSIDE = (300, 420)
MENU_MOST_LINES = 18
MENU_ROW_HEIGHT = 648 // MENU_MOST_LINES


def menu_value(line):
    """The middle of the value (its forward half) of the menu's line `line` as shown, from 0."""
    return (540, 128 + line * MENU_ROW_HEIGHT + MENU_ROW_HEIGHT // 2)


# Lines as a first start shows them (Auto, single shot).
MENU_FORMAT_FORWARD = menu_value(0)
MENU_GEOTAG_FORWARD = menu_value(6)
MENU_REMOTE_FORWARD = menu_value(10)
# (USB follows Paired phones, which shows only while the remote is on: line 11 here.)
MENU_USB_FORWARD = menu_value(11)


def device_node(name):
    """Shell for the /dev/input node of the input device called `name` (one grep of every
    device's name: a shell loop reading each costs most of a second on an emulated machine)."""
    return (f"$(n=$(grep -lxF '{name}' /sys/class/input/event*/device/name); n=${{n#/sys/class/input/}};"
            f" echo /dev/input/${{n%/device/name}})")


def play(device, events):
    """Shell for evemu lines ("E: seconds type code value", from 0 s) written into an input
    device in one evemu-play stream, at their own times: the spacing of a tap, a hold or
    detents is the one asked for, which separate commands on a slow emulated machine would
    stretch. (evemu-play takes a time whose whole seconds are 0 for no time yet and plays such
    events at once, however far apart: the times are moved on by a second. The first event is
    played at once, the others at their times after it.)"""
    lines = []
    for event in events:
        _, when, rest = event.split(" ", 2)
        lines.append(f"E: {float(when) + 1:.6f} {rest}")
    return "printf '" + "\\n".join(lines) + "\\n' | evemu-play " + device


def key_hold(device, code, seconds):
    """Shell for a key held down `seconds` on an input device."""
    return play(device, [f"E: 0.000000 0001 {code:04x} 0001", "E: 0.000000 0000 0000 0000",
                         f"E: {seconds:.6f} 0001 {code:04x} 0000", f"E: {seconds:.6f} 0000 0000 0000"])


def key_tap(device, code):
    """Shell for one press of a key (0.1 s, as a finger presses it) on an input device: one
    evemu-play stream, so a slow emulated machine cannot stretch it into a hold."""
    return key_hold(device, code, 0.1)


def touch_tap(x, y):
    """Shell for one finger tapping the board's virtual touchscreen at panel pixel (x, y):
    down, and up 0.1 s later."""
    down = [("002f", 0), ("0039", 7), ("0035", x), ("0036", y), ("0000", x), ("0001", y)]
    return play(device_node("Reflex Virtual Touchscreen"),
                [f"E: 0.000000 0003 {code} {value:04d}" for code, value in down]
                + ["E: 0.000000 0001 014a 0001", "E: 0.000000 0000 0000 0000",
                   "E: 0.100000 0003 0039 -001", "E: 0.100000 0001 014a 0000", "E: 0.100000 0000 0000 0000"])


def touch_swipe(x0, x1, y, seconds=0.3, steps=6):
    """Shell for one finger swiping the board's virtual touchscreen along row y from x0 to x1
    in `seconds`: down, `steps` moves, up."""
    events = [f"E: 0.000000 0003 {code} {value:04d}" for code, value in
              [("002f", 0), ("0039", 8), ("0035", x0), ("0036", y), ("0000", x0), ("0001", y)]]
    events += ["E: 0.000000 0001 014a 0001", "E: 0.000000 0000 0000 0000"]
    for i in range(1, steps + 1):
        t, x = seconds * i / steps, x0 + (x1 - x0) * i // steps
        events += [f"E: {t:.6f} 0003 0035 {x:04d}", f"E: {t:.6f} 0003 0000 {x:04d}", f"E: {t:.6f} 0000 0000 0000"]
    events += [f"E: {seconds + 0.02:.6f} 0003 0039 -001", f"E: {seconds + 0.02:.6f} 0001 014a 0000",
               f"E: {seconds + 0.02:.6f} 0000 0000 0000"]
    return play(device_node("Reflex Virtual Touchscreen"), events)


def detents(device, count, spacing):
    """Shell for `count` clockwise detents of an encoder, `spacing` seconds apart (a spin faster
    than separate commands can be on an emulated machine, or a slow turn whose spacing they
    would stretch)."""
    lines = []
    for i in range(count):
        t = i * spacing
        lines += [f"E: {t:.6f} 0002 000b 0120", f"E: {t:.6f} 0002 0008 0001", f"E: {t:.6f} 0000 0000 0000"]
    return play(device, lines)


def drag_recording_on(x, y):
    """The real one-finger drag (Tests/Data/input, EP0430M09), its upward stroke moved so it
    starts at panel pixel (x, y) of the board's touchscreen: evemu lines, with its own timing."""
    events = [line.split()[:5] for line in open(os.path.join(rig.REPO, "Tests/Data/input/"
                                                            "EP0430M09.1-finger-drag-up-down.events"))
              if line.startswith("E:")]
    # The upward stroke starts at the report where the finger is lowest (the turn).
    turn = max((int(e[4]), i) for i, e in enumerate(events) if e[2] == "0003" and e[3] == "0036")[1]
    start = turn
    while start > 0 and events[start - 1][2] != "0000":
        start -= 1
    turn_x = [int(e[4]) for e in events[:start] if e[2] == "0003" and e[3] == "0035"][-1]
    turn_y = int(events[turn][4])
    t0 = float(events[start][1])
    out = [f"E: 0.000000 0003 {code} {value:04d}" for code, value in
           [("002f", 0), ("0039", 66), ("0035", x), ("0036", y), ("0000", x), ("0001", y)]]
    out += ["E: 0.000000 0001 014a 0001", "E: 0.000000 0000 0000 0000"]
    for _, when, kind, code, value in events[start:]:
        value = int(value)
        if kind == "0003" and code in ("0035", "0000"):
            value += x - turn_x
        elif kind == "0003" and code in ("0036", "0001"):
            value += y - turn_y
        out.append(f"E: {float(when) - t0:.6f} {kind} {code} {value:04d}")
    return out
