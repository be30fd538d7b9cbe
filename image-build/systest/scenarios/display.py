"""The display: vkms, the picture and the HUD on the panel, the screen without a camera, and
a panel mounted upside down."""
import re
import time

from ..camera import REFLEX_LOG
from ..pixels import blue, colour_bars, cyan, magenta, screen_until, screendump, yellow
from ..steps import StepFailed, require, scenario


@scenario("vkms", limit=60)
def vkms(steps):
    """The vkms module, built out of tree for the image's kernel, loads and gives a second
    DRM card with a virtual connector and overlay planes (what `image-build/run --display
    vkms` boots with)."""
    steps.run("vkms loads into Debian's kernel, with its overlay plane", "modprobe vkms enable_overlay=1 && grep -l vkms /sys/class/drm/card*/device/driver/module/drivers/* 2>/dev/null; lsmod | grep ^vkms",
              contains=["vkms"])
    steps.wait_until("reflex probe sees its card and connector", "runuser -u reflex -- reflex probe", limit=10,
                     matches=[r"driver vkms", r"connector Virtual-\d+: connected"])
    # vkms makes a platform device of its own name (it has no driver link to go by).
    card = ('$(for c in /sys/class/drm/card?; do [ "$(basename "$(readlink -f $c/device)")" = vkms ]'
            ' && echo /dev/dri/${c##*/}; done | head -1)')
    steps.run("a second camera process shows its picture on vkms",
              f"card={card}; echo card=$card; mkdir -p /tmp/vkms-state && chown reflex /tmp/vkms-state && "
              "(runuser -u reflex -- reflex run --display-card $card --sensor sim --state-dir /tmp/vkms-state "
              ">/tmp/vkms.log 2>&1 &)", matches=[r"card=/dev/dri/card\d"])
    steps.wait_until("it flips on vkms", "cat /tmp/vkms.log", limit=60,
                     matches=[r"display: /dev/dri/card\d+ vkms Virtual-\d+ \d+x\d+ \(atomic, the interface on overlay plane \d+\)",
                              r"display: first frame on the panel"])
    time.sleep(5)
    # (Asked again while the camera does not answer within its 3 s: on a host slowed enough,
    # the guest's realtime threads leave the others little CPU.)
    output = steps.wait_until("its statistics: flips, the vblanks they took, and none refused",
                              "runuser -u reflex -- reflex stats --state-dir /tmp/vkms-state", limit=60,
                              matches=[r"(\d+) flips over (\d+) vblanks, (\d+) vblanks missed by the display, 0 refused, 0 stalled"])
    flips, vblanks, missed = map(int, re.search(r"(\d+) flips over (\d+) vblanks, (\d+) vblanks missed", output).groups())
    # The loop queues a frame only once the previous flip has completed; a second flip in one
    # vblank would have been refused by the kernel (EBUSY) and counted as refused above.
    if flips < 2 or flips > vblanks + 1:
        raise StepFailed(f"page flips must never exceed one per vblank: {flips} flips over {vblanks} vblanks\n  {output}")
    # (Unloaded once the process has let the card go: a busy machine takes longer to end it.)
    steps.run("stop it", "pkill -f 'reflex run --display-card'")
    steps.wait_until("it has ended", "! pgrep -f 'reflex run --display-car[d]'", limit=30)
    steps.run("unload vkms", "modprobe -r vkms")


