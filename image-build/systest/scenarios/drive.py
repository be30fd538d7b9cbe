"""Drive modes: the self-timer's countdown, its status LED and its photo; an interval run."""
import os
import re
import shutil
import subprocess

import rig

from ..camera import REFLEX_LOG, RUNNING_LOG, SHOWN_LOG
from ..inputs import KEY_CAMERA, device_node, key_tap
from ..pixels import amber_pixels, screen_until
from ..steps import RESULTS, require, scenario

STATE = "--state-dir /var/lib/reflex"
LIGHT_LOG = "journalctl -b -u reflex-virtual-inputs -o cat --no-pager | grep -E '^status light: (lit|dark)$'"
PHOTOS = REFLEX_LOG + " | grep -o 'photo [0-9]*: frame .*'"
# The countdown's disc, centred on the viewfinder of the 1280x800 panel (CountdownPainter).
COUNTDOWN = (520, 280, 240, 240)


def settings(*pairs):
    """Shell setting the camera's settings as its user, while it is stopped."""
    return " && ".join(f"runuser -u reflex -- reflex settings set {key} {value} {STATE}" for key, value in pairs)


def restart_with(steps, what, *pairs):
    """The camera stopped, `pairs` set, started again and waited for until it shows its picture."""
    steps.run(what, "systemctl stop reflex && " + settings(*pairs) + " && systemctl start reflex")
    steps.wait_until("the camera shows its picture", SHOWN_LOG, limit=90, contains=["display: first frame on the panel"])


def photo_count(steps):
    return len(re.findall(r"photo \d+:", steps.run("photos so far", PHOTOS + "; true")))


def press_for_photos(steps, count, extension, limit):
    """One press of the shutter key and the `count` photos it saves: the count before it, the
    photo thread's lines, and the names of the files with `extension`."""
    before = photo_count(steps)
    steps.run("the shutter key", key_tap(device_node("Reflex Virtual Buttons"), KEY_CAMERA))
    log = steps.wait_until(f"{count} photos are saved", PHOTOS + f" | tail -n +{before + 1}", limit=limit,
                           matches=[rf"(photo \d+: .*\n){{{count - 1}}}photo \d+: .*"])
    return before, log, re.findall(rf"(RFLX\d{{4}})\.{extension}", log)[:count]


