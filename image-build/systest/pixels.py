"""Pixel checks: the panel as QEMU scans it out (a screendump), and what its pixels show."""
import os
import time

import rig

from .steps import RESULTS, paced


def screendump(steps, name):
    """The panel as QEMU scans it out, with a pixel reader and a count of bright pixels."""
    shot = os.path.join(RESULTS, name + ".ppm")
    steps.machine.screendump(shot, format="ppm")
    width, height, pixel = rig.read_ppm(shot)

    def bright_pixels(x, y, w, h, level=200):
        return sum(1 for yy in range(y, y + h) for xx in range(x, x + w) if sum(pixel(xx, yy)) / 3 > level)
    return shot, width, height, pixel, bright_pixels


def screen_until(steps, name, checks, limit=15):
    """The panel once it shows what a step asked for: screendumps taken one after another until
    every check holds, or `limit` seconds pass (the scenario's time limit at most), so a
    scenario goes on as soon as the camera has drawn it, however slowly the emulated machine
    draws. `checks(pixel, bright_pixels, width, height)` gives (what, ok) pairs, as require
    takes them. Returns the last screendump and its checks: require on them fails a screen that
    never came right, with that screendump as the evidence."""
    started = time.monotonic()
    until = min(started + paced(limit), steps.deadline)
    tries = 0
    while True:
        tries += 1
        dump = screendump(steps, name)
        shot, width, height, pixel, bright_pixels = dump
        results = checks(pixel, bright_pixels, width, height)
        if all(ok for _, ok in results) or time.monotonic() >= until:
            steps.note_time(started, f"the screen ({name})", tries)
            return dump, results
        time.sleep(0.2)


def colour_bars(pixel, width, height):
    """Each of vivid's 8 test-pattern bars across the panel, left to right, at 65 % of the
    panel's height: below the shutter button at the right edge (and, turned 180°, above it),
    clear of the histogram and of vivid's text."""
    return [pixel(int((i + 0.5) * width / 8), int(height * 0.65)) for i in range(8)]


def above(c, high, low):
    """Channels `high` of colour c stand at least 40 above channel `low` (0 red, 1 green, 2 blue)."""
    return all(c[h] > c[low] + 40 for h in high)


def yellow(c): return above(c, (0, 1), 2)
def cyan(c): return above(c, (1, 2), 0)
def magenta(c): return above(c, (0, 2), 1)
def blue(c): return above(c, (2,), 0) and above(c, (2,), 1)
def amber(c): return c[0] > 200 and 130 < c[1] < 210 and c[2] < 80


def amber_pixels(pixel, x, y, w, h):
    """How many pixels of a region are the accent's amber (a chip that asks for attention)."""
    return sum(1 for yy in range(y, y + h, 2) for xx in range(x, x + w, 2) if amber(pixel(xx, yy)))


def viewfinder_lit(pixel):
    """Most of the viewfinder's sample points are not black: a picture, not a gap."""
    points = [pixel(x, y) for x in range(120, 1000, 110) for y in range(230, 700, 90)]
    return sum(1 for c in points if sum(c) > 60) >= len(points) * 2 // 3
