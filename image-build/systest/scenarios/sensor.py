"""The sensor: vivid's raw stream, a manual ISO reaching its gain, a disconnect, and vimc's
media-controller camera (its graph, and a shot through it)."""
import os
import re
import shutil
import subprocess

import rig

from ..camera import REFLEX_LOG, RUNNING_LOG
from ..pixels import blue, cyan, magenta, yellow
from ..steps import RESULTS, indent, require, scenario


@scenario("media-graph", limit=120)
def media_graph(steps):
    """vimc, the kernel's virtual media-controller camera (built out of tree for the image's
    kernel, like vkms), loads and makes a media controller; `reflex probe` shows its graph as
    media-ctl does: the sensors, debayers, scaler and capture nodes, each pad's format and
    links, and the route from each capture node back to its sensor's subdevice. vimc is
    unloaded again (the camera stays on vivid)."""
    steps.run("vimc loads", "modprobe vimc")
    steps.wait_until("a media controller appears", "ls /dev/media*", limit=20, matches=[r"/dev/media\d+"])
    probe = steps.wait_until("reflex probe shows vimc's graph", "reflex probe", limit=30,
                             contains=["vimc (VIMC MDEV)", '"Sensor A" [sensor]', '"Debayer A" [processing]',
                                       '"Scaler" [processing]', '"Raw Capture 0" [video I/O]'],
                             matches=[r'pad 0 source \w+/\d+x\d+ → "Debayer A":0 \[enabled, immutable\]',
                                      r"/dev/video\d+ ← Sensor A, its controls on /dev/v4l-subdev\d+, its lens Lens A on /dev/v4l-subdev\d+",
                                      r"/dev/video\d+ ← Scaler ← Debayer A ← Sensor A"])
    reference = steps.run("media-ctl's view of the same graph", "media-ctl -d $(ls /dev/media* | tail -1) -p")
    with open(os.path.join(RESULTS, "media-graph.txt"), "w") as evidence:
        evidence.write(probe + "\n--- media-ctl -p\n" + reference)
    names = re.findall(r'entity \d+ "([^"]+)" \[', probe)
    require([("every entity media-ctl lists is in the probe",
              all(name in names for name in re.findall(r"- entity \d+: (.+?) \(", reference)))],
            "the probe's graph differs from media-ctl's", indent(probe, 3000) + "\n" + indent(reference, 3000))
    steps.run("the probe as JSON has the graph too", "reflex probe --json", contains=['"media":[{', '"driver":"vimc"'])
    steps.run("vimc unloaded", "modprobe -r vimc && ! ls /dev/media* 2>/dev/null; true")
    steps.run("the camera is still on vivid", REFLEX_LOG + " | tail -3", excludes=["camera lost"])


