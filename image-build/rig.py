"""The QEMU rig: boots a board's image under QEMU, speaks to QEMU's monitor (QMP) and to
the guest's test agent (image-build/guest/reflex-test-agent) over the second serial port.

Used by image-build/run (interactive), image-build/test (system tests) and
image-build/screenshot. Only the Python standard library is used.
"""
import base64
import json
import struct
import math
import os
import shlex
import shutil
import socket
import subprocess
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _architecture():
    """The image's architecture: amd64, booted as a q35 PC, or arm64, as the virt machine;
    each has its QEMU board. `--arch` on the command line of the program using the rig (test,
    run: read here, before their paths and QEMU follow it), else REFLEX_ARCH, else amd64 — as
    image-build/lib.sh reads it for build and package. Exported, so a build the program starts
    builds the same one."""
    for index, argument in enumerate(sys.argv[:-1]):
        if argument == "--arch":
            os.environ["REFLEX_ARCH"] = sys.argv[index + 1]
    return os.environ.get("REFLEX_ARCH", "amd64")


ARCH = _architecture()
if ARCH not in ("amd64", "arm64"):
    raise SystemExit(f"no image for {ARCH} (amd64 or arm64)")
BOARD = os.environ.get("BOARD", "qemu-arm64" if ARCH == "arm64" else "qemu-x86_64")
CACHE = os.environ.get("REFLEX_IMAGE_CACHE", "/var/cache/reflex-image")
OUT = os.path.join(CACHE, "out", BOARD)
# Real recordings the scenarios replay (touchscreen events), kept in the repository with their licences.
TESTDATA = os.path.join(REPO, "Tests", "Data")


# What the guest's agent says once it listens (image-build/guest/reflex-test-agent).
AGENT_READY = b"@@reflex-agent ready"


class RigError(Exception):
    """Something the rig itself could not do (QEMU would not start, the agent never answered)."""


def image_manifest():
    """The build's manifest (image hash, kernel version, size) as a dict."""
    path = os.path.join(OUT, "manifest")
    if not os.path.exists(path):
        raise RigError(f"no image at {OUT}: run image-build/build first")
    with open(path) as manifest:
        return dict(line.split(" ", 1) for line in manifest.read().splitlines() if " " in line)


def kvm_usable():
    """KVM only where it really works: /dev/kvm exists on machines whose KVM cannot run a
    stock kernel, so it is used only when asked for (REFLEX_QEMU_ACCEL=kvm)."""
    return os.environ.get("REFLEX_QEMU_ACCEL") == "kvm" and os.access("/dev/kvm", os.R_OK | os.W_OK)


# The machine's memory: a Raspberry Pi 5 has 2 GB at the least. With 1 GB, full arm64 runs came
# under memory pressure late in the run ("photo cancelled: memory low" in review-play), as the
# camera should when memory is short; with 2 GB they did not. The PC board keeps its 1 GB.
MEMORY_MEGABYTES = 2048 if ARCH == "arm64" else 1024

# 1 GB (a sparse file: only what is written takes room): a fresh card is above the 500 MB
# under which the camera shows Low storage.
CARD_MEGABYTES = 1024
CARD_LABEL = "REFLEXCARD"
# The card slot's device: hot-pluggable (QMP device_del pulls the card, device_add puts it back).
# Its PCI slot is fixed and high, so the root disk, made later on the command line, is still
# the first virtio disk (/dev/vda).
# On the virt machine a device on the PCIe root bus cannot be unplugged: the card sits behind
# a root port of its own (placed after the root disk, which stays /dev/vda).
CARD_DEVICE = {"driver": "virtio-blk-pci", "drive": "card", "id": "card-slot", "serial": CARD_LABEL,
               **({"bus": "card-port"} if ARCH == "arm64" else {"addr": "0x10"})}


def make_card(path, megabytes=CARD_MEGABYTES):
    """A blank storage card: a disk image holding one FAT32 file system, as an SD card comes."""
    with open(path, "wb") as image:
        image.truncate(megabytes * 1024 * 1024)
    subprocess.run(["mkfs.vfat", "-F", "32", "-n", CARD_LABEL, "-i", "5EF1E700", path], check=True,
                   stdout=subprocess.DEVNULL)


