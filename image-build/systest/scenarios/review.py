"""Review's card actions on the board's real FAT card: delete and protect, and a delete a cut
left half done finished by the card's check; review on the panel, by the board's keys; a movie
played with its sound; a power cut as review deletes on the panel."""
import math
import os
import re
import shutil
import struct

import rig

from ..camera import CAMERA_TAKES_REQUESTS, REFLEX_LOG, wait_for_card
from ..inputs import device_node, key_tap, touch_swipe
from ..pixels import amber_pixels, screen_until, screendump, viewfinder_lit
from ..steps import RESULTS, require, scenario
from .power import after_cut, card_state, reinsert_card

CAPTURE = "reflex capture --state-dir /var/lib/reflex --format raw+jpeg"
FOLDER = "/media/card/DCIM/100REFLX"


@scenario("review-delete", limit=240)
def review_delete(steps):
    """Two RAW+JPEG photos from the running camera; `reflex review --list` shows each pair as
    one item; a protected one (FAT's read-only attribute) is refused by delete; the other is
    deleted, both its files. Then what a cut leaves when it falls inside a delete: one file of
    the pair marked (hidden and system attributes, set by hand: a cut seldom falls in those
    milliseconds), the other still shown; the card taken out and put back, Reflex's check
    removes both. On the host, mtools sees neither pair and fsck.vfat -n finds nothing."""
    names = []
    steps.wait_until("the camera takes requests", CAMERA_TAKES_REQUESTS, limit=90, contains=["ready"])
    for _ in range(2):
        # (The photo thread may still be merging the last scenario's Enhanced RAW: on a host busy
        # with other work that took over 90 s once. A bound for a hang, not a figure.)
        taken = steps.run("a RAW+JPEG photo, asked of the running camera", CAPTURE,
                          matches=[r"/media/card/DCIM/100REFLX/RFLX\d{4}\.(DNG|JPG)"], timeout=300)
        names.append(re.search(r"(RFLX\d{4})\.", taken).group(1))
    first, second = ("100REFLX/" + name for name in names)
    steps.run("review lists each pair as one item", "reflex review --list -o /media/card",
              matches=[rf"^{second}  RAW\+JPEG  .*  {names[1]}.DNG {names[1]}.JPG$",
                       rf"^{first}  RAW\+JPEG  .*  {names[0]}.DNG {names[0]}.JPG$"])
    steps.run("the first protected", f"reflex review --protect {first} -o /media/card", contains=[f"protected {first}"])
    steps.run("FAT's read-only attribute on both its files", f"ls -l {FOLDER}/{names[0]}.*",
              matches=[rf"^-r-.r-.r-. .* {FOLDER}/{names[0]}\.DNG$", rf"^-r-.r-.r-. .* {FOLDER}/{names[0]}\.JPG$"])
    steps.run("delete refuses it", f"reflex review --delete {first} -o /media/card; echo status $?",
              contains=["is protected", "status 1"])
    steps.run("the second deleted", f"reflex review --delete {second} -o /media/card",
              contains=[f"deleted {second}: {names[1]}.DNG {names[1]}.JPG"])
    steps.run("both its files are gone", f"ls -a {FOLDER}", contains=[names[0] + ".DNG"], excludes=[names[1]])
    steps.run("the first unprotected", f"reflex review --unprotect {first} -o /media/card", contains=["unprotected"])
    steps.run("a delete cut after marking the JPEG alone (hidden and system attributes)",
              f"cd {FOLDER} && python3 -c \"import fcntl, os, struct; f = os.open('{names[0]}.JPG', os.O_RDONLY);"
              " fcntl.ioctl(f, 0x40047211, struct.pack('I', 0x26)); os.fsync(f); os.close(f)\" && sync")
    reinsert_card(steps, "Reflex's check finished the delete: both files", "removed 2 unfinished file(s)")
    steps.run("neither pair is left", f"ls -a {FOLDER}", excludes=[names[0], names[1]])
    steps.run("the card unmounted for a look from the host", "systemctl stop reflex-card; ! mountpoint -q /media/card")
    try:
        visible, hidden, fsck = card_state(steps.machine.card)
        require([("mtools sees neither pair", not any(n in name for n in names for name in visible + hidden)),
                  ("fsck.vfat -n finds nothing to fix", fsck.returncode == 0)],
                 "the card is not clean after the delete", f"{visible} {hidden}\n{fsck.stdout}{fsck.stderr}")
    finally:
        steps.run("the card back for the scenarios after", "systemctl start reflex-card; mountpoint /media/card",
                  contains=["is a mountpoint"])


