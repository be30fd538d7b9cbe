"""Lenses: three cameras as one, the zoom moving between them."""
import os
import re
import time

from ..camera import REFLEX_LOG
from ..inputs import touch_tap
from ..pixels import amber, screen_until, screendump, viewfinder_lit
from ..steps import require, scenario


# The lens buttons' centres on the 1280x800 panel with three lenses (ScreenLayout.lensButtons):
# a column left of the shutter, the widest at the bottom.
LENS_BUTTONS = {"0.5x": (1058, 472), "1x": (1058, 400), "3x": (1058, 328)}
LENS_DROP_IN = "/run/systemd/system/reflex.service.d/lenses.conf"


@scenario("lenses", limit=420)
def lenses(steps):
    """Three cameras as one (seed 000 story 2.6): a board description with an ultra-wide
    (vimc's Sensor A), a wide and a tele (two vivid instances, found by their bus names).
    The lenses offered are the cameras present, drawn as buttons (screendump); a tap on 3x
    glides the zoom there and the camera changes to the tele's node (log, and v4l2-ctl reads
    the manual ISO 800's gain on the new device); screendumps taken across the switch never
    show a black viewfinder; vimc unloaded while the camera runs drops the ultra-wide lens,
    without a crash; the wide, streaming in standby beside the tele while the zoom is near
    their switch-over, is swapped in by a tap on 1x (the gap logged). The board is put back
    as it was."""
    state = "--state-dir /var/lib/reflex"
    board = ("rm -rf /etc/reflex/lens-board && cp -rL /etc/reflex/board /etc/reflex/lens-board && mkdir /etc/reflex/lens-board/lenses && "
             "(cat /etc/reflex/board/sensor.conf; echo 'camera = platform:vivid-000') > /etc/reflex/lens-board/lenses/wide.conf && "
             "(cat /etc/reflex/board/sensor.conf; printf 'camera = platform:vivid-001\\nmagnification = 3\\nf-number = 4\\n') "
             "> /etc/reflex/lens-board/lenses/tele.conf && "
             "printf 'camera = Sensor A\\npreview-size = 640x360\\nf-number = 2.2\\nfocal-length-mm = 2\\n' "
             "> /etc/reflex/lens-board/lenses/ultra-wide.conf && ls /etc/reflex/lens-board/lenses")
    steps.run("the camera stopped; two vivid instances and vimc", "systemctl stop reflex && modprobe -r vivid && "
              "modprobe vivid n_devs=2 && modprobe vimc")
    steps.wait_until("the three cameras are there", "v4l2-ctl --list-devices", limit=20,
                     contains=["platform:vivid-000", "platform:vivid-001", "platform:vimc"])
    try:
        steps.run("a board of three lenses", board, contains=["tele.conf", "ultra-wide.conf", "wide.conf"])
        steps.run("Pro mode at ISO 800", f"runuser -u reflex -- reflex settings set mode pro {state} && "
                  f"runuser -u reflex -- reflex settings set iso 800 {state}")
        steps.run("the camera started on that board",
                  f"mkdir -p {os.path.dirname(LENS_DROP_IN)} && printf '[Service]\\nEnvironment=REFLEX_BOARD_DIR=/etc/reflex/lens-board\\n'"
                  f" > {LENS_DROP_IN} && systemctl daemon-reload && journalctl -b -u reflex -o cat --no-pager | wc -l > /tmp/mark"
                  " && systemctl start reflex")
        since_mark = REFLEX_LOG + " | tail -n +$(( $(cat /tmp/mark) + 1 ))"
        found = steps.wait_until("every lens present is offered, the wide streams", since_mark, limit=60,
                                 matches=[r"lenses: ultra-wide 0.5x on (/dev/video\d+), wide 1x on (/dev/video\d+), "
                                          r"tele 3x on (/dev/video\d+)",
                                          r"display: first frame on the panel"])
        ultra, wide, tele = re.search(r"lenses: ultra-wide 0.5x on (/dev/video\d+), wide 1x on (/dev/video\d+), "
                                      r"tele 3x on (/dev/video\d+)", found).groups()
        steps.wait_until("the wide's node streams", since_mark, limit=30, matches=[rf"camera: streaming {wide} "])
        (shot, width, height, pixel, bright_pixels), shown = screen_until(
            steps, "lenses-buttons", lambda pixel, bright_pixels, *_: [
                ("the 1x button is filled with the accent", amber(pixel(1058 - 20, 400))),
                ("the 0.5x and 3x buttons are drawn, not filled", not amber(pixel(1058 - 20, 472))
                 and not amber(pixel(1058 - 20, 328)) and bright_pixels(1030, 310, 56, 36) > 20)])
        require(shown, "no lens buttons", f"screendump {shot}")
        steps.run("a tap on 3x", touch_tap(*LENS_BUTTONS["3x"]))
        dumps = []
        for index in range(6):
            dumps.append(screendump(steps, f"lenses-switch-{index}"))
            time.sleep(0.25)
        switched = steps.wait_until("the zoom reached the tele: it streams", since_mark, limit=30,
                         matches=[r"lenses: wide → tele at zoom 3\.00",
                                  # (Started at the switch, or beforehand in standby as the zoom neared it.)
                                  rf"camera: streaming {tele} |lenses: the tele streams beside the wide",
                                  r"lenses: the new lens's first frame \d+ ms after the last lens's last"])
        print("    " + re.search(r"the new lens's first frame \d+ ms after the last lens's last", switched).group(0))
        require([(f"screendump {index} across the switch shows a picture", viewfinder_lit(dump[3]))
                 for index, dump in enumerate(dumps)], "a black viewfinder across the switch",
                ", ".join(dump[0] for dump in dumps))
        steps.wait_until("ISO 800 carried over: the tele's gain is 800/100 x 16", f"v4l2-ctl -d {tele} --get-ctrl gain",
                         limit=20, contains=["gain: 128"])
        (shot, width, height, pixel, bright_pixels), shown = screen_until(steps, "lenses-tele", lambda pixel, *_: [
            ("the 3x button is marked now", amber(pixel(1058 - 20, 328)) and not amber(pixel(1058 - 20, 400)))])
        require(shown, "the lens buttons do not show the tele", f"screendump {shot}")
        steps.wait_until("vimc unloaded while the camera runs", "modprobe -r vimc && echo unloaded", limit=20,
                         contains=["unloaded"])
        steps.wait_until("the ultra-wide is dropped", since_mark, limit=30,
                         matches=[rf"lenses: wide 1x on {wide}, tele 3x on {tele}; missing: ultra-wide"])
        steps.run("reflex kept running throughout", "systemctl show reflex -p NRestarts -p ActiveState",
                  contains=["NRestarts=0", "ActiveState=active"])
        (shot, width, height, pixel, bright_pixels), shown = screen_until(steps, "lenses-two", lambda pixel, bright_pixels, *_: [
            ("two buttons left, 3x marked", amber(pixel(1058 - 20, 364)) and not amber(pixel(1058 - 20, 436))
             and bright_pixels(1030, 400, 56, 72) > 20)])
        require(shown, "the buttons do not follow the lenses present", f"screendump {shot}")
        # The zoom still near the switch-over, the wide streams in standby beside the tele:
        # going back to it swaps streams instead of starting one.
        steps.wait_until("the wide streams in standby beside the tele", since_mark, limit=30,
                         matches=[r"lenses: the wide streams beside the tele, ready for the switch"])
        steps.run("a tap on 1x", touch_tap(1058, 436))
        back = steps.wait_until("back to the wide by swapping to its stream", since_mark, limit=30,
                                matches=[r"lenses: tele → wide at zoom [\d.]+, its stream already running in standby "
                                         r"\(shown from its next frame, the lens before shown until then\)",
                                         r"(?s)already running in standby.*the new lens's first frame \d+ ms after"])
        gap, swap = re.findall(r"the new lens's first frame (\d+) ms after the last lens's last, (\d+) ms of it the swap",
                               back)[-1]
        # The wait should be at most a frame of the lens shown: 200 ms at vivid's 5 fps, whose
        # frames under TCG on a busy host come up to half a frame late (282 ms seen in a full
        # run); the swap's own cost (ioctls to the new sensor, tens of ms under TCG) on top.
        # Printed, not failed: under TCG the figure says how fast the emulator ran as much as how
        # long the camera waited. What fails is above: no swap to the stream in standby.
        print(f"    back to the wide from its standby stream: its first frame {gap} ms after the tele's last, {swap} ms "
              f"of it the swap, so {int(gap) - int(swap)} ms waited for a frame (the tele shown until the wide's next "
              "frame: a frame of vivid is 200 ms here)")
        steps.run("still running", "systemctl show reflex -p NRestarts -p ActiveState",
                  contains=["NRestarts=0", "ActiveState=active"])
    finally:
        steps.run("the board as it was", f"systemctl stop reflex; rm -f {LENS_DROP_IN}; systemctl daemon-reload; "
                  "rm -rf /etc/reflex/lens-board; modprobe -r vimc; modprobe -r vivid; modprobe vivid; "
                  f"runuser -u reflex -- reflex settings set mode auto {state}; runuser -u reflex -- reflex settings set iso auto {state}; "
                  "systemctl start reflex", expect_status=None, timeout=60)
