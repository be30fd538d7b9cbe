"""Power: the power cut during a burst, and the card as a computer reads it afterwards."""
import os
import re
import shutil
import subprocess
import time

import rig

from ..camera import REFLEX_LOG, wait_for_card, wait_for_reflex
from ..steps import RESULTS, require, scenario
from .movies import probe_movie


def card_state(card):
    """The card as a computer would read it: visible photo names, hidden ones, and what
    fsck.vfat -n says (the card must not be mounted, or be cleanly unmounted)."""
    visible = rig.card_command(card, "mdir", "-b", "::DCIM/100REFLX", check=False).stdout.split()
    attributes = rig.card_command(card, "mattrib", "::DCIM/100REFLX/*", check=False).stdout
    hidden = [line.split("/")[-1] for line in attributes.splitlines() if "H" in line.split("::")[0]]
    fsck = subprocess.run(["fsck.vfat", "-n", card], capture_output=True, text=True)
    return sorted(name.rsplit("/", 1)[-1] for name in visible), hidden, fsck


def reinsert_card(steps, what, checked):
    """The card taken out (unmounted) and put back (checked and mounted again), the camera
    seeing it go; then Reflex's own check at its return, its log line containing `checked`."""
    steps.run("the card taken out (unmounted)", "systemctl stop reflex-card; ! mountpoint -q /media/card")
    try:
        steps.wait_until("the camera sees it gone", REFLEX_LOG + " | grep 'storage: ' | tail -1", limit=20,
                         contains=["storage: no card at /media/card"])
    finally:
        steps.run("and put back (checked and mounted again)", "systemctl start reflex-card; mountpoint /media/card",
                  contains=["is a mountpoint"])
    steps.wait_until(what, REFLEX_LOG + " | grep 'photos: card at' | tail -1", limit=20, contains=[checked])


@scenario("power-cut", limit=600)
def power_cut(steps):
    """A power cut during a burst being saved, at three moments (as the burst starts, just
    after the first photo, and later): QEMU stopped hard (QMP quit, no shutdown), then booted
    again with the same FAT32 card. Each time the card is checked (fsck's repair, then
    Reflex's own: its unfinished photos removed), every photo a computer sees is whole (LibRaw
    and jpeginfo read each, on the host), nothing hidden or temporary is left, fsck.vfat -n
    finds nothing to fix, and the next photo's number is above every number on the card."""
    machine = steps.machine
    photos = REFLEX_LOG + " | grep -c 'photo [0-9]*: frame'"
    folder = os.path.join(RESULTS, "power-cut")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    # What a cut in the middle of a write leaves on FAT (FATFile): a photo still hidden, or
    # one still empty. Made by hand, since a cut seldom falls in those few milliseconds.
    steps.wait_until("the camera runs and its card was checked", REFLEX_LOG + " | grep 'photos: card at'", limit=90,
                     contains=["photos: card at /media/card checked"])
    steps.run("a hidden half-written photo and an empty one, as a cut mid-write leaves them",
              "mkdir -p /media/card/DCIM/100REFLX && cd /media/card/DCIM/100REFLX && python3 -c \""
              "import fcntl, os, struct; f = os.open('RFLX0097.DNG', os.O_CREAT | os.O_WRONLY); os.write(f, bytes(4096));"
              " fcntl.ioctl(f, 0x40047211, struct.pack('I', 0x22)); os.fsync(f); os.close(f);"
              " os.close(os.open('RFLX0098.JPG', os.O_CREAT | os.O_WRONLY))\" && sync")
    reinsert_card(steps, "Reflex's check removed both", "removed 2 unfinished file(s)")
    steps.run("and they are gone", "ls -a /media/card/DCIM/100REFLX", excludes=["RFLX0097", "RFLX0098"])
    for cut, (after_photos, delay) in enumerate([(0, 0.8), (1, 0.3), (2, 1.2)], start=1):
        before = int(steps.run("photos saved so far this boot", photos + "; true").split()[0])
        steps.run("a burst of RAW+JPEG photos, asked of the running camera",
                  "(reflex capture --state-dir /var/lib/reflex --format raw+jpeg --burst 8 >/tmp/burst.log 2>&1 &); true")
        if after_photos:
            # (At least: on a slow machine a second photo may land between two looks.)
            steps.wait_until(f"photo {after_photos} of the burst is saved",
                             f"[ $({photos}) -ge {before + after_photos} ] && echo saved", limit=60, contains=["saved"])
        time.sleep(delay)
        machine.quit_hard()
        visible, number = after_cut(steps, folder, f"cut {cut}")
        print(f"    cut {cut}: {len(visible)} whole files on the card, next number {number}", flush=True)