KEY_PLAY, KEY_DELETE, KEY_RIGHT, KEY_ENTER, KEY_CAMERA_FOCUS, KEY_ZOOMOUT = 207, 111, 106, 28, 0x210, 0x1A3
# A point of review's button bar between Back and Info (ReviewLayout at 1.00x): the picture
# under the bar's dark surface in review, the viewfinder's own picture outside it.
BAR_POINT = (400, 756)


@scenario("review-play", limit=240)
def review_play(steps):
    """Review on the panel: two JPEGs taken by the running camera; the board's play key (a
    uinput KEY_PLAY) opens review, whose thread logs the newest item shown and how long it took,
    and the panel shows the photo under review's bars; a swipe on the touchscreen brings the
    photo before (another number in the top bar), one back the newest; the zoom-out key shows
    the index (the highlight's amber frame on the newest cell) and Enter the photo alone again;
    the delete key asks, the right arrow moves to Delete and Enter answers: both the log and the
    card say the photo is gone. A half press of the shutter gives the viewfinder back."""
    buttons = device_node("Reflex Virtual Buttons")
    # Two JPEGs: the newest is shown first, a swipe brings the one before.
    for _ in range(2):
        taken = steps.run("a JPEG, asked of the running camera", "reflex capture --state-dir /var/lib/reflex --format jpeg",
                          matches=[r"/media/card/DCIM/100REFLX/RFLX\d{4}\.JPG"], timeout=90)
    name = re.search(r"(RFLX\d{4})\.JPG", taken).group(1)
    live = screendump(steps, "review-live")[3](*BAR_POINT)
    steps.run("the play key", key_tap(buttons, KEY_PLAY))
    steps.wait_until("review's thread shows the newest photo", REFLEX_LOG + " | grep 'review: ' | tail -1", limit=30,
                     matches=[rf"item\(s\) on the card; 100REFLX/{name} \(JPEG\) shown after \d+ ms"])
    (shot, width, height, pixel, bright_pixels), shown = screen_until(steps, "review-open", lambda pixel, *_: [
        ("review's bar darkens the picture under it", sum(pixel(*BAR_POINT)) < sum(live) - 90),
        ("the photo fills the screen (not black)", viewfinder_lit(pixel))])
    require(shown, "review is not on the panel", f"screendump {shot}: {pixel(*BAR_POINT)} under the bar, live {live}")
    number = [pixel(x, y) for x in range(16, 150, 2) for y in range(12, 44, 2)]
    steps.run("a swipe to the left", touch_swipe(900, 300, 400))
    (shot, width, height, pixel, bright_pixels), swiped = screen_until(steps, "review-swiped", lambda pixel, *_: [
        ("another number in the top bar (the photo before)",
         [pixel(x, y) for x in range(16, 150, 2) for y in range(12, 44, 2)] != number)])
    require(swiped, "the swipe did not bring the photo before", f"screendump {shot}")
    steps.run("a swipe back to the right", touch_swipe(300, 900, 400))
    steps.run("the zoom-out key: the index", key_tap(buttons, KEY_ZOOMOUT))
    (shot, width, height, pixel, bright_pixels), grid = screen_until(steps, "review-index", lambda pixel, *_: [
        ("the highlight's amber frame over the newest cell", amber_pixels(pixel, 10, 92, 190, 4) > 20),
        ("black between the first row's second and third cells", max(pixel(426, 170)) < 40)])
    require(grid, "no index on the panel", f"screendump {shot}: {amber_pixels(pixel, 10, 92, 190, 4)} amber pixels")
    steps.run("Enter: the highlighted photo alone again", key_tap(buttons, KEY_ENTER))
    (shot, width, height, pixel, bright_pixels), single = screen_until(steps, "review-single", lambda pixel, *_: [
        ("the photo fills the screen again", viewfinder_lit(pixel))])
    require(single, "the photo did not come back", f"screendump {shot}")
    steps.run("delete asked, Delete chosen, answered",
              key_tap(buttons, KEY_DELETE) + "; sleep 1; " + key_tap(buttons, KEY_RIGHT) + "; sleep 1; "
              + key_tap(buttons, KEY_ENTER))
    steps.wait_until("review's thread deleted it", REFLEX_LOG + " | grep 'review: deleted' | tail -1", limit=30,
                     contains=[f"review: deleted 100REFLX/{name}: {name}.JPG"])
    steps.run("the photo is gone from the card", f"ls -a {FOLDER}", excludes=[name + ".JPG"])
    steps.run("a half press", key_tap(buttons, KEY_CAMERA_FOCUS))
    (shot, width, height, pixel, bright_pixels), back = screen_until(steps, "review-closed", lambda pixel, *_: [
        ("the viewfinder's picture is back under where the bar was",
         all(abs(a - b) < 40 for a, b in zip(pixel(*BAR_POINT), live)))])
    require(back, "the viewfinder did not come back", f"screendump {shot}: {pixel(*BAR_POINT)}, live {live}")