@scenario("preview-on-panel", limit=120)
def preview_on_panel(steps):
    """reflex shows vivid's picture and the HUD on the virtio-gpu panel: the screendump has the
    colour bars of vivid's test pattern in the viewfinder (16:9, letterboxed in 1280x800),
    black bars above and below it, the HUD bar along the top edge darkening the picture under
    it with the exposure readout written in white, and the Auto/Pro toggle at the bottom right."""
    steps.wait_until("reflex's realtime loop drives the panel", REFLEX_LOG, limit=30,
                     matches=[r"display: /dev/dri/card\d+ virtio_gpu Virtual-1 1280x800 \(atomic\), fonts from /usr/share/reflex/fonts",
                              # The board's density wins over the EDID's placeholder.
                              r"display: 216 dpi from the board's display.conf \(the panel says 320x200 mm\); "
                              r"the interface at 1.00× its design",
                              r"display: first frame on the panel"], timeout=10)
    # A few frames, until the metering has filled the HUD.
    screen_until(steps, "preview-on-panel", lambda pixel, bright_pixels, *_: [
        ("the HUD's exposure readout is written", bright_pixels(16, 30, 220, 28) > 100)])
    first = steps.run("the realtime loop's statistics", "reflex stats --state-dir /var/lib/reflex",
                      matches=[r"(\d+) allocations in \d+ frames"])
    time.sleep(5)
    second = steps.run("and five seconds later", "reflex stats --state-dir /var/lib/reflex",
                       matches=[r"(\d+) allocations in \d+ frames"])
    allocations = [int(re.search(r"(\d+) allocations in", text).group(1)) for text in (first, second)]
    shot, width, height, pixel, bright_pixels = screendump(steps, "preview-on-panel")
    bars = colour_bars(pixel, width, height)
    under_hud, below_hud = pixel(width // 2, 52), pixel(width // 2, 120)
    readout = bright_pixels(16, 30, 220, 28)
    evidence = (f"allocations counted by the loop {allocations[0]} then {allocations[1]}; "
                f"screendump {shot}: bars left to right {bars}, top row {pixel(width // 2, 10)}, "
                f"picture under the HUD {under_hud} / below it {below_hud}, {readout} bright pixels in the readout")
    def bright(c): return max(c) > 90
    require([
        ("once running, a frame allocates nothing (ISP, interface, atomic commit)", allocations[0] == allocations[1]),
        ("the loop is realtime as the reflex user (the unit's LimitRTPRIO)", "SCHED_FIFO 40" in first),
        ("the letterbox above is black", max(pixel(width // 2, 10)) < 16 and max(pixel(width // 2, height - 10)) < 16),
        ("the viewfinder is lit", bright(bars[0])),
        ("bar 2 is yellow: red and green above blue", yellow(bars[1])),
        ("bar 3 is cyan: green and blue above red", cyan(bars[2])),
        ("bar 5 is magenta: red and blue above green", magenta(bars[4])),
        ("bar 7 is blue", blue(bars[6])),
        ("bar 8 is black", max(bars[7]) < 60),
        ("the HUD bar darkens the picture's top edge", max(under_hud) * 2 < max(below_hud)),
        ("the HUD's exposure readout is written in white", readout > 100),
        ("the Auto segment of the mode toggle is lit", min(pixel(1100, 748)) > 220),
    ], "the panel does not show vivid's picture with the HUD", evidence)


@scenario("no-camera", limit=180)
def no_camera(steps):
    """With vivid unloaded, the camera says "No camera found" on the panel and keeps running;
    when the module is loaded again, the picture comes back by itself."""
    steps.run("stop the camera and unload vivid", "systemctl stop reflex && modprobe -r vivid && ls /dev/video* 2>&1; true",
              contains=["No such file"])
    # vivid comes back whatever happens: the next scenarios need it.
    try:
        steps.run("start the camera without one, marking the log",
                  REFLEX_LOG + " | wc -l > /tmp/mark && systemctl start reflex")
        since_mark = REFLEX_LOG + " | tail -n +$(( $(cat /tmp/mark) + 1 ))"
        steps.wait_until("it knows there is none", since_mark, limit=60,
                         contains=["camera: none found; waiting for one", "display: first frame on the panel"])
        (shot, width, height, pixel, bright_pixels), shown = screen_until(
            steps, "no-camera", lambda pixel, bright_pixels, width, height: [
                ("the screen is the failure screens' near-black", pixel(20, 20) == (0x0F, 0x10, 0x12)),
                ("the message's title is written", bright_pixels(440, 400, 400, 50) > 300),
                ("no HUD over it", bright_pixels(0, 0, width, 64) == 0)])
        require(shown, "the panel does not say there is no camera",
                f"screendump {shot}: corner {pixel(20, 20)}, {bright_pixels(440, 400, 400, 50)} bright pixels in the title")
        steps.run("the camera kept running", "systemctl show reflex -p NRestarts -p ActiveState",
                  contains=["NRestarts=0", "ActiveState=active"])
    finally:
        steps.run("load vivid again", "modprobe vivid; systemctl start reflex; ls /dev/video0", contains=["/dev/video0"])
    steps.wait_until("reflex finds it by itself and streams", since_mark, limit=60,
                     matches=[r"camera: streaming /dev/video\d+"])
    (shot, width, height, pixel, bright_pixels), back = screen_until(
        steps, "no-camera-recovered", lambda pixel, bright_pixels, width, height: [
            ("the picture is back: bar 2 yellow", yellow(colour_bars(pixel, width, height)[1])),
            ("and bar 7 blue", blue(colour_bars(pixel, width, height)[6]))])
    require(back, "the picture did not come back", f"screendump {shot}: bars {colour_bars(pixel, width, height)}")


@scenario("panel-rotation", limit=150)
def panel_rotation(steps):
    """A board whose panel is mounted upside down says `rotation = 180` in its display.conf:
    the whole picture turns, so the HUD bar runs along the panel's bottom edge, the mode
    toggle sits top left and vivid's colour bars run right to left."""
    steps.run("a board folder like the QEMU board's, with an upside-down panel",
              "rm -rf /tmp/board-180 && cp -a /etc/reflex/board/. /tmp/board-180 && "
              "echo 'rotation = 180' >> /tmp/board-180/display.conf && chmod -R a+rX /tmp/board-180 && "
              "mkdir -p /tmp/rotated-state && chown reflex /tmp/rotated-state")
    # The board's own camera comes back whatever happens: the next scenarios need the device.
    try:
        steps.run("the camera runs with it", "systemctl stop reflex && "
                  "(runuser -u reflex -- reflex run --board /tmp/board-180 --state-dir /tmp/rotated-state "
                  ">/tmp/rotated.log 2>&1 &)")
        steps.wait_until("it shows the picture turned", "cat /tmp/rotated.log", limit=60,
                         matches=[r"board: panel from /tmp/board-180/display.conf",
                                  r"display: /dev/dri/card\d+ virtio_gpu Virtual-1 1280x800 turned 180°",
                                  r"display: first frame on the panel", r"camera: \d+ frames in"])
        (shot, width, height, pixel, bright_pixels), turned = screen_until(
            steps, "panel-rotation", lambda pixel, bright_pixels, width, height: [
                ("the readout is at the bottom right, upside down", bright_pixels(width - 236, height - 58, 220, 28) > 100),
                ("the Auto segment of the toggle is at the top left", min(pixel(width - 1 - 1100, height - 1 - 748)) > 220),
                ("bar 2 from the right is yellow", yellow(colour_bars(pixel, width, height)[6])),
                ("bar 7 from the right is blue", blue(colour_bars(pixel, width, height)[1]))])
        require(turned, "the picture is not turned", f"screendump {shot}: bars {colour_bars(pixel, width, height)}, "
                f"{bright_pixels(width - 236, height - 58, 220, 28)} bright pixels in the readout")
    finally:
        # (Its panel let go before the camera starts: the process gone, 5 s at most.)
        steps.run("back to the board's own camera",
                  "pkill -f 'reflex run --board /tmp/board-180'; for i in $(seq 50); do"
                  " pgrep -f 'reflex run --board /tmp/board-18[0]' >/dev/null || break; sleep 0.1; done; systemctl start reflex")
