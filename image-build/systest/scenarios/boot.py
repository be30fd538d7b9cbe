"""Boot and packaging: the image boots, reflex runs as its own user, `reflex probe` sees the
board's hardware, and reflex is installed from its Debian package."""
import rig

from ..camera import REFLEX_LOG
from ..steps import scenario


@scenario("boot", limit=120)
def boot(steps):
    """The image boots to a healthy system running Debian's kernel."""
    kernel = rig.image_manifest()["kernel"]
    steps.run("the kernel is the image's Debian kernel", "uname -r", contains=[kernel])
    steps.run("systemd reached its target with no failed unit",
              "systemctl is-system-running --wait; systemctl --failed --no-legend", contains=["running"],
              excludes=["degraded", "failed"], timeout=90)
    steps.wait_until("the storage card (a FAT32 disk in a hot-plug slot) is checked and mounted",
                     "findmnt -n -o SOURCE,FSTYPE /media/card", limit=30, matches=[r"^/dev/vd\w+\s+vfat$"])


@scenario("reflex-user", limit=60)
def reflex_user(steps):
    """reflex runs from the board's systemd unit as its own user, not root, with the device
    groups it needs."""
    steps.run("the unit is active", "systemctl is-active reflex", contains=["active"])
    steps.run("the process runs as reflex", "ps -o user=,group= -C reflex", matches=[r"^reflex\s+reflex$"])
    steps.run("with the video, input and render groups",
              "grep -E '^(Uid|Groups)' /proc/$(pidof reflex)/status; id -Gn reflex",
              matches=[r"^Uid:\s+800\s+800", r"video", r"input", r"render"])
    # (What it found depends on how far udev got when it started: the probe scenario checks
    # the hardware itself; picking up hardware that appears later is the display's work.)
    steps.run("its log says who it runs as and what it found", "journalctl -b -u reflex -o cat --no-pager",
              contains=["starting as reflex (uid 800)", "camera: ", "display: ", "input: "])


@scenario("probe", limit=60)
def probe(steps):
    """`reflex probe`, run as the camera's user, lists vivid with its Bayer formats and
    controls, the virtio-gpu card with its connector and mode, and the board's inputs."""
    output = steps.run("reflex probe as the reflex user", "runuser -u reflex -- reflex probe",
                       contains=["driver vivid", "control Gain [int", "driver virtio_gpu",
                                 "connector Virtual-1: connected, 320x200 mm", "mode 1280x800",
                                 "Reflex Virtual Touchscreen [touch]", "Reflex Virtual Buttons [keyboard]"],
                       matches=[r"format (RGGB|BA81|GBRG|GRBG)\s", r"format (RG10|BG10|GB10|BA10)\s",
                                r"format (RG12|BG12|GB12|BA12)\s", r"Reflex Virtual Dial 1 \[.*pointer"],
                       excludes=["cannot open"])
    steps.run("frame sizes and rates are listed", "runuser -u reflex -- reflex probe | grep 'format RG12'",
              matches=[r"1920x1080@\d+"])
    # What the kernel's own tool says must agree with the probe.
    steps.run("v4l2-ctl sees the same gain control", "v4l2-ctl -d /dev/video0 --list-ctrls", contains=["gain"])
    steps.run("the same findings as JSON, for scripts",
              "runuser -u reflex -- reflex probe --json | python3 -c '"
              "import json, sys; p = json.load(sys.stdin); c = p[\"cameras\"][0]; "
              "print(c[\"driver\"], len(c[\"formats\"]), [f[\"fourcc\"] for f in c[\"formats\"] if f[\"fourcc\"] == \"RG12\"], "
              "[x[\"name\"] for x in c[\"controls\"] if x[\"name\"] == \"Gain\"], "
              "p[\"displays\"][0][\"connectors\"][0][\"name\"])'",
              matches=[r"^vivid \d+ \['RG12'\] \['Gain'\] Virtual-1$"])
    return output


