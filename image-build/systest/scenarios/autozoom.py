"""Auto-zoom: the camera on real footage through the file sensor, AUTO ZOOM turned on from the
panel, the zoom rising as it frames the one person moving (not the larger one standing still),
and a movie framed as the viewfinder was."""
import os
import re
import shutil
import subprocess
import time

import rig

from ..camera import REFLEX_LOG
from ..inputs import KEY_RECORD, device_node, key_tap, touch_tap
from ..pixels import screen_until
from ..steps import RESULTS, require, scenario

# The AUTO ZOOM button on the QEMU board's 1280x800 panel: under the quick menu's (ScreenLayout).
AUTO_ZOOM_BUTTON = (48, 184)
# The HUD's fifth column (x, y, width, height): empty at zoom 1; with a zoom its label comes in
# before WB, and WB's value moves here.
ZOOM_COLUMN = (480, 30, 100, 28)
LOG = "/tmp/autozoom.log"
MOVIE_SAVED = r"movie (RFLX\d{4}): ([\d.]+) s, (\d+) frames"


# The pair course's scenery and people at zoom 1 (SkierClip), in fractions of the frame: the
# green signboard's left, top, width and height; where the skier walks to and fro (centre
# across, 0.55 to 0.72, a third of the frame high); the centre of the person standing still.
BOARD = (0.36, 0.3, 0.1, 0.48)
SKIER_PATH = (0.55, 0.72)
STILL_X = 0.18
# A summary's subject on the skier's path (its centre across 0.45-0.89), not the still person.
SUBJECT_ON_PATH = r"subject #\d+ (\(tentative\) )?at \(0\.(4[5-9]|[5-8]\d),"


def pieces(cells, reach=2):
    """The connected pieces of a set of grid cells (cells `reach` apart belong together)."""
    seen = set()
    for cell in cells:
        if cell in seen:
            continue
        piece, todo = [], [cell]
        seen.add(cell)
        while todo:
            x, y = todo.pop()
            piece.append((x, y))
            for dx in range(-reach, reach + 1):
                for dy in range(-reach, reach + 1):
                    near = (x + dx, y + dy)
                    if near in cells and near not in seen:
                        seen.add(near)
                        todo.append(near)
        yield piece