def card_command(card, *arguments, check=True):
    """An mtools command on a card image (read on the host without mounting it)."""
    return subprocess.run([arguments[0], "-i", card, *arguments[1:]], capture_output=True, text=True, check=check,
                          env={**os.environ, "MTOOLS_SKIP_CHECK": "1"})


def card_files(card, folder="::DCIM/100REFLX"):
    """The names in a folder of the card, hidden ones too ({} if the folder is not there)."""
    listing = card_command(card, "mdir", "-a", "-b", folder, check=False)
    return sorted(line.rsplit("/", 1)[-1] for line in listing.stdout.splitlines() if line.strip()) \
        if listing.returncode == 0 else []


def copy_from_card(card, path, destination):
    """Copies `path` on the card (::DCIM/…) to `destination` on the host."""
    card_command(card, "mcopy", "-n", "-o", path, destination)
    return destination


# The board's GPS receiver: a 16550 UART, the guest's ttyS2 (read by its gpsd, as a board's
# UART receiver is), whose other end is a socket on the host that GPSFeed writes a real
# receiver's NMEA log into.
GPS_LOG = os.path.join(TESTDATA, "nmea", "bu353s4.log")


class GPSFeed:
    """Plays an NMEA log into the board's GPS serial port, sentence by sentence at a
    receiver's pace (`pace` s each, about six to an epoch), round and round until stopped."""

    def __init__(self, socket_path, log=GPS_LOG, pace=0.1):
        self.socket_path, self.log, self.pace = socket_path, log, pace
        self.stopping = threading.Event()
        self.sent = 0
        self.thread = threading.Thread(target=self._feed, name="gps-feed", daemon=True)

    def start(self):
        self.thread.start()
        return self

    def stop(self):
        self.stopping.set()

    def _feed(self):
        with open(self.log, "rb") as log:
            sentences = [line.strip() for line in log if line.startswith(b"$")]
        connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        while not self.stopping.is_set():
            try:
                connection.connect(self.socket_path)
                break
            except OSError:
                time.sleep(0.1)
        try:
            while not self.stopping.is_set():
                for sentence in sentences:
                    if self.stopping.wait(self.pace):
                        return
                    connection.sendall(sentence + b"\r\n")
                    self.sent += 1
        except OSError:
            pass  # QEMU went away
        finally:
            connection.close()


def microphone_tone(workdir, seconds=240):
    """The board's microphone hears a 1 kHz tone: an ALSA configuration for QEMU's process
    (ALSA_CONFIG_PATH) whose capture device reads a file of it (alsa-lib's file plugin over its
    null device), which QEMU's emulated HDA codec plays into the guest at the guest's pace; and
    what the guest plays on the codec's speaker is written to `speaker_file` (48 kHz 16-bit
    stereo). Returns the environment QEMU runs with."""
    tone = os.path.join(workdir, "tone.raw")
    period = [int(12000 * math.sin(2 * math.pi * i / 48)) for i in range(48)]
    with open(tone, "wb") as out:
        out.write(struct.pack("<48h", *period) * (1000 * seconds))
    config = os.path.join(workdir, "asound.conf")
    with open(config, "w") as out:
        out.write("pcm.reflex_silence { type null }\n"
                  f'pcm.reflex_tone {{ type file slave.pcm "reflex_silence" file "/dev/null" infile "{tone}" format "raw" }}\n'
                  f'pcm.reflex_speaker {{ type file slave.pcm "reflex_silence" file "{speaker_file(workdir)}" format "raw" }}\n')
    return dict(os.environ, ALSA_CONFIG_PATH=config)


def speaker_file(workdir):
    """Where the board's speaker's sound lands on the host (raw 48 kHz 16-bit stereo)."""
    return os.path.join(workdir, "speaker.raw")


def gps_and_agent_ports(workdir, test):
    """The UARTs the guest knows as ttyS1 (the test agent's) and ttyS2 (the GPS receiver's,
    chardev `gps`). The PC has 16550s at the ISA addresses: the GPS's is its third (the agent's,
    the second -serial, is added with the test's options). The virt machine has one UART, its
    console: three PCI 16550s stand in, numbered ttyS0, 1 and 2 in slot order."""
    if ARCH != "arm64":
        return ["-device", "isa-serial,chardev=gps,index=2"]
    agent = f"socket,id=agent,path={os.path.join(workdir, 'agent.sock')},server=on,wait=off" if test else "null,id=agent"
    return ["-chardev", "null,id=spare", "-device", "pci-serial,chardev=spare,addr=0x0a",
            "-chardev", agent, "-device", "pci-serial,chardev=agent,addr=0x0b",
            "-device", "pci-serial,chardev=gps,addr=0x0c"]