def results_folder(name):
    """A fresh folder for what a scenario copies to the host."""
    folder = os.path.join(RESULTS, name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    return folder


def exif_times(path):
    """SubSecDateTimeOriginal of a JPEG on the host, in seconds since the day began."""
    out = subprocess.run(["exiftool", "-s3", "-SubSecDateTimeOriginal", path], capture_output=True, text=True).stdout
    match = re.search(r"(\d+):(\d+):([\d.]+)", out.split(" ", 1)[-1])
    return int(match.group(1)) * 3600 + int(match.group(2)) * 60 + float(match.group(3)) if match else None


@scenario("self-timer", limit=300)
def self_timer(steps):
    """The Self-timer drive at 2 s (issue 37): the board's status LED (an input device's LED,
    a real LED class device: Board/qemu-x86_64/virtual-status-light) is found by its
    pattern; the shutter key starts the countdown, drawn large over the picture
    (screendump); the LED blinks once a second, each change in the journal; the photo is
    saved after the countdown, not at the press. The drive is put back to Single."""
    steps.wait_until("the virtual status light is there", "ls /sys/class/leds", limit=30, matches=[r"input\d+::misc"])
    steps.run("the camera's user may write its brightness",
              "runuser -u reflex -- test -w \"$(ls -d /sys/class/leds/input*::misc | head -1)/brightness\" && echo writable",
              contains=["writable"])
    try:
        restart_with(steps, "the camera stopped; the Self-timer drive at 2 s", ("drive", "self-timer"), ("self-timer", "2s"))
        steps.run("the camera opened the status light", RUNNING_LOG + " | grep 'status light'",
                  matches=[r"status light input\d+::misc: the self-timer blinks it"])
        before, blinks = photo_count(steps), len(steps.run("blinks so far", LIGHT_LOG + " | grep lit; true").splitlines())
        buttons = device_node("Reflex Virtual Buttons")
        steps.run("the shutter key", key_tap(buttons, KEY_CAMERA))
        (shot, width, height, pixel, bright_pixels), shown = screen_until(
            steps, "self-timer-countdown", lambda pixel, bright_pixels, *_: [
                ("the countdown's amber ring in the middle of the picture", amber_pixels(pixel, *COUNTDOWN) > 40)],
            limit=10)
        require(shown, "no countdown on the panel", f"screendump {shot}: {amber_pixels(pixel, *COUNTDOWN)} amber pixels")
        steps.wait_until("the photo is saved after the countdown", PHOTOS + f" | sed -n '{before + 1}p'", limit=60,
                         matches=[r"photo \d+: frame \d+"])
        steps.wait_until("the LED blinked once a second (lit, then dark, twice)", LIGHT_LOG + f" | tail -n +{blinks * 2 + 1}",
                         limit=10, matches=[r"lit\n.*dark\n.*lit\n.*dark"])
        light = steps.run("the LED's changes, with their times",
                          "journalctl -b -u reflex-virtual-inputs -o short-monotonic --no-pager | grep 'status light: lit$' | tail -2")
        times = [float(t) for t in re.findall(r"^\[\s*([\d.]+)\]", light, re.M)]
        # (The helper's wake-up and the journal's stamp on an emulated machine: a few tenths.)
        require([("the two blinks about a second apart", len(times) == 2 and 0.5 < times[1] - times[0] < 1.5)],
                 "the LED did not blink once a second", light)
        steps.run("one photo, not a burst", PHOTOS + f" | tail -n +{before + 2} | wc -l", matches=[r"^0$"])
    finally:
        restart_with(steps, "the drive put back to Single", ("drive", "single"))


@scenario("interval", limit=300)
def interval(steps):
    """The Interval drive at 2 s for 5 photos (issue 37): one press of the shutter key, five
    JPEGs on the card, their EXIF times 2 s apart (read on the host by exiftool: each photo
    is stamped with its planned moment), and the run ends by itself; then the camera makes
    its timelapse, a 1080p H.264 MP4 at 30 fps of five frames (ffprobe on the host). The
    drive is put back to Single."""
    try:
        restart_with(steps, "the camera stopped; the Interval drive, 2 s, 5 photos", ("format", "jpeg"),
                     ("drive", "interval"), ("interval", "2s"), ("interval-count", "5"), ("interval-delay", "0s"))
        before, log, names = press_for_photos(steps, 5, "JPG", limit=90)
        require([("five JPEGs", len(names) == 5)], "the run did not save five photos", log)
        steps.run("no sixth: the run ended at its count", "sleep 5; " + PHOTOS + f" | tail -n +{before + 6} | wc -l",
                  matches=[r"^0$"], timeout=20)
        steps.run("the card's writes are on the disk", "sync /media/card/DCIM/100REFLX/*")
        folder = results_folder("interval-card")
        times = [exif_times(rig.copy_from_card(steps.machine.card, f"::DCIM/100REFLX/{name}.JPG",
                                               os.path.join(folder, name + ".JPG"))) for name in names]
        gaps = [b - a for a, b in zip(times, times[1:])] if None not in times else []
        require([("every photo carries its time", None not in times),
                 ("each 2 s after the one before", len(gaps) == 4 and all(1.95 < g < 2.05 for g in gaps))],
                "the photos are not 2 s apart", f"names {names}, times {times}, gaps {gaps}")
        # The run's timelapse (30 fps, the default), made on the camera once the run ended.
        made = steps.wait_until("the run's timelapse is made", REFLEX_LOG + " | grep 'timelapse: run'", limit=120,
                                matches=[r"timelapse: run \d+: 5 photos → \S+/(RFLX\d{4})\.MP4 at 30 fps"])
        movie_name = re.findall(r"(RFLX\d{4})\.MP4 at 30 fps", made)[-1]
        steps.run("the movie's writes are on the disk", f"sync /media/card/DCIM/100REFLX/{movie_name}.MP4")
        movie = rig.copy_from_card(steps.machine.card, f"::DCIM/100REFLX/{movie_name}.MP4", os.path.join(folder, movie_name + ".MP4"))
        probe = subprocess.run(["ffprobe", "-v", "error", "-select_streams", "v:0", "-count_frames", "-show_entries",
                                "stream=codec_name,width,height,r_frame_rate,nb_read_frames", "-of", "csv=p=0", movie],
                               capture_output=True, text=True).stdout.strip()
        require([("an H.264 movie of 1080p, 30 fps, one frame a photo", probe == "h264,1920,1080,30/1,5")],
                "the timelapse is not the run's five photos at 30 fps", f"ffprobe: {probe}")
    finally:
        restart_with(steps, "the drive put back to Single", ("drive", "single"))


def exif_exposure(path):
    """ExposureTime × ISO, ExposureMode and ExposureCompensation of a photo on the host."""
    out = subprocess.run(["exiftool", "-n", "-s3", "-ExposureTime", "-ISO", "-ExposureMode", "-ExposureCompensation", path],
                         capture_output=True, text=True).stdout.split()
    if len(out) != 4:
        return None
    return float(out[0]) * float(out[1]), out[2], float(out[3])


@scenario("bracket", limit=300)
def bracket(steps):
    """The Bracketing drive, 3 frames a stop apart, in RAW (issue 37). The QEMU board's vivid
    has a gain control and no exposure time, and its stills come from a switch to the still
    mode (`stills = switch`): each of the bracket's frames is a still of its own, switched to
    at its exposure, made by the gain. In Pro at ISO 400 (so a stop under is within vivid's
    gain), one press of the shutter key saves three DNGs; on the host exiftool reads
    ExposureMode "Auto bracket", compensations 0, -1, +1 and three exposures (time × ISO) a
    stop apart. The settings are put back."""
    format_before = re.search(r"^format = (\S+)", steps.run("the format before", f"reflex settings {STATE}"), re.M)
    try:
        restart_with(steps, "the camera stopped; Pro at ISO 400, RAW, the Bracketing drive, 3 frames ±1 EV",
                     ("mode", "pro"), ("iso", "400"), ("format", "raw"), ("drive", "bracketing"),
                     ("bracket-frames", "3"), ("bracket-step", "1"))
        _, log, names = press_for_photos(steps, 3, "DNG", limit=120)
        require([("three DNGs", len(names) == 3)], "the bracket did not save three DNGs", log)
        steps.run("the camera took the whole bracket as asked", REFLEX_LOG + " | grep 'bracket of 3'",
                  matches=[r"bracket of 3 at ±1 EV, 3 taken$"])
        steps.run("the card's writes are on the disk", "sync /media/card/DCIM/100REFLX/*")
        folder = results_folder("bracket-card")
        read = [exif_exposure(rig.copy_from_card(steps.machine.card, f"::DCIM/100REFLX/{name}.DNG",
                                                 os.path.join(folder, name + ".DNG"))) for name in names]
        products = [r[0] for r in read if r]
        require([("exiftool reads each DNG", len(products) == 3),
                 ("ExposureMode: auto bracket (2)", all(r and r[1] == "2" for r in read)),
                 ("compensations 0, -1, +1", [r[2] for r in read if r] == [0, -1, 1]),
                 ("a stop under and a stop over the base", len(products) == 3
                  and abs(products[1] / products[0] - 0.5) < 0.05 and abs(products[2] / products[0] - 2) < 0.2)],
                "the DNGs do not carry the bracket's exposures", f"names {names}, exiftool {read}")
    finally:
        restart_with(steps, "the settings put back", ("drive", "single"), ("iso", "auto"), ("mode", "auto"),
                     ("format", format_before.group(1) if format_before else "jpeg"))
