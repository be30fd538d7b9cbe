"""The storage card: pulled and put back, pulled while a burst is saved, nearly full, full;
cards of other kinds: exFAT, a damaged FAT, locked."""
import os
import re
import subprocess

import rig

from ..camera import REFLEX_LOG, SHOWN_LOG
from ..inputs import touch_tap
from ..pixels import amber, amber_pixels, screen_until, screendump
from ..steps import RESULTS, require, scenario


@scenario("storage-card", limit=180)
def storage_card(steps):
    """Pulling the card out of its slot (QMP device_del: the disk goes) shows "Storage card
    missing" over the live picture; the card is let go at once (never busy); putting it back
    (device_add) checks it, mounts it and takes the banner away. The camera keeps running."""
    steps.wait_until("the camera shows its picture", SHOWN_LOG, limit=30,
                     contains=["display: first frame on the panel"])
    steps.run("the card is mounted", "mountpoint /media/card", contains=["is a mountpoint"])
    banner = lambda pixel: pixel(640, 81)
    shot, width, height, pixel, bright_pixels = screendump(steps, "storage-card-in")
    require([("no banner while the card is in", not amber(banner(pixel)))], "a banner without cause",
            f"screendump {shot}: {banner(pixel)} where the banner's border would be")
    # (A photo the scenario before took may still be on its way: its save holds the card's
    # folders open for a moment, so the card is let go within a few seconds, not at once.)
    steps.wait_until("nothing of the camera's keeps the card open between saves",
                     "ls -l /proc/$(pidof reflex)/fd | grep /media/card; ls -l /proc/$(pidof reflex)/cwd", limit=15,
                     excludes=["/media/card"], expect_status=None)
    steps.machine.pull_card()
    # The card goes back whatever happens: the next scenarios need it.
    try:
        steps.wait_until("the card's file system is let go", "findmnt /media/card; systemctl is-active reflex-card",
                         limit=20, excludes=["/media/card"], expect_status=None)
        (shot, width, height, pixel, bright_pixels), shown = screen_until(
            steps, "storage-card-out", lambda pixel, bright_pixels, *_: [
                ("the banner's accent border", amber(banner(pixel))),
                ("its title is written", bright_pixels(440, 95, 400, 30) > 200)])
        require(shown, "no Storage card missing banner",
                f"screendump {shot}: border {banner(pixel)}, {bright_pixels(440, 95, 400, 30)} bright pixels in the title")
    finally:
        steps.machine.insert_card()
        steps.wait_until("the card is back, checked and mounted", "findmnt -n -o FSTYPE /media/card", limit=30,
                         matches=[r"^vfat$"])
    steps.run("it was checked before it was mounted", "journalctl -b -u reflex-card -o cat --no-pager | tail -20",
              contains=["fsck"])
    (shot, width, height, pixel, bright_pixels), gone = screen_until(steps, "storage-card-back", lambda pixel, *_: [
        ("the banner is gone", not amber(banner(pixel)))])
    require(gone, "the banner stayed", f"screendump {shot}: {banner(pixel)}")
    steps.run("the camera kept running", "systemctl show reflex -p NRestarts -p ActiveState",
              contains=["NRestarts=0", "ActiveState=active"])