@scenario("media-camera", limit=240)
def media_camera(steps):
    """A media-controller camera streams: vimc's Sensor A through its raw capture node, the
    formats set along the graph (the sensor's pad, then the node) and the sensor's controls set
    on its subdevice, as a CSI sensor's are on a Raspberry Pi. A board description for vimc
    asks for a test pattern (sensor.conf's test-pattern); `reflex capture` streams the node and
    shoots; v4l2-ctl on the subdevice reads the pattern back, media-ctl the sensor's format, and
    the DNG, developed on the host by dcraw, shows vimc's colour bars."""
    steps.run("vimc loads", "modprobe vimc")
    steps.wait_until("its media controller appears", "ls /dev/media*", limit=20, matches=[r"/dev/media\d+"])
    probe = steps.wait_until("reflex probe finds Sensor A's raw capture node", "reflex probe", limit=30,
                             matches=[r"/dev/video\d+ ← Sensor A, its controls on /dev/v4l-subdev\d+"])
    node, subdevice = re.search(r"(/dev/video\d+) ← Sensor A, its controls on (/dev/v4l-subdev\d+)", probe).groups()
    board = ("rm -rf /tmp/vimc-board /tmp/vimc-state && cp -rL /etc/reflex/board /tmp/vimc-board && "
             "printf 'preview-size = 640x360\\nf-number = 2\\nfocal-length-mm = 4\\ntest-pattern = 100%% Colorbar\\n' "
             "> /tmp/vimc-board/sensor.conf && mkdir -p /tmp/vimc-state /media/card/vimc && chown reflex /tmp/vimc-state /media/card/vimc")
    steps.run("a board description for vimc, asking for a test pattern", board + " && cat /tmp/vimc-board/sensor.conf",
              contains=["test-pattern = 100% Colorbar"])
    shot = steps.run("reflex capture streams the raw capture node and shoots",
                     f"runuser -u reflex -- env REFLEX_VERBOSE=1 reflex capture --camera {node} --board /tmp/vimc-board --state-dir /tmp/vimc-state "
                     "-o /media/card/vimc --format raw+jpeg 2>&1",
                     matches=[r"camera: media controller Sensor A \(/dev/v4l-subdev\d+\) → Raw Capture 0: S\w+_1X\d+/640x360, "
                              r"lens on /dev/v4l-subdev\d+",
                              rf"camera: streaming {node} \(Sensor A, driver vimc\) \w+ 640x360",
                              r'camera: test pattern "100% Colorbar" \(test pattern = \d+\), as the board asks',
                              r"/media/card/vimc/DCIM/100REFLX/RFLX\d{4}.DNG"], timeout=120)
    steps.run("v4l2-ctl reads the pattern back on the sensor's subdevice", f"v4l2-ctl -d {subdevice} --get-ctrl test_pattern",
              matches=[r"test_pattern: [1-9]"])
    steps.run("media-ctl sees the sensor's pad in the format streamed",
              "media-ctl -d $(ls /dev/media* | tail -1) --get-v4l2 '\"Sensor A\":0'", matches=[r"fmt:S\w+_1X\d+/640x360"])
    name = re.search(r"(RFLX\d{4}).DNG", shot).group(1)
    steps.run("the card's writes are on the disk", "sync /media/card/vimc/DCIM/100REFLX/*")
    folder = os.path.join(RESULTS, "media-camera")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    raw = rig.copy_from_card(steps.machine.card, f"::vimc/DCIM/100REFLX/{name}.DNG", os.path.join(folder, name + ".DNG"))
    developed = os.path.join(folder, name + ".ppm")
    with open(developed, "wb") as out:
        subprocess.run(["dcraw", "-c", "-w", raw], stdout=out, check=True)
    width, height, pixel = rig.read_ppm(developed)
    bars = [pixel(int((i + 0.5) * width / 8), height // 2) for i in range(8)]
    require([("white at the left, black at the right", sum(bars[0]) > 3 * 150 and sum(bars[7]) < 3 * 60),
             ("then yellow, cyan", yellow(bars[1]) and cyan(bars[2])),
             ("magenta, and blue last but one", magenta(bars[4]) and blue(bars[6]))],
            "the photo is not vimc's colour bars", f"{developed}: {bars}")
    steps.run("vimc unloaded", "modprobe -r vimc && ! ls /dev/media* 2>/dev/null; true")


@scenario("sensor-stream", limit=90)
def sensor_stream(steps):
    """reflex streams vivid's deepest raw Bayer format (12-bit) at the board's preview size
    (640x360, 5 fps asked) and receives whole frames: every frame's byte count is the format's size."""
    steps.wait_until("reflex streams a raw Bayer format from vivid", REFLEX_LOG, limit=30,
                     matches=[r"camera: streaming /dev/video\d+ \(.*driver vivid\) (RG12|BA12|GB12|BG12) 640x360, "
                              r"1280 bytes a line at \d+ fps, raw (RGGB|GRBG|GBRG|BGGR) 12-bit"])
    steps.wait_until("frames arrive whole: 1280 bytes x 360 lines each", REFLEX_LOG, limit=40,
                     matches=[r"camera: \d+ frames in \d+ s \(\d+ fps\), \d+ dropped, 460800 bytes a frame"])
    # From the running camera's second summary on (the first includes starting up; the
    # scenarios before may have restarted it): the frame path — dequeue, metering, AE/AWB,
    # controls, the ISP into the panel, the flip — allocates nothing.
    steps.wait_until("the frame path allocates nothing",
                     "lines=$(" + REFLEX_LOG + " _PID=$(systemctl show -p MainPID --value reflex) | grep 'frames in' | tail -n +2); [ -n \"$lines\" ] && "
                     "printf '%s\\n' \"$lines\" | tail -3 && ! printf '%s\\n' \"$lines\" | grep -v ', 0 allocations a frame$'",
                     limit=30, contains=["0 allocations a frame"])
    steps.run("vivid says the same format", "v4l2-ctl -d /dev/video0 --get-fmt-video",
              matches=[r"Width/Height\s+: 640/360", r"Pixel Format\s+: '(RG12|BA12|GB12|BG12)'"])


@scenario("sensor-gain", limit=120)
def sensor_gain(steps):
    """A manual ISO reaches the sensor: Pro mode at ISO 800 sets vivid's gain control to
    800/100 x 16 (the board's calibration) = 128, as v4l2-ctl reads it back."""
    steps.run("Pro mode and ISO 800, saved as the camera's user",
              "runuser -u reflex -- reflex settings set mode pro --state-dir /var/lib/reflex && "
              "runuser -u reflex -- reflex settings set iso 800 --state-dir /var/lib/reflex")
    steps.run("restart the camera", "systemctl restart reflex")
    steps.wait_until("reflex applied ISO 800", REFLEX_LOG + " | tail -20", limit=40,
                     contains=["manual ISO 800", "gain = 128"])
    steps.run("v4l2-ctl reads the gain reflex set", "v4l2-ctl -d /dev/video0 --get-ctrl gain", contains=["gain: 128"])
    steps.run("back to Auto for the other scenarios",
              "runuser -u reflex -- reflex settings set mode auto --state-dir /var/lib/reflex && systemctl restart reflex")


@scenario("sensor-disconnect", limit=120)
def sensor_disconnect(steps):
    """vivid's disconnect button (an unplugged camera): reflex reports the loss, keeps
    running, and streams again when the camera is back."""
    # (The running camera: sensor-gain, before it, restarts the camera without waiting.)
    steps.wait_until("reflex is streaming", RUNNING_LOG + " | grep 'camera: streaming' | tail -1", limit=60,
                     contains=["camera: streaming"])
    steps.run("mark the log", "journalctl -b -u reflex -o cat --no-pager | wc -l > /tmp/mark")
    steps.run("press vivid's disconnect button", "v4l2-ctl -d /dev/video0 --set-ctrl disconnect=1")
    since_mark = REFLEX_LOG + " | tail -n +$(( $(cat /tmp/mark) + 1 ))"
    steps.wait_until("reflex reports the camera lost", since_mark, limit=30,
                     matches=[r"camera lost: camera /dev/video\d+ disconnected"])
    steps.wait_until("and streams again", since_mark, limit=40,
                     matches=[r"camera lost[\s\S]*camera: streaming /dev/video\d+"])
    steps.run("reflex kept running throughout", "systemctl show reflex -p NRestarts -p ActiveState",
              contains=["NRestarts=0", "ActiveState=active"])