@scenario("review-movie", limit=240)
def review_movie(steps):
    """A movie played in review, with its sound: the movie scenario's recording (the board's
    microphone heard a 1 kHz tone) is the newest item; the play key shows its first picture and
    length, Enter plays it (the journal names the decoder), the time bar fills in the accent,
    and on the host the codec's speaker gave out the tone; a half press ends it."""
    buttons = device_node("Reflex Virtual Buttons")
    wait_for_card(steps)
    steps.run("the play key", key_tap(buttons, KEY_PLAY))
    shown = steps.wait_until("review shows the newest item, the movie", REFLEX_LOG + " | grep 'review: ' | tail -1", limit=30,
                             matches=[r"item\(s\) on the card; 100REFLX/(RFLX\d{4}) \(MOVIE\) shown after \d+ ms"])
    name = re.search(r"100REFLX/(RFLX\d{4})", shown).group(1)
    speaker = rig.speaker_file(steps.machine.workdir)
    before = os.path.getsize(speaker) if os.path.exists(speaker) else 0
    steps.run("Enter plays it", key_tap(buttons, KEY_ENTER))
    steps.wait_until("review's thread plays it", REFLEX_LOG + " | grep 'review: playing' | tail -1", limit=30,
                     matches=[rf"review: playing 100REFLX/{name} \((h264|h264_v4l2m2m)\)"])
    (shot, width, height, pixel, bright_pixels), bar = screen_until(steps, "review-movie", lambda pixel, *_: [
        ("the time bar fills in the accent", amber_pixels(pixel, 20, 74, 400, 8) > 10)])
    require(bar, "no time bar filling", f"screendump {shot}: {amber_pixels(pixel, 20, 74, 400, 8)} amber pixels")
    steps.run("a few seconds of it", "sleep 4")
    with open(speaker, "rb") as played:
        played.seek(before)
        sound = played.read()
    samples = struct.unpack(f"<{len(sound) // 2}h", sound[:len(sound) // 2 * 2])
    loud = math.sqrt(sum(s * s for s in samples) / max(len(samples), 1))
    print(f"    the speaker gave out {len(samples) / 2 / 48000:.1f} s of sound, RMS {loud:.0f}")
    require([("a second or more of sound", len(samples) >= 2 * 48000), ("the tone, not silence", loud > 500)],
            "the movie's sound did not reach the speaker", f"{len(samples)} samples, RMS {loud:.0f}")
    steps.run("a half press", key_tap(buttons, KEY_CAMERA_FOCUS))


@scenario("review-delete-cut", limit=300)
def review_delete_cut(steps):
    """A power cut as review deletes a RAW+JPEG pair on the panel, at two moments (as the answer
    is given, and a moment after): the play key shows the pair just taken, the delete key asks,
    the right arrow and Enter answer, and QEMU stops hard (QMP quit, no shutdown), then boots
    again with the same FAT32 card. Each time the pair is whole or gone, never half, and the
    card is as after any cut (`after_cut`: fsck.vfat -n clean, nothing hidden left, every photo
    whole, the next number above every number on the card)."""
    folder = os.path.join(RESULTS, "review-delete-cut")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    for cut, delay in enumerate([0, 0.3], start=1):
        buttons = device_node("Reflex Virtual Buttons")
        taken = steps.run("a RAW+JPEG photo, asked of the running camera", CAPTURE,
                          matches=[r"/media/card/DCIM/100REFLX/RFLX\d{4}\.(DNG|JPG)"], timeout=90)
        name = re.search(r"(RFLX\d{4})\.", taken).group(1)
        steps.run("the play key", key_tap(buttons, KEY_PLAY))
        steps.wait_until("review shows the pair", REFLEX_LOG + " | grep 'review: ' | tail -1", limit=30,
                         matches=[rf"100REFLX/{name} \(RAW\+JPEG\) shown after \d+ ms"])
        steps.run("delete asked, Delete chosen, answered" + (f", {delay} s more" if delay else ""),
                  key_tap(buttons, KEY_DELETE) + "; sleep 1; " + key_tap(buttons, KEY_RIGHT) + "; sleep 1; "
                  + key_tap(buttons, KEY_ENTER) + (f"; sleep {delay}" if delay else ""))
        steps.machine.quit_hard()
        visible, number = after_cut(steps, folder, f"delete cut {cut}")
        pair = sorted(n for n in visible if n.startswith(name + "."))
        require([("the pair is whole or gone, never half", len(pair) in (0, 2))], f"delete cut {cut}: half a pair",
                f"{name}: {pair}")
        print(f"    delete cut {cut}: the pair {'whole' if pair else 'gone'}, next number {number}", flush=True)
