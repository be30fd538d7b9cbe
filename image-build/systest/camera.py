"""The camera in the guest: its log, how long it takes to run and to show its first frame, and
a fresh start for a scenario that needs the settings' defaults."""
import re
import time

import rig

from .steps import paced

REFLEX_LOG = "journalctl -b -u reflex -o cat --no-pager"
# The running camera's own lines: a restart makes a new process, and the lines before it are
# the last one's.
RUNNING_LOG = REFLEX_LOG + " _PID=$(systemctl show -p MainPID --value reflex)"
# The camera's start-up line: found wherever it is in the running camera's log (the scenarios
# before may have logged hundreds of lines since, or restarted the camera without waiting for
# it: its last process's line is not the running camera's picture).
SHOWN_LOG = RUNNING_LOG + " | grep 'display: first frame on the panel' | tail -1"
# The camera's state folder (its unit's StateDirectory) and the settings file in it.
STATE = "/var/lib/reflex"
# "ready" once the running camera listens for other programs' photo requests (its capture
# socket): `reflex capture` asked before that finds no camera running.
CAMERA_TAKES_REQUESTS = f"systemctl is-active --quiet reflex && test -S {STATE}/capture.sock && echo ready"
SETTINGS_FILE = STATE + "/settings.conf"


def follow_log(machine, pattern, limit):
    """The first line of the camera's log this boot that matches `pattern` (grep's), as soon as
    it is written, or None if none is within `limit` s. One command in the guest follows the
    journal (journalctl -f) until that line comes: asking again and again would take the
    emulated machine's CPU from what is awaited (a boot, the camera starting)."""
    status, line = machine.run(f"exec 3< <(exec {REFLEX_LOG} -n all -f); follower=$!; grep -m1 -e '{pattern}' <&3;"
                               " found=$?; kill $follower; exit $found", timeout=int(paced(limit)))
    return line if status == 0 else None


def wait_for_reflex(machine, limit=120):
    """Seconds from QEMU start until reflex's log says it is running."""
    if follow_log(machine, "waiting for SIGTERM", limit) is None:
        raise rig.RigError("reflex never reported running; its journal:\n"
                           + machine.run("journalctl -b -u reflex --no-pager | tail -30")[1])
    return time.monotonic() - machine.started_at


def wait_for_card(steps, limit=30):
    """Until the camera has the card: its newest word on the card is that it checked it (a
    card unmounted and mounted again, as a scenario does for a look from the host, may have
    been seen gone; until it is seen back, review closes at once and a photo waits)."""
    steps.wait_until("the camera has its card", REFLEX_LOG + " | grep -E 'storage: no card|photos: card at' | tail -1",
                     limit=limit, contains=["photos: card at /media/card checked"])


def wait_for_first_frame(machine, limit=60):
    """Seconds from the guest kernel's start to reflex's first frame on the panel, as reflex
    took it when the flip came (its log line says it on the boot clock; the line itself may
    be written a little later); None if the panel never showed one."""
    match = re.search(r"\(([\d.]+) s after the kernel started\)", follow_log(machine, "first frame on the panel", limit) or "")
    return float(match.group(1)) if match else None


def fresh_camera(steps):
    """The camera as on its first start, for a scenario that needs the settings' defaults:
    stopped, its settings file removed, started again and waited for until it shows its
    picture. Whatever a scenario before changed and did not put back (one that failed halfway
    leaves Pro, a RAW format, a zoom, the quick menu open) is gone: Auto, JPEG, the ISO dial
    selected, geotag off and never allowed, the zoom at 1x, the menu closed. The photo counter
    is kept: numbers go on rising."""
    mark = int(steps.run("the camera's log so far", REFLEX_LOG + " | wc -l").split()[0])
    steps.run("the camera stopped, its settings removed, started again",
              f"systemctl stop reflex && rm -f {SETTINGS_FILE} && systemctl start reflex")
    steps.wait_until("it starts with the first start's settings and shows its picture",
                     REFLEX_LOG + f" | tail -n +{mark + 1}", limit=90,
                     matches=[r"starting as reflex .*, Auto mode \(first start\)", r"display: first frame on the panel"])