@scenario("card-pulled-mid-burst", limit=240)
def card_pulled_mid_burst(steps):
    """The card pulled (QMP device_del) while a burst is being saved: the photos not yet on
    it wait and the screen says so (the banner); the card put back (device_add): they are
    saved, none lost, none doubled, their numbers in order."""
    machine = steps.machine
    saved = REFLEX_LOG + " | grep -o 'photo [0-9]*: frame .*→ RFLX[0-9]*.JPG'"
    steps.wait_until("the camera shows its picture", SHOWN_LOG, limit=30,
                     contains=["display: first frame on the panel"])
    before = len(steps.run("photos saved so far", saved + "; true").splitlines())
    # The PC's slot lets the card go at once; the virt machine's (PCIe native hot-plug) 5 s
    # after the pull, the attention button's delay: there the burst must outlast that.
    count = 20 if rig.ARCH == "arm64" else 6
    steps.run(f"a burst of {count} JPEG photos, asked of the running camera",
              f"(reflex capture --state-dir /var/lib/reflex --format jpeg --burst {count} >/tmp/burst.log 2>&1 &); true")
    steps.wait_until("the first of them is saved", f"[ $({saved} | wc -l) -ge {before + 1} ] && echo started", limit=60,
                     contains=["started"])
    machine.pull_card()
    try:
        steps.wait_until("the photos left wait for the card, and the log says so", REFLEX_LOG + " | tail -20", limit=30,
                         contains=["wait for it"])
        (shot, width, height, pixel, bright_pixels), shown = screen_until(
            steps, "card-pulled-mid-burst", lambda pixel, *_: [("a banner over the picture", amber(pixel(640, 81)))])
        require(shown, "the screen does not say the card is missing", f"screendump {shot}: {pixel(640, 81)}")
    finally:
        machine.insert_card()
    steps.wait_until("all are saved once the card is back", f"[ $({saved} | wc -l) -ge {before + count} ] && echo all",
                     limit=90, contains=["all"])
    output = steps.run("the photos' numbers", saved)
    names = re.findall(r"RFLX(\d{4})\.JPG", output)[before:before + count]
    numbers = [int(n) for n in names]
    require([(f"{count} photos", len(numbers) == count), ("numbers in order, none doubled", numbers == sorted(set(numbers)))],
            "photos lost or doubled", f"numbers {numbers}")
    steps.run("each is on the card", "ls /media/card/DCIM/100REFLX", contains=[f"RFLX{n}.JPG" for n in names])


def fill_card(steps, leaving):
    """Fills the card on a computer (mtools on the host, the card out of its slot) until
    `leaving` bytes are free, then puts it back and waits until it is mounted again."""
    machine = steps.machine
    machine.pull_card()
    try:
        steps.wait_until("the card is out", "findmnt /media/card || echo out", limit=20, contains=["out"])
        # (A filler a scenario before left, failing before it deleted it, goes first: the new one
        # replaces it, so measured with it there the card would keep far more than `leaving` free.)
        rig.card_command(machine.card, "mdel", "::FILLER.BIN", check=False)
        # ("1 071 620 096 bytes free": mtools groups the digits.)
        free = int(re.search(r"([\d ]+) bytes free", rig.card_command(machine.card, "mdir", "::").stdout)
                   .group(1).replace(" ", ""))
        filler = os.path.join(RESULTS, "filler.bin")
        with open(filler, "wb") as out:
            out.truncate(max(free - leaving, 0))
        rig.card_command(machine.card, "mcopy", "-o", filler, "::FILLER.BIN")
        os.remove(filler)
    finally:
        machine.insert_card()
    steps.wait_until("the card is back and mounted", "findmnt -n -o FSTYPE /media/card", limit=30, matches=[r"^vfat$"])