def movie_framing(rgb, width, height, step=2):
    """How a movie frame of the pair course was framed, from its scenery: the signboard (the
    largest dark green piece: the spruces are smaller) gives the zoom (its height against zoom
    1's: its left edge may be cropped) and, by its right edge, where the crop's centre is in
    the zoom-1 picture, whatever the camera's colours. None without the board."""
    cells = set()
    for y in range(0, height, step):
        row = y * width * 3
        for x in range(0, width, step):
            r, g, b = rgb[row + 3 * x], rgb[row + 3 * x + 1], rgb[row + 3 * x + 2]
            if g > r + 15 and g >= b and max(r, g, b) < 140:
                cells.add((x // step, y // step))
    board = max(pieces(cells), key=len, default=[])
    if len(board) < 50:
        return None
    top = min(y for _, y in board) * step / height
    bottom = (max(y for _, y in board) + 1) * step / height
    right = (max(x for x, _ in board) + 1) * step / width
    zoom = (bottom - top) / BOARD[3]
    crop_left = BOARD[0] + BOARD[2] - right / zoom
    return zoom, crop_left + 0.5 / zoom


def make_skier_clip(steps, course="pair"):
    """The skier clip of `course` in the guest's /tmp/skier: made on the host by this commit's own release
    reflex (the image's build left it) and shared with the guest, or, without one, made in
    the guest, which the emulator takes minutes over."""
    host_reflex = os.path.join(rig.REPO, ".build-image", "release", "reflex")
    if os.access(host_reflex, os.X_OK):
        clip = os.path.join(rig.host_share(steps.machine.workdir), "skier")
        shutil.rmtree(clip, ignore_errors=True)
        started = time.monotonic()
        made = subprocess.run([host_reflex, "bench", "track", "--make-clip", clip, "--course", course,
                               "--testdata", rig.TESTDATA], capture_output=True, text=True)
        steps.note_time(started, "the skier clip made on the host (reflex bench track --make-clip)")
        require([("the clip is made", made.returncode == 0)], "the skier clip on the host", made.stdout + made.stderr)
        steps.run("the skier clip in the guest",
                  "mkdir -p /mnt/host && (mountpoint -q /mnt/host || mount -t 9p -o trans=virtio,ro fromhost /mnt/host)"
                  " && rm -rf /tmp/skier && cp -r /mnt/host/skier /tmp/skier && chmod -R a+rX /tmp/skier && ls -l /tmp/skier",
                  contains=["skier.mp4", "skier.csv"], timeout=120)
    else:
        steps.run("the skier clip made in the guest (reflex bench track --make-clip)",
                  f"rm -rf /tmp/skier && reflex bench track --make-clip /tmp/skier --course {course} --testdata /mnt/testdata"
                  " && chmod -R a+rX /tmp/skier && ls -l /tmp/skier", contains=["skier.mp4", "skier.csv"], timeout=400)


@scenario("auto-zoom", limit=600)
def auto_zoom(steps):
    """Auto-zoom (issues 32 and 52): the skier clip's pair course (`reflex bench track
    --make-clip --course pair`: the skier walking slowly to and fro beside a larger person
    standing still) played by the file sensor under the board's own panel and inputs; a tap on
    AUTO ZOOM turns it on (the button turns white); the camera finds both with the packaged
    person detector, follows the one moving (the analysis's summary puts its subject on the
    skier's path, not on the still person the size alone would choose) and the zoom rises (in
    the log, and its label comes on the HUD); a recording made meanwhile plays on the host
    framed on the skier's path, zoomed in. (Under TCG a detection takes seconds, tens of them
    on a slow host: the walk is slow enough for detections that far apart to see it move, and
    the waits last while the analysis reports progress. Following a fast skier frame by frame
    is SkierFramingTests' to hold, on the slope course with its truth.)"""
    machine = steps.machine
    folder = os.path.join(RESULTS, "auto-zoom")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    steps.run("the test data in the guest",
              "mkdir -p /mnt/testdata && (mountpoint -q /mnt/testdata || mount -t 9p -o trans=virtio,ro testdata /mnt/testdata)"
              " && ls /mnt/testdata/people", contains=["vtest-0100-6s.mp4"])
    make_skier_clip(steps)
    steps.run("the packaged person detector", "ls -l /usr/share/reflex/models", contains=["ssdlite-mobilenet-v2-persons.pb"])
    try:
        steps.run("the camera on the file sensor", "systemctl stop reflex && mkdir -p /tmp/az-state && chown reflex /tmp/az-state"
                  f" && (runuser -u reflex -- reflex run --sensor file:/tmp/skier/skier.mp4 --state-dir /tmp/az-state >{LOG} 2>&1 &)")
        steps.wait_until("it shows the clip and has its detector", f"cat {LOG}", limit=120,
                         matches=[r"auto-zoom: person detector /usr/share/reflex/models/\S+ ready",
                                  r"display: first frame on the panel"])
        white = lambda pixel: min(pixel(*AUTO_ZOOM_BUTTON)) > 200
        steps.run("a tap on AUTO ZOOM", touch_tap(*AUTO_ZOOM_BUTTON))
        (shot, width, height, pixel, bright_pixels), shown = screen_until(steps, "auto-zoom-on", lambda pixel, bright_pixels, *_: [
            ("the AUTO ZOOM button is on (white)", white(pixel)),
            ("no zoom on the HUD yet", bright_pixels(*ZOOM_COLUMN) < 20)], limit=30)
        require(shown, "AUTO ZOOM did not turn on", f"screendump {shot}: the button's pixel {pixel(*AUTO_ZOOM_BUTTON)}")
        # (Its last lines are the evidence when it does not: what the camera and the analysis said.)
        # (Under TCG a detection takes tens of seconds, more on a slow host, and the subject is
        # confirmed at the second. The wait lasts while the analysis's summaries keep coming:
        # one a detection when a detection takes longer than their interval.)
        # (The last summary: the subject must be the one moving now, not once. The still person
        # may be chosen first, until the skier is seen to move.)
        # (Not the camera line's zoom: that is the centred zoom the sensor crops to, which holds
        # a crop framed near the picture's edge only at 1×, where the skier's path ends.)
        steps.wait_while_progressing("the moving skier is the subject",
                                     f"echo summaries $(grep -c 'analysis: ' {LOG}); grep 'analysis: ' {LOG} | tail -1",
                                     progress=r"^summaries (\d+)", stall=240, matches=[SUBJECT_ON_PATH])
        # Where the guest's CPU went (each thread's seconds since the start, from /proc: top's
        # row for the main thread is the whole process's): the evidence for how a slow machine
        # shares it out between the picture, the sensor and the analysis.
        threads = steps.run("the camera's threads, by CPU time",
                            "for task in /proc/$(pidof reflex)/task/*; do"
                            " echo \"$(cat $task/comm) $(awk '{print ($14 + $15) / 100}' $task/stat)\"; done | sort -k2 -nr",
                            contains=["reflex-analysis"])
        with open(os.path.join(folder, "threads.txt"), "w") as evidence:
            evidence.write(threads)
        # The zoom rises: its label on the HUD, as the zoom keys bring it. (The zoom moves a
        # tenth of a second's worth each frame the loop draws, a few a second under TCG.)
        (shot, width, height, pixel, bright_pixels), labelled = screen_until(
            steps, "auto-zoom-framing", lambda pixel, bright_pixels, *_: [
                ("the zoom shows on the HUD", bright_pixels(*ZOOM_COLUMN) > 50)], limit=90)
        require(labelled, "no zoom label on the screen", f"screendump {shot}: {bright_pixels(*ZOOM_COLUMN)} bright pixels "
                "in the HUD's fifth column")

        # A recording while auto-zoom frames the skier: the movie is framed as the viewfinder.
        buttons = device_node("Reflex Virtual Buttons")
        saved = f"grep -E 'movie RFLX[0-9]{{4}}: [0-9.]+ s, [0-9]+ frames' {LOG}"
        steps.run("the record key", key_tap(buttons, KEY_RECORD))
        steps.wait_until("a recording starts", f"grep 'recording,' {LOG} | tail -1", limit=30,
                         matches=[r"movie RFLX\d{4}: recording"])
        time.sleep(10)
        steps.run("the record key again", key_tap(buttons, KEY_RECORD))
        log = steps.wait_until("the movie is finished", saved + " | tail -1", limit=120, matches=[MOVIE_SAVED])
        name = re.findall(MOVIE_SAVED, log)[-1][0]
        steps.run("the card's writes are on the disk", "sync /media/card/DCIM/100REFLX/*")
        local = rig.copy_from_card(machine.card, f"::DCIM/100REFLX/{name}.MP4", os.path.join(folder, name + ".MP4"))
    finally:
        # The camera's log beside the screenshots: what the analysis did, pass or fail.
        try:
            with open(os.path.join(folder, "reflex.log"), "w") as saved_log:
                saved_log.write(machine.run(f"cat {LOG}", timeout=30)[1])
        except rig.RigError as error:
            print(f"    the camera's log could not be read: {error}")
        steps.run("back to the board's own camera",
                  "pkill -f 'reflex run --sensor file:'; for i in $(seq 50); do"
                  " pgrep -f 'reflex run --sensor fil[e]:' >/dev/null || break; sleep 0.1; done; systemctl start reflex")

    # On the host: frames a second apart, and how each was framed. Medium framing puts the
    # skier half the picture high (zoom 1.67) about the middle; at zoom 1 they are 0.3 high on
    # their path, the still person at 0.18.
    width, height = 640, 360
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", local, "-vf", f"fps=1,scale={width}:{height}", "-f", "rawvideo",
                          "-pix_fmt", "rgb24", "-"], capture_output=True).stdout
    frames = [raw[i:i + width * height * 3] for i in range(0, len(raw) - width * height * 3 + 1, width * height * 3)]
    framings = [movie_framing(frame, width, height) for frame in frames]
    # (The crop's centre within a skier's width of the path: the framing leads and lags them.)
    framed = [f for f in framings if f and f[0] >= 1.2 and SKIER_PATH[0] - 0.08 <= f[1] <= SKIER_PATH[1] + 0.08]
    summary = ", ".join("no board" if f is None else f"{f[0]:.2f}× (centre {f[1]:.2f})" for f in framings)
    print(f"    {name}.MP4, frames a second apart: zoom (the crop's centre across at zoom 1): {summary}; "
          f"{len(framed)} of {len(frames)} framed on the skier's path (zoom ≥ 1.2, centre "
          f"{SKIER_PATH[0] - 0.08:.2f}-{SKIER_PATH[1] + 0.08:.2f}; the still person is at {STILL_X})")
    require([("frames decoded", len(frames) >= 5),
             ("the skier framed in most of them", len(framed) >= 0.6 * len(frames))],
            "the movie on the host", f"{local}: {summary}")
