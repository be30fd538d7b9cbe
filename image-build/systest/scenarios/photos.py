"""Photos: the shutter key, the on-screen button and `reflex capture`, each a DNG and a JPEG
that the host reads."""
import os
import re
import shutil
import subprocess

import rig

from ..camera import CAMERA_TAKES_REQUESTS, REFLEX_LOG, SHOWN_LOG, fresh_camera
from ..inputs import KEY_CAMERA, device_node, key_tap, touch_tap
from ..pixels import amber_pixels, screen_until
from ..steps import RESULTS, indent, require, scenario


@scenario("capture", limit=300)
def capture(steps):
    """Photos: two taps on the format badge choose RAW+JPEG (shown on the panel); the shutter
    key (a uinput KEY_CAMERA) and a tap on the on-screen shutter button each save a DNG and a
    JPEG of vivid's Bayer stream onto the card, at the board's still size (vivid switched from
    its 640x360 preview mode to 1280x720 for each, the lag logged); `reflex capture` in the
    guest, while the camera runs, asks it for a shot; on the host, LibRaw reads each DNG with
    that size and vivid's CFA, and jpeginfo checks each JPEG."""
    # JPEG, which two taps make RAW+JPEG: controls, before it, changes the format and puts
    # JPEG back only if it passes.
    fresh_camera(steps)
    fmt = "runuser -u reflex -- reflex settings get format --state-dir /var/lib/reflex"
    steps.wait_until("the camera shows its picture", SHOWN_LOG, limit=30,
                     contains=["display: first frame on the panel"])
    steps.run("the card starts empty of photos", "rm -rf /media/card/DCIM; ls /media/card")
    # (Numbers go on from the camera's counter: the board-inputs scenario's shutter key took one.)
    photos = REFLEX_LOG + " | grep -o 'photo [0-9]*: frame .*'"
    before = len(re.findall(r"photo \d+:", steps.run("photos so far", photos + "; true")))
    steps.run("two taps on the format badge", touch_tap(1200, 32) + "; sleep 1; " + touch_tap(1200, 32))
    steps.wait_until("RAW+JPEG is saved", fmt, limit=10, matches=[r"^raw\+jpeg$"])
    (shot, width, height, pixel, bright_pixels), shown = screen_until(
        steps, "capture-format", lambda pixel, bright_pixels, *_: [
            ("the badge's wider text (RAW+JPEG) is written", bright_pixels(1100, 16, 170, 32) > 150)])
    require(shown, "the format badge did not change",
            f"screendump {shot}: {bright_pixels(1100, 16, 170, 32)} bright pixels in the badge")
    buttons = device_node("Reflex Virtual Buttons")
    # (A switch to the still mode makes each photo a few preview frames late, said in the log.)
    pair = r"photo \d+: frame \d+(?:, \d+ frame\(s\) after the press)? → (RFLX\d{4}).DNG \+ \1.JPG"
    names = []
    for what, action, count in [
            ("the shutter key, pressed and let go",
             key_tap(buttons, KEY_CAMERA), before + 1),
            ("a tap on the on-screen shutter button", touch_tap(1172, 400), before + 2)]:
        steps.run(what, action)
        log = steps.wait_until("its photo is saved as a DNG and JPEG pair", photos + f" | sed -n '{count}p'", limit=60,
                               matches=[pair])
        names.append(re.search(pair, log).group(1))
    (shot, width, height, pixel, bright_pixels), shown = screen_until(steps, "capture-thumbnail", lambda pixel, *_: [
        ("the last photo's thumbnail is below the button (vivid's bars, not the picture's black)",
         max(pixel(1180, 530)) > 60)])
    require(shown, "no thumbnail", f"screendump {shot}: {pixel(1180, 530)} where the thumbnail is")
    asked = steps.run("reflex capture asks the running camera", "reflex capture --state-dir /var/lib/reflex --format jpeg",
                      matches=[r"/media/card/DCIM/100REFLX/RFLX\d{4}.JPG"], timeout=90)
    last = re.search(r"(RFLX\d{4}).JPG", asked).group(1)
    steps.run("each photo came from the board's still mode, its lag in the log", REFLEX_LOG + " | grep 'still mode' | tail -3",
              matches=[r"still mode 1280x720, its frame in hand \d+ ms after the press \(stamped -?\d+ ms\); the preview back \d+ ms after it"])
    steps.run("and the preview streams its own mode again", REFLEX_LOG + " | tail -5", excludes=["camera lost"])
    steps.run("the card holds the three photos", "ls -a /media/card/DCIM/100REFLX",
              contains=[f"{n}.{e}" for n in names for e in ("DNG", "JPG")] + [last + ".JPG"],
              excludes=[last + ".DNG", ".tmp-"])
    folder = os.path.join(RESULTS, "capture-card")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    steps.run("the card's writes are on the disk", "sync /media/card/DCIM/100REFLX/*")
    for name in names:
        dng = os.path.join(folder, name + ".DNG")
        for extension in ("DNG", "JPG"):
            rig.copy_from_card(steps.machine.card, f"::DCIM/100REFLX/{name}.{extension}", dng[:-3] + extension)
        identify = subprocess.run(["raw-identify", "-v", dng], capture_output=True, text=True).stdout
        checks = [("LibRaw reads the DNG", "Unsupported" not in identify
                   and re.search(r"Image size:\s+1280 x 720", identify) is not None),
                  ("as a Bayer image", re.search(r"Filter pattern: (RGGB|GRBG|GBRG|BGGR)", identify) is not None)]
        require(checks, f"the host cannot read {dng}", indent(identify, 1500))
        jpeg = subprocess.run(["jpeginfo", "-c", dng[:-3] + "JPG"], capture_output=True, text=True)
        require([("jpeginfo finds the JPEG whole", jpeg.returncode == 0 and " OK" in jpeg.stdout and "ERROR" not in jpeg.stdout)],
                "a broken JPEG", jpeg.stdout + jpeg.stderr)
    # (The formats go round: JPEG, RAW, RAW+JPEG, JPEG.)
    steps.run("a third tap on the format badge: back to JPEG for the other scenarios", touch_tap(1200, 32))
    steps.wait_until("JPEG is saved", fmt, limit=10, matches=[r"^jpeg$"])