@scenario("low-storage", limit=240)
def low_storage(steps):
    """A nearly full card (story 4.8): filled on a computer to under 500 MB free (mtools on the
    host, the card out of its slot), put back, shows `Low storage · N … left` (an amber chip in
    the top bar, and the log); deleting the filler on the camera's card makes it go."""
    steps.wait_until("the camera shows its picture and the card's space",
                     REFLEX_LOG + " | grep -E 'display: first frame on the panel|storage: the card with' | tail -5", limit=30,
                     contains=["display: first frame on the panel", "storage: the card with"])
    # (A scenario before may have just put the card back: wait until the camera has it.)
    steps.wait_until("a fresh card: no warning", REFLEX_LOG + " | grep 'storage: ' | tail -1", limit=30,
                     contains=["no warning"])
    shot, width, height, pixel, bright_pixels = screendump(steps, "low-storage-before")
    chips_before = amber_pixels(pixel, width // 2, 0, width // 2, 64)
    fill_card(steps, 300 * 1000 * 1000)  # below 500 MB, above 100 MB
    steps.wait_until("the camera says Low storage", REFLEX_LOG + " | grep 'storage: ' | tail -1", limit=40,
                     contains=["below 500 MB, Low storage shown with the shots left"])
    chips = lambda pixel, width: amber_pixels(pixel, width // 2, 0, width // 2, 64)
    (shot, width, height, pixel, bright_pixels), shown = screen_until(
        steps, "low-storage", lambda pixel, bright_pixels, width, height: [
            ("an amber chip in the top bar", chips(pixel, width) > chips_before + 300)])
    chips_low = chips(pixel, width)
    require(shown, "no Low storage chip on screen",
            f"screendump {shot}: {chips_low} amber pixels in the top bar's right half, {chips_before} before")
    steps.run("files deleted on the camera", "rm /media/card/FILLER.BIN && sync && df -m /media/card")
    steps.wait_until("the warning goes", REFLEX_LOG + " | grep 'storage: ' | tail -1", limit=20, contains=["no warning"])
    (shot, width, height, pixel, bright_pixels), gone = screen_until(
        steps, "low-storage-gone", lambda pixel, bright_pixels, width, height: [
            ("the chip is gone", chips(pixel, width) < chips_low - 300)])
    require(gone, "the Low storage chip stayed", f"screendump {shot}: {chips(pixel, width)} amber pixels, {chips_low} while low")


# The save banner's answers on the QEMU board's 1280x800 panel (ScreenLayout at 1.00×).
DISCARD = (554, 188)
RETRY = (726, 188)


@scenario("card-full", limit=360)
def card_full(steps):
    """A full card (story 4.6) on the board's FAT card: filled on a computer until a RAW photo
    no longer fits, a shot shows `Storage full – photo not saved` with Retry and Discard (the
    save banner) and the photo is kept; files deleted on the card and Retry tapped: the photo
    is saved; filled again, a shot, Discard tapped: the card is as it was."""
    photos = "ls /media/card/DCIM/100REFLX 2>/dev/null | sort"
    steps.wait_until("the camera shows its picture", SHOWN_LOG, limit=30,
                     contains=["display: first frame on the panel"])
    try:
        fill_card(steps, 512 * 1024)
        steps.wait_until("the camera sees a nearly full card", REFLEX_LOG + " | grep 'storage: ' | tail -1", limit=30,
                         contains=["below 100 MB"])
        before = steps.run("the photos on the card", photos + "; true").split()
        steps.run("a RAW photo that cannot fit", "(reflex capture --state-dir /var/lib/reflex --format raw "
                  ">/tmp/full.log 2>&1 &); true")
        steps.wait_until("the photo is kept, and the log says why", REFLEX_LOG + " | tail -20", limit=60,
                         contains=["kept until Retry or Discard"])
        (shot, width, height, pixel, bright_pixels), shown = screen_until(
            steps, "card-full", lambda pixel, bright_pixels, *_: [
                ("the save banner's accent border", amber(pixel(640, 81))),
                ("its Discard (white words)", bright_pixels(DISCARD[0] - 60, DISCARD[1] - 10, 120, 20) > 30),
                ("its Retry (an amber button)", amber(pixel(RETRY[0] - 70, RETRY[1])))])
        require(shown, "no Storage full banner with its answers", f"screendump {shot}: border {pixel(640, 81)}")
        steps.run("nothing half-written on the card", photos + "; true", excludes=[".tmp"])
        steps.run("space freed on the camera's card", "rm /media/card/FILLER.BIN && sync")
        steps.run("Retry tapped", touch_tap(*RETRY))
        steps.wait_until("saved after the retry", REFLEX_LOG + " | tail -20", limit=60,
                         matches=[r"saving again", r"photo \d+: frame .*→ RFLX\d{4}\.DNG"])
        after_retry = steps.run("the photos on the card", photos).split()
        added = sorted(set(after_retry) - set(before))
        require([("one DNG more", len(added) == 1 and added[0].endswith(".DNG"))], "the retried photo is not on the card",
                f"before {before}, after {after_retry}")
        (shot, width, height, pixel, bright_pixels), gone = screen_until(steps, "card-full-retried", lambda pixel, *_: [
            ("the banner is gone", not amber(pixel(640, 81)))])
        require(gone, "the banner stayed", f"screendump {shot}")
        # Full again: this time the photo is discarded.
        fill_card(steps, 512 * 1024)
        steps.run("another RAW photo that cannot fit", "(reflex capture --state-dir /var/lib/reflex --format raw "
                  ">/tmp/full2.log 2>&1 &); true")
        steps.wait_until("held again", REFLEX_LOG + " | grep -c 'kept until Retry or Discard'", limit=60,
                         matches=[r"^[2-9]"])
        # The log says it is held before the screen does: on a slow machine (the arm64 one
        # under TCG) a tap straight after would land on the viewfinder, not on Discard.
        (shot, width, height, pixel, bright_pixels), shown = screen_until(
            steps, "card-full-again", lambda pixel, bright_pixels, *_: [
                ("the save banner's accent border", amber(pixel(640, 81))),
                ("its Discard (white words)", bright_pixels(DISCARD[0] - 60, DISCARD[1] - 10, 120, 20) > 30)])
        require(shown, "no Storage full banner the second time", f"screendump {shot}: border {pixel(640, 81)}")
        steps.run("Discard tapped", touch_tap(*DISCARD))
        steps.wait_until("discarded", REFLEX_LOG + " | tail -10", limit=30, matches=[r"photo \d+: discarded"])
        steps.run("the card as it was", photos, contains=after_retry)
        require([("no file added", sorted(steps.run("the photos", photos).split()) == sorted(after_retry))],
                "Discard left a file", "")
    finally:
        steps.run("the filler gone", "rm -f /media/card/FILLER.BIN; sync", expect_status=None)


def damage_fat(image, path):
    """Marks the clusters of `path` (::NAME) free in both FATs of a FAT32 image, as a write
    cut between a file's directory entry and its allocation leaves it: the entry points at
    clusters the FAT calls free, which fsck must repair before the card is used."""
    chain = rig.card_command(image, "mshowfat", path).stdout
    clusters = [int(n) for first, last in re.findall(r"<(\d+)-(\d+)>", chain)
                for n in range(int(first), int(last) + 1)]
    if not clusters:
        raise AssertionError(f"mshowfat found no clusters for {path}: {chain!r}")
    with open(image, "r+b") as card:
        boot = card.read(512)
        sector = int.from_bytes(boot[11:13], "little")
        reserved = int.from_bytes(boot[14:16], "little")
        fats = boot[16]
        fat_sectors = int.from_bytes(boot[36:40], "little")
        for copy in range(fats):
            start = (reserved + copy * fat_sectors) * sector
            for cluster in clusters:
                card.seek(start + 4 * cluster)
                card.write(b"\0\0\0\0")
    return clusters


@scenario("card-kinds", limit=420)
def card_kinds(steps):
    """Cards as photographers bring them, each swapped into the slot (QMP): an exFAT card
    (SDXC's file system) takes a RAW+JPEG pair; a FAT card whose FAT was damaged (a file's
    clusters marked free) is repaired by the slot's check before it is mounted, then takes a
    photo, and is clean after; a locked card (write-protected) is mounted read-only and a
    photo pressed on it is held with "Card is read-only" on screen, then saved to the usual
    card once that is back, without Retry. The camera never restarts."""
    machine = steps.machine
    work = os.path.join(RESULTS, "card-kinds")
    os.makedirs(work, exist_ok=True)
    exfat, damaged, locked = (os.path.join(work, name) for name in ("exfat.img", "damaged.img", "locked.img"))
    with open(exfat, "wb") as image:
        image.truncate(256 * 1024 * 1024)
    subprocess.run(["mkfs.exfat", "-L", "EXFATCARD", exfat], check=True, stdout=subprocess.DEVNULL)
    rig.make_card(damaged, 128)
    with open(os.path.join(work, "old.bin"), "wb") as old:
        old.write(os.urandom(300 * 1024))
    rig.card_command(damaged, "mcopy", os.path.join(work, "old.bin"), "::OLD.BIN")
    damage_fat(damaged, "::OLD.BIN")
    rig.make_card(locked, 128)
    saved = REFLEX_LOG + " | grep -cE 'photo [0-9]+: frame .*→ RFLX'"

    steps.wait_until("the camera shows its picture", SHOWN_LOG, limit=30, contains=["display: first frame on the panel"])
    steps.wait_until("nothing of the camera's keeps the card open between saves",
                     "ls -l /proc/$(pidof reflex)/fd | grep /media/card; ls -l /proc/$(pidof reflex)/cwd", limit=15,
                     excludes=["/media/card"], expect_status=None)
    slot = CardSlot(steps)
    try:
        slot.take_out("the usual card")
        slot.put_in(exfat, "the exFAT card", r"^exfat\s+rw,")
        taken = steps.run("a RAW+JPEG pair on it", "reflex capture --state-dir /var/lib/reflex --format raw+jpeg",
                          matches=[r"/media/card/DCIM/100REFLX/RFLX\d{4}\.DNG"], timeout=90)
        name = re.search(r"(RFLX\d{4})\.DNG", taken).group(1)
        steps.run("both files whole: a TIFF and a JPEG from its first byte to its last",
                  "python3 -c \"import sys; d = open(sys.argv[1], 'rb').read(); j = open(sys.argv[2], 'rb').read(); "
                  "print(d[:4] == b'II*\\\\0', j[:2] == b'\\\\xff\\\\xd8', j[-2:] == b'\\\\xff\\\\xd9', len(d) > 100000)\" "
                  f"/media/card/DCIM/100REFLX/{name}.DNG /media/card/DCIM/100REFLX/{name}.JPG; ls -a /media/card/DCIM/100REFLX",
                  contains=["True True True True"], excludes=[".tmp"])
        slot.take_out("the exFAT card")

        slot.put_in(damaged, "the damaged card", r"^vfat\s+rw,")
        steps.run("the check said what it repaired", "journalctl -b -u reflex-card -o cat --no-pager | tail -30",
                  contains=["OLD.BIN"])
        steps.run("a photo on it", "reflex capture --state-dir /var/lib/reflex --format jpeg",
                  matches=[r"/media/card/DCIM/100REFLX/RFLX\d{4}\.JPG"], timeout=90)
        slot.eject("the repaired card")
        check = subprocess.run(["fsck.vfat", "-n", damaged], capture_output=True, text=True)
        require([("fsck.vfat -n finds the card clean", check.returncode == 0)], "the repaired card is not clean",
                check.stdout + check.stderr)

        before = int(steps.run("photos saved so far", saved + "; true").strip() or 0)
        slot.put_in(locked, "the locked card", r"^vfat\s+ro,", read_only=True)
        steps.wait_until("the camera sees it read-only", REFLEX_LOG + " | grep 'storage: ' | tail -1", limit=20,
                         contains=["the card is read-only: Card read-only shown"])
        steps.run("a photo pressed on it", "(reflex capture --state-dir /var/lib/reflex --format jpeg >/tmp/locked.log 2>&1 &); true")
        steps.wait_until("held, and the log says why", REFLEX_LOG + " | tail -20", limit=60,
                         contains=["Read-only file system", "kept until Retry or Discard"])
        (shot, width, height, pixel, bright_pixels), shown = screen_until(
            steps, "card-locked", lambda pixel, bright_pixels, *_: [
                ("the save banner's accent border", amber(pixel(640, 81))),
                ("its title is written", bright_pixels(440, 95, 400, 30) > 200)])
        require(shown, "no banner for the locked card", f"screendump {shot}: border {pixel(640, 81)}")
        slot.take_out("the locked card")
        steps.wait_until("the photo waits for a card", REFLEX_LOG + " | tail -10", limit=30,
                         contains=["photos: no card; 1 photo(s) wait for it"])
    finally:
        if slot.occupied:
            slot.take_out("the card in the slot")
        slot.put_in(machine.card, "the usual card", r"^vfat\s+rw,")
    steps.wait_until("the held photo is saved to it, without Retry", saved, limit=60, matches=[rf"^{before + 1}$"])
    steps.run("the camera never restarted", "systemctl show reflex -p NRestarts -p ActiveState",
              contains=["NRestarts=0", "ActiveState=active"])


class CardSlot:
    """The slot as a photographer uses it: one card in it at a time, each checked and
    mounted (or let go) before the next step."""

    def __init__(self, steps):
        self.steps = steps
        self.occupied = True

    def eject(self, what):
        """Unmounted first (as a computer's eject does), then taken out: the card's file
        system clean, its dirty flag cleared, for a check on the host."""
        self.steps.wait_until("nothing of the camera's keeps it open",
                              "ls -l /proc/$(pidof reflex)/fd | grep /media/card; ls -l /proc/$(pidof reflex)/cwd",
                              limit=15, excludes=["/media/card"], expect_status=None)
        self.steps.run(f"{what} unmounted", "systemctl stop reflex-card; ! mountpoint -q /media/card")
        self.take_out(what)

    def take_out(self, what):
        self.steps.machine.pull_card()
        self.occupied = False
        self.steps.wait_until(f"{what} is let go", "findmnt /media/card", limit=20, excludes=["/media/card"],
                              expect_status=None)

    def put_in(self, image, what, mounted, read_only=False):
        """`mounted`: how findmnt must then show it (type and options)."""
        self.steps.machine.insert_other_card(image, read_only=read_only)
        self.occupied = True
        self.steps.wait_until(f"{what} is checked and mounted", "findmnt -n -o FSTYPE,OPTIONS /media/card", limit=30,
                              matches=[mounted])
