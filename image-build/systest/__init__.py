"""The system tests of image-build/test, as a package (Python's standard library only).

    runner.py     the run: its options, the boot, each scenario in turn with its time, the
                  slowest at the end, the evidence saved (with each step's time)
    steps.py      how a scenario runs its steps in the guest (Steps, StepFailed, require,
                  indent) and times them, the @scenario registry, and where the evidence
                  goes (RESULTS)
    camera.py     the camera in the guest: its log (follow_log: a line awaited as it is
                  written), waiting for it to run and show a frame, and fresh_camera (its
                  first start's settings, for a scenario needing them)
    pixels.py     pixel checks on the panel as QEMU scans it out (screendump, screen_until:
                  screendumps until checks hold, colour_bars, yellow/cyan/magenta/blue/amber,
                  amber_pixels, viewfinder_lit)
    inputs.py     the board's inputs driven from the guest's shell (key_tap, key_hold,
                  touch_tap, detents, play, drag_recording_on, device_node) and the keys and
                  places pressed
    scenarios/    the scenarios, one module per group of what they test, and the order of a
                  full run (scenarios/__init__.py)

rig.py, beside image-build/test, is the QEMU rig itself (shared with image-build/run and
image-build/screenshot).
"""