ENHANCED_DROP_IN = "/run/systemd/system/reflex.service.d/enhanced.conf"


@scenario("enhanced-raw", limit=300)
def enhanced_raw(steps):
    """Enhanced RAW (issue 33) on a board whose stills are the stream's frames (the QEMU
    board's own switches vivid's mode for each still, so the board is copied without its
    still mode): three taps on the format badge choose it, shown on the panel in the accent;
    the shutter key takes the press's frame and the ring's others, merged on the photo thread
    into one DNG (the log says how many), which LibRaw reads on the host, lossless JPEG
    (compression 7) with the frames merged in its XMP (exiftool). The board and JPEG are put
    back."""
    state = "--state-dir /var/lib/reflex"
    fmt = f"runuser -u reflex -- reflex settings get format {state}"
    board = ("rm -rf /etc/reflex/enhanced-board && cp -rL /etc/reflex/board /etc/reflex/enhanced-board && "
             "sed -i '/^still-size/d; /^stills/d' /etc/reflex/enhanced-board/sensor.conf && "
             "grep -c '^still' /etc/reflex/enhanced-board/sensor.conf; true")
    try:
        steps.run("the board's stills taken from the stream", board, matches=[r"\A0\s*\Z"])
        steps.run("the camera started on that board, JPEG",
                  f"systemctl stop reflex && runuser -u reflex -- reflex settings set format jpeg {state} && "
                  f"mkdir -p {os.path.dirname(ENHANCED_DROP_IN)} && "
                  f"printf '[Service]\\nEnvironment=REFLEX_BOARD_DIR=/etc/reflex/enhanced-board\\n' > {ENHANCED_DROP_IN} && "
                  "systemctl daemon-reload && journalctl -b -u reflex -o cat --no-pager | wc -l > /tmp/mark && "
                  "systemctl start reflex")
        since_mark = REFLEX_LOG + " | tail -n +$(( $(cat /tmp/mark) + 1 ))"
        steps.wait_until("the camera shows its picture", since_mark, limit=90, contains=["display: first frame on the panel"])
        for tap, wanted in [(1, "raw"), (2, r"raw\+jpeg"), (3, "enhanced-raw")]:
            steps.run(f"tap {tap} on the format badge", touch_tap(1200, 32))
            steps.wait_until(f"the format is {wanted}", fmt, limit=10, matches=[rf"^{wanted}$"])
        (shot, width, height, pixel, bright_pixels), shown = screen_until(
            steps, "enhanced-raw-indicator", lambda pixel, *_: [
                ("ENHANCED RAW is written on the accent", amber_pixels(pixel, 1120, 18, 140, 28) > 200)])
        require(shown, "no Enhanced RAW indicator", f"screendump {shot}: {amber_pixels(pixel, 1120, 18, 140, 28)} amber pixels")
        # (Two seconds of frames in the ring first: at the board's 5 fps it holds a few.)
        steps.run("the shutter key", "sleep 2; " + key_tap(device_node("Reflex Virtual Buttons"), KEY_CAMERA))
        merged = r"photo \d+: frame \d+(?:, \d+ frame\(s\) after the press)? \((\d+) frames merged\) → (RFLX\d{4})\.DNG\b"
        log = steps.wait_until("its frames merged into one DNG", since_mark + " | grep -o 'photo [0-9]*: frame .*'", limit=120,
                               matches=[merged])
        frames, name = re.search(merged, log).groups()
        require([("several frames merged", int(frames) >= 2)], "a merge of one frame", log)
        steps.run("the DNG alone on the card", f"sync /media/card/DCIM/100REFLX/{name}.DNG; ls /media/card/DCIM/100REFLX",
                  contains=[name + ".DNG"], excludes=[name + ".JPG", ".tmp-"])
        folder = os.path.join(RESULTS, "enhanced-raw-card")
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        dng = rig.copy_from_card(steps.machine.card, f"::DCIM/100REFLX/{name}.DNG", os.path.join(folder, name + ".DNG"))
        identify = subprocess.run(["raw-identify", "-v", dng], capture_output=True, text=True).stdout
        tags = subprocess.run(["exiftool", "-a", "-G1", "-n", "-s", "-SubIFD:Compression", "-XMP-reflex:FramesMerged", dng],
                              capture_output=True, text=True).stdout
        require([("LibRaw reads the DNG at the stream's size", "Unsupported" not in identify
                  and re.search(r"Image size:\s+640 x 360", identify) is not None),
                 ("as lossless JPEG", re.search(r"Compression\s*:\s*7\b", tags) is not None),
                 ("with the frames merged in its XMP", re.search(rf"FramesMerged\s*:\s*{frames}\b", tags) is not None)],
                f"the host does not read {dng} as an Enhanced RAW", indent(identify, 800) + "\n" + tags)
        print(f"    {name}.DNG: {frames} frames merged, {os.path.getsize(dng)} bytes")
    finally:
        steps.run("the board and JPEG as they were",
                  f"systemctl stop reflex; rm -f {ENHANCED_DROP_IN}; systemctl daemon-reload; rm -rf /etc/reflex/enhanced-board; "
                  f"runuser -u reflex -- reflex settings set format jpeg {state}; systemctl start reflex",
                  expect_status=None, timeout=60)
        # (The next scenario asks the running camera for photos at once: asked before its
        # socket was there, `reflex capture` found no camera and waited its whole patience.)
        steps.wait_until("the camera takes requests again", CAMERA_TAKES_REQUESTS, limit=90, contains=["ready"])
