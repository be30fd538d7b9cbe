"""The scenarios, one module per group of what they test (docs/testing.md's table lists each
module's, and a suite checks that it does; `image-build/test --list` prints them in order).

A scenario is a function of a Steps object, registered with @scenario(name, limit) in the
module of its group. A full run takes them in ORDER; one that ORDER does not name runs after
those it names.
"""
from ..steps import SCENARIOS
# (Imported for the scenarios they register.)
from . import autozoom, boot, card, controls, display, drive, gps, lenses, memory, movies, photos, power, remote, review, sealed, sensor, usb  # noqa: F401

# The order of a full run. It matters: a scenario may rely on what one before it left
# (the camera restarted, vivid loaded again, the card put back, a movie on the card for
# power-cut), and movie, power-cut and review-delete-cut stop the machine hard and boot it again,
# so they come last.
ORDER = [
    "boot", "reflex-user", "sealed-service", "probe", "vkms", "media-graph", "media-camera", "lenses", "touch-replay",
    "sensor-stream", "preview-on-panel", "no-camera", "panel-rotation", "package", "sensor-gain",
    "sensor-disconnect", "board-inputs", "storage-card", "touch-and-dials", "controls", "capture", "enhanced-raw", "review-delete", "review-play",
    "geotag", "remote-wifi", "self-timer", "interval", "bracket",
    "haptics", "card-pulled-mid-burst", "low-storage", "card-full", "card-kinds", "memory", "auto-zoom", "movie", "review-movie", "power-cut",
    "review-delete-cut", "usb-files", "usb-bench",
]


def in_order():
    """Every scenario, as (name, limit, function), in a full run's order: those ORDER names,
    then any other in the order its module registered it."""
    registered = {entry[0]: entry for entry in SCENARIOS}
    unknown = [name for name in ORDER if name not in registered]
    if unknown:
        raise RuntimeError(f"ORDER names scenarios that no module registers: {', '.join(unknown)}")
    return [registered[name] for name in ORDER] + [entry for entry in SCENARIOS if entry[0] not in ORDER]