def host_share(workdir):
    """The host folder the guest sees read-only as 9p tag `fromhost` (test runs only)."""
    return os.path.join(workdir, "from-host")


def qemu_command(workdir, card, display="virtio", test=False, window=None, testdata=None, console="file"):
    """The QEMU command line for the board. display: "virtio" (virtio-gpu, the default) or
    "vkms" (no GPU device; the vkms module is loaded instead). window: "gtk", "vnc" or None.
    console: "file" (console.log in workdir) or "stdio" (the terminal, for a person).
    The board's microphone (an HDA codec's) hears the tone of `microphone_tone` in tests,
    silence otherwise."""
    if ARCH == "arm64":
        # Cortex-A76-class cores (a Raspberry Pi 5's), emulated: there is no arm64 KVM here.
        machine = ["qemu-system-aarch64", "-machine", "virt", "-accel", "tcg", "-cpu", "cortex-a76"]
    else:
        machine = ["qemu-system-x86_64", *(["-accel", "kvm", "-cpu", "host"] if kvm_usable() else ["-accel", "tcg", "-cpu", "max"])]
    # The console: the PC's first UART, the virt machine's own PL011.
    console_device = "ttyAMA0" if ARCH == "arm64" else "ttyS0"
    # mitigations=off: speculative-execution defences only slow an emulated CPU down.
    append = ["root=/dev/vda", "rw", f"console={console_device}", "quiet", "loglevel=4", "systemd.show_status=0",
              "mitigations=off",
              # PSI, which Debian's kernel builds switched off by default: the camera watches memory pressure.
              "psi=1",
              # An emulated board on a busy host starts its units minutes late: systemd's 90 s
              # failed systemd-modules-load (vivid, vimc, the HDA codec) at a boot of 236 s
              # beside two compiles (2026-12-07). A real board's own limits stay as they are.
              "systemd.default_timeout_start_sec=600"]
    command = [*machine, "-smp", "2", "-m", str(MEMORY_MEGABYTES), "-nodefaults", "-no-user-config",
               "-kernel", os.path.join(OUT, "vmlinuz"), "-initrd", os.path.join(OUT, "initrd.img"),
               # The image is shared by every run: writes go to a throw-away overlay.
               "-drive", f"file={os.path.join(OUT, 'rootfs.ext4')},if=virtio,format=raw,snapshot=on",
               "-serial", f"file:{os.path.join(workdir, 'console.log')}" if console == "file" else "mon:stdio",
               "-qmp", f"unix:{os.path.join(workdir, 'qmp.sock')},server=on,wait=off",
               # The storage card: a FAT32 disk image in a hot-pluggable slot, which the image's
               # udev rule and reflex-card.service check and mount at /media/card.
               "-blockdev", f"driver=file,filename={card},node-name=card-file",
               "-blockdev", "driver=raw,file=card-file,node-name=card",
               *(["-device", "pcie-root-port,id=card-port,chassis=1,addr=0x10"] if ARCH == "arm64" else []),
               "-device", ",".join(f"{key}={value}" for key, value in CARD_DEVICE.items()),
               # Pointer and keys of a window, for a person driving the camera by hand.
               "-device", "virtio-tablet-pci", "-device", "virtio-keyboard-pci",
               # The GPS receiver's UART (ttyS2 whatever other serial ports there are).
               "-chardev", f"socket,id=gps,path={os.path.join(workdir, 'gps.sock')},server=on,wait=off",
               *gps_and_agent_ports(workdir, test),
               # The microphone and the speaker: an Intel HDA controller with a codec that has both.
               "-audiodev", ("alsa,id=mic,in.dev=reflex_tone,out.dev=reflex_speaker,in.frequency=48000,in.channels=1,"
                             "in.format=s16,in.try-poll=off,out.frequency=48000,out.channels=2,out.format=s16,out.try-poll=off" if test else "none,id=mic"),
               "-device", "intel-hda", "-device", "hda-micro,audiodev=mic",
               "-nic", "none"]
    if display == "virtio":
        command += ["-device", "virtio-gpu-pci"]
    elif display == "vkms":
        command += ["-vga", "none"]
        append.append("modules_load=vkms")
    else:
        raise RigError(f"unknown display {display!r} (virtio or vkms)")
    if test:
        append.append("reflex.test")
        if ARCH != "arm64":
            command += ["-serial", f"unix:{os.path.join(workdir, 'agent.sock')},server=on,wait=off"]
        if testdata:
            command += ["-virtfs", f"local,path={testdata},mount_tag=testdata,security_model=none,readonly=on,id=testdata"]
        # What a scenario makes on the host for the guest (read-only there, tag `fromhost`):
        # work the emulator would take minutes over.
        command += ["-virtfs", f"local,path={host_share(workdir)},mount_tag=fromhost,security_model=none,readonly=on,id=fromhost"]
    if window == "gtk":
        command += ["-display", "gtk"]
    elif window == "vnc":
        command += ["-display", "none", "-vnc", "127.0.0.1:0"]
    else:
        command += ["-display", "none"]
    return command + ["-append", " ".join(append)]