@scenario("package", limit=120)
def package(steps):
    """Reflex is installed from its Debian packages: dpkg knows reflex and its files (the fonts
    links to Debian's fonts-inter and fonts-jetbrains-mono, a manual page) and the board's own
    package, /etc/reflex/board points at the image's board, the camera took its calibration and
    fonts from there, and the installed binary finds its fonts and board whatever folder it is
    started from."""
    board = f"/usr/share/reflex/boards/{rig.BOARD}"
    steps.run("dpkg says reflex is installed, with the libraries it links", "dpkg -s reflex",
              matches=[r"^Status: install ok installed$", r"^Depends: .*\blibinput10\b", r"^Depends: .*\blibdrm2\b"])
    steps.run("the package's files: the binary, its manual, the fonts' links, the unit, the copyright",
              "dpkg -L reflex; readlink -f /usr/share/reflex/fonts/Inter-Medium.otf",
              matches=[r"^/usr/bin/reflex$", r"^/usr/share/man/man1/reflex\.1\.gz$",
                       r"^/usr/share/reflex/fonts/Inter-Medium\.otf$", r"^/usr/share/fonts/opentype/inter/Inter-Medium\.otf$",
                       r"^/lib/systemd/system/reflex\.service$", r"^/usr/share/doc/reflex/copyright$"])
    board_package = "reflex-board-" + rig.BOARD.replace("_", "-")
    steps.run("the board's package: its folder", f"dpkg -s {board_package}; dpkg -L {board_package}",
              matches=[r"^Status: install ok installed$", r"^Depends: reflex \(= ", rf"^{board}/sensor\.conf$",
                       rf"^{board}/reflex-virtual-inputs\.service$"])
    steps.run("/etc/reflex/board is the image's board", "readlink /etc/reflex/board", matches=[rf"^{board}$"])
    steps.run("the board's own unit and udev rule come from its folder in the package",
              "readlink /etc/systemd/system/reflex-virtual-inputs.service /etc/udev/rules.d/*reflex*.rules;"
              " systemctl is-enabled reflex.service",
              matches=[rf"^{board}/reflex-virtual-inputs\.service$", rf"^{board}/70-reflex-virtual-inputs\.rules$",
                       r"^enabled$"])
    steps.wait_until("the camera took its calibration and fonts from there", REFLEX_LOG, limit=30,
                     contains=["board: sensor calibration from /etc/reflex/board/sensor.conf",
                               "board: panel from /etc/reflex/board/display.conf", "fonts from /usr/share/reflex/fonts"],
                     excludes=["no fonts found"])
    # The simulated sensor and the headless display: the board's camera and panel stay the
    # service's. As the camera's user, so it runs ordinary, not realtime beside the service.
    steps.run("the installed binary started from /tmp, with no REFLEX_ variable",
              "rm -rf /tmp/anywhere && mkdir -p /tmp/anywhere/state && chown -R reflex /tmp/anywhere && cd /tmp/anywhere &&"
              " (env -u REFLEX_FONTS_DIR -u REFLEX_BOARD_DIR -u REFLEX_STATE_DIR runuser -u reflex --"
              " /usr/bin/reflex run --sensor sim --display png:/tmp/anywhere/png --state-dir /tmp/anywhere/state"
              " --storage /tmp/anywhere >/tmp/anywhere/log 2>&1 &)")
    try:
        steps.wait_until("it found its fonts and board and drew the picture",
                         "cat /tmp/anywhere/log; ls /tmp/anywhere/png", limit=60,
                         contains=["fonts from /usr/share/reflex/fonts", "board: panel from /etc/reflex/board/display.conf",
                                   "frame.png"],
                         excludes=["no fonts found"])
    finally:
        # Gone before the next scenario, which may count the reflex processes.
        steps.run("stop it", "pkill -f 'reflex run --sensor sim --display png:/tmp/anywhere';"
                  " for i in $(seq 50); do pgrep -f 'display png:/tmp/anywhere' >/dev/null || break; sleep 0.1; done; true")