def after_cut(steps, folder, label):
    """After a power cut (`machine.quit_hard()`): the card as it was left, kept as evidence;
    the machine booted again until the camera runs and has checked the card (fsck's repair,
    then Reflex's own); then, looked at from the host, fsck.vfat -n finds nothing to fix,
    nothing hidden or temporary is left, every photo is whole (LibRaw, jpeginfo) and every
    movie plays, and the next photo's number is above every number on the card. Returns the
    card's visible names and that number."""
    machine = steps.machine
    _, _, at_cut = card_state(machine.card)
    tag = label.replace(" ", "-")
    with open(os.path.join(folder, f"{tag}-fsck-before-check.txt"), "w") as evidence:
        evidence.write(at_cut.stdout + at_cut.stderr)
    booting = time.monotonic()
    machine.start()
    machine.wait_for_agent()
    wait_for_reflex(machine)
    steps.note_time(booting, f"{label}: the machine boots again, until the camera runs")
    checked = steps.wait_until("the card is checked again after the cut", REFLEX_LOG + " | grep 'photos: card at'",
                               limit=90, contains=["photos: card at /media/card checked"])
    repaired = steps.run("what the card's check at mount did", "journalctl -b -u reflex-card -o cat --no-pager")
    with open(os.path.join(folder, f"{tag}-checks.txt"), "w") as evidence:
        evidence.write(repaired + "\n" + checked)
    # Unmounted cleanly for the host's look (a mounted FAT is marked dirty), then back.
    steps.run("the card unmounted for a look from the host", "systemctl stop reflex-card; ! mountpoint -q /media/card")
    try:
        visible, hidden, fsck = card_state(machine.card)
    finally:
        steps.run("and mounted again", "systemctl start reflex-card; mountpoint /media/card", contains=["is a mountpoint"])
    wait_for_card(steps)
    require([("fsck.vfat -n finds nothing to fix", fsck.returncode == 0)], f"{label}: the card needs repair",
             fsck.stdout + fsck.stderr)
    require([("nothing hidden is left", not hidden), ("no temporary file", not [n for n in visible if n.startswith(".")])],
            f"{label}: leftovers on the card", f"visible {visible}, hidden {hidden}")
    for name in visible:
        local = rig.copy_from_card(machine.card, f"::DCIM/100REFLX/{name}", os.path.join(folder, f"{tag}-{name}"))
        if name.endswith(".MP4"):
            # (A movie the movie scenario left: it plays.)
            streams, errors = probe_movie(local)
            require([(f"{name} plays", streams.get("video", {}).get("codec_name") == "h264")],
                    f"{label}: a broken movie on the card", errors)
            continue
        reader = ["raw-identify", "-v", local] if name.endswith(".DNG") else ["jpeginfo", "-c", local]
        result = subprocess.run(reader, capture_output=True, text=True)
        whole = result.returncode == 0 and ("Unsupported" not in result.stdout if name.endswith(".DNG")
                                             else " OK" in result.stdout and "ERROR" not in result.stdout)
        require([(f"{name} is whole", whole)], f"{label}: a broken photo on the card", result.stdout + result.stderr)
    numbers = [int(re.search(r"RFLX(\d{4})", name).group(1)) for name in visible if re.search(r"RFLX\d{4}", name)]
    shot = steps.run("the next photo", "reflex capture --state-dir /var/lib/reflex --format jpeg", timeout=90,
                     matches=[r"RFLX\d{4}\.JPG"])
    number = int(re.search(r"RFLX(\d{4})\.JPG", shot).group(1))
    require([("its number is above every number on the card", number > max(numbers, default=0))],
            f"{label}: a number used again", f"next {number}, on the card {sorted(numbers)}")
    return visible, number