def cpu_capped(command, percent):
    """`command` with at most `percent` of one core: a host slowed on purpose by a CPU cgroup
    of its own (cgroup v2's cpu.max, or v1's CFS quota where the host mounts v1). The shell
    joins the group before it becomes the command, so nothing of it runs uncapped."""
    period = 100_000
    quota = max(1_000, int(period * percent / 100))
    if os.path.exists("/sys/fs/cgroup/cgroup.controllers"):
        group = "/sys/fs/cgroup/reflex-slowed"
        try:
            with open("/sys/fs/cgroup/cgroup.subtree_control", "w") as control:
                control.write("+cpu")
        except OSError:
            pass  # (on already, as under systemd; a failure shows at cpu.max below)
        limits = {"cpu.max": f"{quota} {period}"}
    elif os.path.isdir("/sys/fs/cgroup/cpu"):
        group = "/sys/fs/cgroup/cpu/reflex-slowed"
        limits = {"cpu.cfs_period_us": str(period), "cpu.cfs_quota_us": str(quota)}
    else:
        raise RigError("no CPU cgroup on this host to slow QEMU with (cgroup v2's cpu controller, or v1's cpu)")
    try:
        os.makedirs(group, exist_ok=True)
        for name, value in limits.items():
            with open(os.path.join(group, name), "w") as limit:
                limit.write(value)
    except OSError as problem:
        raise RigError(f"cannot cap QEMU at {percent}% of a core in {group}: {problem}") from problem
    return ["sh", "-c", 'echo $$ >"$0" && exec "$@"', os.path.join(group, "cgroup.procs"), *command]


