"""Memory: the camera under memory pressure, and under a cgroup limit."""
import re

from ..camera import REFLEX_LOG
from ..steps import require, scenario


HOG = """
import os, time
held = []
end = time.time() + float(os.environ.get('HOG_SECONDS', '25'))
while time.time() < end:
    held.append(b'\\x01' * (4 << 20))   # touched, and resident: there is no swap to put it in
    if len(held) > 24:
        held.pop(0)   # 96 MB held: twice its cgroup's MemoryHigh, so each new page waits
print('done')
"""


@scenario("memory", limit=600)
def memory(steps):
    """Memory (story 4.7). The camera watches the kernel's memory pressure (PSI; the board's
    kernel has psi=1). A hog in the guest stalls on memory (it keeps exceeding its cgroup's
    MemoryHigh): the pressure rises, the camera's zero-lag ring shrinks (log), and grows back
    once the hog is gone.
    Then the camera runs under a cgroup limit (its unit's MemoryMax) leaving less room than 30
    photos' frames, and a burst of 30 is asked: no OOM kill, every photo saved or cancelled,
    and the log says how many were cancelled."""
    steps.wait_until("the camera watches memory pressure", REFLEX_LOG, limit=30,
                     contains=["memory: watching pressure (/proc/pressure/memory"])
    steps.run("the hog's program", "cat > /tmp/hog.py <<'EOF'\n" + HOG + "\nEOF")
    # The hog runs in a cgroup of its own whose MemoryHigh it keeps exceeding: the kernel
    # throttles it at every allocation, time stalled on memory that PSI counts, in its cgroup
    # and for the whole machine (/proc/pressure/memory).
    # (Throttled at every allocation, the hog checks its clock late on an emulated machine:
    # systemd ends it after 30 s whatever it is doing. Once the ring has shrunk the scenario
    # stops it itself.)
    steps.run("a hog stalls on memory", "systemd-run --unit=reflex-test-hog -p MemoryHigh=48M -p MemorySwapMax=0 "
              "-p OOMScoreAdjust=1000 -p RuntimeMaxSec=30 -E HOG_SECONDS=30 python3 /tmp/hog.py")
    steps.wait_until("the pressure rises and the ring gives memory back", REFLEX_LOG + " | grep 'memory: ' | tail -5",
                     limit=90, matches=[r"memory: pressure (moderate|severe) \(was normal\)",
                                        r"the zero-lag ring keeps [23] of its \d+ frames"])
    steps.run("the kernel's account", "cat /proc/pressure/memory; grep -E 'MemAvailable|MemFree' /proc/meminfo; "
              "journalctl -u reflex-test-hog -o cat --no-pager | tail -3", expect_status=None)
    steps.run("the hog stopped", "systemctl stop reflex-test-hog; ! systemctl is-active -q reflex-test-hog")
    steps.wait_until("the hog is gone and the pressure eases: the whole ring again",
                     REFLEX_LOG + " | grep 'memory: ' | tail -4", limit=120,
                     matches=[r"memory: pressure normal \(was moderate\)", r"the zero-lag ring keeps (\d+) of its \1 frames"])
    steps.run("the camera was never killed", "systemctl show reflex -p NRestarts -p ActiveState; "
              "journalctl -k -o cat --no-pager | grep -i 'killed process' || echo 'no OOM kill'",
              contains=["NRestarts=0", "ActiveState=active"], excludes=["(reflex)"])
    # The camera under a limit: its memory now plus less than 30 photos' frames (1280x720,
    # 16 bits a sample: 1.8 MB each, 55 MB for 30).
    cgroup = "/sys/fs/cgroup/system.slice/reflex.service"
    current = int(steps.run("the camera's memory now", f"cat {cgroup}/memory.current").strip())
    limit = current + 32 * 1024 * 1024
    try:
        steps.run(f"MemoryMax {limit // (1024 * 1024)} MB: {current // (1024 * 1024)} MB now and 32 MB more",
                  f"systemctl set-property --runtime reflex.service MemoryMax={limit} MemorySwapMax=0 && "
                  "systemctl restart reflex")
        steps.wait_until("the camera starts again within its limit", REFLEX_LOG + " | tail -60", limit=90,
                         contains=["display: first frame on the panel"])
        pid = steps.run("its process", "systemctl show reflex -p MainPID --value").strip()
        saved = REFLEX_LOG + " | grep -cE 'photo [0-9]+: frame .*→ RFLX'"
        before = int(steps.run("photos saved so far", saved + "; true").strip() or 0)
        steps.run("a burst of 30 RAW photos", "reflex capture --state-dir /var/lib/reflex --format raw --burst 30 "
                  ">/tmp/burst.log 2>&1; tail -3 /tmp/burst.log", expect_status=None, timeout=420)
        output = steps.run("what became of them", REFLEX_LOG + " | grep -E 'cancelled|→ RFLX' | tail -40; "
                           f"cat {cgroup}/memory.peak {cgroup}/memory.events 2>/dev/null", expect_status=None)
        done = int(steps.run("photos saved now", saved + "; true").strip() or 0) - before
        cancelled = sum(int(n) for n in re.findall(r"(\d+) (?:press\(es\)|photo\(s\)) cancelled", output))
        require([("every photo saved or cancelled", done + cancelled >= 30)], "photos unaccounted for",
                f"{done} saved and {cancelled} cancelled of 30")
        steps.run("no OOM kill: the same process, still running",
                  "systemctl show reflex -p MainPID --value; systemctl is-active reflex; "
                  "journalctl -k -o cat --no-pager | grep -i 'killed process' || echo 'no OOM kill'",
                  contains=[pid, "active"], excludes=["(reflex)"])
        print(f"    burst under MemoryMax {limit // (1024 * 1024)} MB: {done} saved, {cancelled} cancelled")
    finally:
        steps.run("the limit lifted", "systemctl set-property --runtime reflex.service MemoryMax=infinity "
                  "MemorySwapMax=infinity && systemctl restart reflex", expect_status=None)
        steps.wait_until("the camera is back", REFLEX_LOG + " | tail -60", limit=90,
                         contains=["display: first frame on the panel"])
