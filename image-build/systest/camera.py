"""The camera in the guest: its log, and how long it takes to run and to show its first frame."""
import re
import time

import rig

REFLEX_LOG = "journalctl -b -u reflex -o cat --no-pager"
# The camera's start-up line: found wherever it is in the log (the scenarios before may have
# logged hundreds of lines since).
SHOWN_LOG = REFLEX_LOG + " | grep 'display: first frame on the panel' | tail -1"


def wait_for_reflex(machine, limit=120):
    """Seconds from QEMU start until reflex's log says it is running."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        status, _ = machine.run("journalctl -b -u reflex -o cat --no-pager | grep -q 'waiting for SIGTERM'", timeout=5)
        if status == 0:
            return time.monotonic() - machine.started_at
        time.sleep(0.25)
    raise rig.RigError("reflex never reported running; its journal:\n"
                       + machine.run("journalctl -b -u reflex --no-pager | tail -30")[1])


def wait_for_first_frame(machine, limit=60):
    """Seconds from the guest kernel's start to reflex's first frame on the panel, as reflex
    took it when the flip came (its log line says it on the boot clock; the line itself may
    be written a little later); None if the panel never showed one."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        _, line = machine.run("journalctl -b -u reflex --no-pager | grep -m1 'first frame on the panel'", timeout=5)
        match = re.search(r"\(([\d.]+) s after the kernel started\)", line)
        if match:
            return float(match.group(1))
        time.sleep(0.5)
    return None