class Machine:
    """One booted guest. Use as a context manager: it is always powered off at the end."""

    def __init__(self, workdir, card=None, display="virtio"):
        self.workdir = workdir
        # The card image; one given outside the work folder outlives the machine (a power cut
        # and the next boot see the same card).
        self.card = card or os.path.join(workdir, "card.img")
        self.display = display
        self.process = None
        self.started_at = None
        self.qmp_socket = None
        self.agent_socket = None
        self.agent_buffer = b""
        self.next_id = 1
        self.gps_feed = None

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, *_):
        self.power_off()

    def start(self):
        shutil.rmtree(self.workdir, ignore_errors=True)
        os.makedirs(self.workdir)
        if not os.path.exists(self.card):
            make_card(self.card)
        testdata = TESTDATA if os.path.isdir(TESTDATA) else None
        os.makedirs(host_share(self.workdir))
        command = qemu_command(self.workdir, self.card, self.display, test=True, testdata=testdata)
        # A host slowed on purpose (image-build/test --slow): QEMU on one core of its own, and
        # at most a share of it.
        if os.environ.get("REFLEX_QEMU_CPU"):
            command = ["taskset", "-c", os.environ["REFLEX_QEMU_CPU"], *command]
        if os.environ.get("REFLEX_QEMU_CPU_PERCENT"):
            try:
                percent = float(os.environ["REFLEX_QEMU_CPU_PERCENT"])
            except ValueError:
                raise RigError(f"REFLEX_QEMU_CPU_PERCENT={os.environ['REFLEX_QEMU_CPU_PERCENT']} is no percentage") from None
            command = cpu_capped(command, percent)
        with open(os.path.join(self.workdir, "qemu-command"), "w") as saved:
            saved.write(shlex.join(command) + "\n")
        self.started_at = time.monotonic()
        environment = microphone_tone(self.workdir)
        with open(os.path.join(self.workdir, "qemu.log"), "w") as log:
            self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=log, env=environment)
        try:
            self.qmp_socket = self._connect("qmp.sock")
            greeting = self._qmp_read()
            if "QMP" not in greeting:
                raise RigError(f"unexpected QMP greeting: {greeting}")
            self.qmp("qmp_capabilities")
            self.agent_socket = self._connect("agent.sock")
            if os.path.exists(GPS_LOG):
                self.gps_feed = GPSFeed(os.path.join(self.workdir, "gps.sock")).start()
        except BaseException:
            # A machine that never came up properly is not left running.
            self.process.kill()
            self.process.wait()
            raise

    def _connect(self, name, timeout=10):
        path = os.path.join(self.workdir, name)
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RigError(f"QEMU exited ({self.process.returncode}): {self.qemu_log()}")
            try:
                connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                connection.connect(path)
                return connection
            except OSError:
                if time.monotonic() > deadline:
                    raise RigError(f"QEMU's {name} never appeared: {self.qemu_log()}")
                time.sleep(0.05)

    def qemu_log(self):
        try:
            with open(os.path.join(self.workdir, "qemu.log")) as log:
                return log.read()[-2000:]
        except OSError:
            return ""

    def console_text(self):
        """What the kernel and systemd printed on the first serial port."""
        try:
            with open(os.path.join(self.workdir, "console.log"), errors="replace") as console:
                return console.read()
        except OSError:
            return ""

    # --- QEMU's monitor
    def _qmp_read(self):
        buffer = b""
        while not buffer.endswith(b"\n"):
            chunk = self.qmp_socket.recv(65536)
            if not chunk:
                raise RigError("QMP connection closed")
            buffer += chunk
        return buffer.decode()

    def qmp(self, execute, **arguments):
        request = {"execute": execute}
        if arguments:
            request["arguments"] = arguments
        self.qmp_socket.sendall(json.dumps(request).encode() + b"\n")
        pending = ""
        while True:
            pending += self._qmp_read()
            lines = pending.split("\n")
            pending = lines.pop()
            for line in lines:
                if not line.strip():
                    continue
                message = json.loads(line)
                if "return" in message:
                    return message["return"]
                if "error" in message:
                    raise RigError(f"QMP {execute}: {message['error'].get('desc')}")

    def pull_card(self, timeout=30):
        """Takes the card out of its slot (QMP device_del; the guest sees the disk go)."""
        self.qmp("device_del", id=CARD_DEVICE["id"])
        deadline = time.monotonic() + timeout
        while CARD_DEVICE["id"] in [entry["name"] for entry in self.qmp("qom-list", path="/machine/peripheral")]:
            if time.monotonic() > deadline:
                raise RigError("the guest did not let the card go")
            time.sleep(0.2)

    def insert_card(self):
        """Puts the card back into its slot (QMP device_add)."""
        self.qmp("device_add", **CARD_DEVICE)

    def insert_other_card(self, path, read_only=False):
        """Puts another card's image into the empty slot (pull_card first), as a photographer
        swaps cards; `read_only`: its lock switch on (the disk is write-protected, as an SD
        reader reports a locked card). insert_other_card(self.card) puts the usual one back."""
        for node in ("card", "card-file"):
            self.qmp("blockdev-del", **{"node-name": node})
        self.qmp("blockdev-add", driver="file", filename=os.path.abspath(path), **{"node-name": "card-file", "read-only": read_only})
        self.qmp("blockdev-add", driver="raw", file="card-file", **{"node-name": "card", "read-only": read_only})
        self.qmp("device_add", **CARD_DEVICE)

    def quit_hard(self):
        """The power cut: QEMU stops at once, no shutdown, nothing flushed by the guest."""
        if self.gps_feed:
            self.gps_feed.stop()
        try:
            self.qmp("quit")
        except (RigError, OSError):
            pass
        self.process.wait(timeout=30)

    def screendump(self, path, format="png"):
        """What the display scans out, as PNG or PPM (QEMU's monitor, like a camera on a bench)."""
        self.qmp("screendump", filename=os.path.abspath(path), format=format)
        return path


    # --- the guest's test agent
    def run(self, command, timeout=30, grace=10):
        """Runs a shell command as root in the guest; returns (exit code, output). The guest
        kills it after `timeout` s; the rig gives up `grace` s after that."""
        answer = self._ask(command, timeout, grace)
        if answer is None:
            raise RigError(f"the guest did not answer within {timeout + grace} s: {command}")
        return answer

    def _ask(self, command, timeout, grace):
        """Sends a command to the agent and waits for its answer, (exit code, output); None if
        none came in `timeout` + `grace` s."""
        return self._await([self._send(command, timeout)], timeout + grace)

    def _send(self, command, timeout):
        """Sends a command for the guest to run within `timeout` s; returns its request's id."""
        request_id = self.next_id
        self.next_id += 1
        encoded = base64.b64encode(command.encode()).decode()
        self.agent_socket.sendall(f"{request_id} {timeout} {encoded}\n".encode())
        return request_id

    def _await(self, request_ids, seconds, until_ready=False):
        """The first answer to any of `request_ids` within `seconds`, (exit code, output);
        None if none came or, with `until_ready`, if the agent said it was ready first (it
        drops what it read before it listened, so those requests are lost)."""
        prefixes = [f"@@reflex {request_id} ".encode() for request_id in request_ids]
        deadline = time.monotonic() + seconds
        while True:
            for line in self._agent_lines():
                if any(line.startswith(prefix) for prefix in prefixes):
                    parts = line.split(b" ", 3)
                    output = base64.b64decode(parts[3]) if len(parts) > 3 and parts[3] else b""
                    return int(parts[2]), output.decode(errors="replace")
                if until_ready and line == AGENT_READY:
                    return None
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            self.agent_socket.settimeout(remaining)
            try:
                chunk = self.agent_socket.recv(65536)
            except socket.timeout:
                continue
            if not chunk:
                raise RigError("the agent's serial port closed")
            self.agent_buffer += chunk

    def _agent_lines(self):
        *complete, self.agent_buffer = self.agent_buffer.split(b"\n")
        return [line.strip(b"\r") for line in complete]

    def wait_for_agent(self, timeout=600, patience=30):
        """Boot until the guest's agent answers; returns the seconds since QEMU started. It is
        asked once, again at once when it says it is ready (it drops what came before it
        listened), and again after `patience` s without an answer; an answer to any of those
        asks counts. (Asked every 2 s and only the last ask's answer counting, a slowed guest
        that takes longer than that to answer was left a queue it never caught up with. The
        limit is for a guest that will never answer: a busy host's TCG boot has taken 120 s
        and more.)"""
        deadline = time.monotonic() + timeout
        asked = []
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RigError(f"QEMU exited during boot ({self.process.returncode})")
            try:
                asked.append(self._send("echo alive", patience))
                answer = self._await(asked, min(patience, max(deadline - time.monotonic(), 0)), until_ready=True)
            except RigError:
                answer = None
                time.sleep(1)
            if answer and answer[0] == 0 and answer[1].strip() == "alive":
                return time.monotonic() - self.started_at
        raise RigError(f"the guest's agent never answered in {timeout} s; console:\n{self.console_text()[-3000:]}")

    def power_off(self, timeout=30):
        """ACPI power button, as a person would press it; pulled plug if the guest ignores it."""
        if self.gps_feed:
            self.gps_feed.stop()
        if not self.process or self.process.poll() is not None:
            return
        try:
            self.qmp("system_powerdown")
            self.process.wait(timeout=timeout)
        except (RigError, OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()


def read_ppm(path):
    """A binary PPM (P6) as (width, height, pixel(x, y) -> (r, g, b)), for checking screendumps."""
    with open(path, "rb") as image:
        data = image.read()
    fields, position = [], 0
    while len(fields) < 4:
        while data[position:position + 1].isspace():
            position += 1
        end = position
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[position:end])
        position = end
    position += 1
    width, height = int(fields[1]), int(fields[2])
    pixels = data[position:]
    return width, height, lambda x, y: tuple(pixels[(y * width + x) * 3:(y * width + x) * 3 + 3])
