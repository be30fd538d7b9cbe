"""Input and controls: a touchscreen recording replayed, the board's inputs as libinput reads
them, taps and dials changing the camera, the quick menu, and the vibrator's effects."""
import re
import time

from ..camera import REFLEX_LOG, SHOWN_LOG, fresh_camera
from ..inputs import (KEY_CAMERA, KEY_MENU, KEY_VOLUMEDOWN, KEY_ZOOMIN, MENU_BUTTON, MENU_FORMAT_FORWARD, MENU_INSIDE,
                      detents, device_node, drag_recording_on, key_hold, key_tap, play, touch_tap)
from ..pixels import amber, amber_pixels, screen_until
from ..steps import require, scenario


@scenario("touch-replay", limit=90)
def touch_replay(steps):
    """A real touchscreen recording (Tests/Data/input), replayed through uinput,
    reaches libinput as touch events."""
    steps.run("the test data is shared into the guest",
              "mkdir -p /mnt/testdata && (mountpoint -q /mnt/testdata || mount -t 9p -o trans=virtio,ro testdata /mnt/testdata)"
              " && ls /mnt/testdata/input", contains=["EP0430M09.1-finger-drag-up-down.events"])
    steps.run("libinput listens on the seat", "rm -f /tmp/libinput.log; (libinput debug-events >/tmp/libinput.log 2>&1 &)")
    steps.wait_until("it has the seat's devices", "cat /tmp/libinput.log", limit=20, contains=["DEVICE_ADDED"])
    # evemu-device makes the panel from its description and stays up while it exists;
    # evemu-play then writes the recorded events into that device node.
    steps.run("a uinput device is made from the panel's description",
              "(evemu-device /mnt/testdata/input/EP0430M09.desc >/tmp/panel.txt 2>&1 &);"
              " for i in $(seq 50); do grep -q /dev/input /tmp/panel.txt && break; sleep 0.1; done; cat /tmp/panel.txt",
              matches=[r"^EP0430M09: /dev/input/event\d+$"])
    steps.wait_until("libinput has it", "grep DEVICE_ADDED /tmp/libinput.log", limit=20, contains=["EP0430M09"])
    steps.run("the recording is replayed into it",
              "grep '^E:' /mnt/testdata/input/EP0430M09.1-finger-drag-up-down.events"
              " | evemu-play $(awk '{print $2}' /tmp/panel.txt)", timeout=60)
    steps.wait_until("libinput saw the drag: a finger down, moving, and up",
                     "grep -E 'TOUCH_(DOWN|MOTION|UP)' /tmp/libinput.log | awk '{print $2}' | sort | uniq -c",
                     limit=10, contains=["TOUCH_DOWN", "TOUCH_MOTION", "TOUCH_UP"])
    steps.run("stop listening and remove the panel", "pkill -f 'libinput debug-events'; pkill evemu-device; true")


@scenario("board-inputs", limit=60)
def board_inputs(steps):
    """The QEMU board's virtual touchscreen, dials and buttons exist, and libinput reads a
    dial turn as a scroll wheel (the board's udev rule) and a key press as a key."""
    steps.wait_until("libinput lists the board's devices with their capabilities",
                     "libinput list-devices", limit=20,
                     matches=[r"Device:\s+Reflex Virtual Touchscreen[\s\S]*?Capabilities:\s+touch",
                              r"Device:\s+Reflex Virtual Dial 1[\s\S]*?Capabilities:\s+pointer",
                              r"Device:\s+Reflex Virtual Dial 2[\s\S]*?Capabilities:\s+pointer",
                              r"Device:\s+Reflex Virtual Buttons[\s\S]*?Capabilities:\s+keyboard"])
    steps.run("libinput listens on the seat",
              "rm -f /tmp/keys.log; (libinput debug-events --show-keycodes >/tmp/keys.log 2>&1 &)")
    steps.wait_until("it has the dial and the buttons", "grep DEVICE_ADDED /tmp/keys.log", limit=20,
                     contains=["Reflex Virtual Dial 1", "Reflex Virtual Buttons"])
    dial = device_node("Reflex Virtual Dial 1")
    buttons = device_node("Reflex Virtual Buttons")
    steps.run("three detents clockwise on dial 1, then the shutter key",
              detents(dial, 3, 0.2) + "; " + key_tap(buttons, KEY_CAMERA))
    steps.wait_until("libinput saw three wheel detents and the shutter key",
                     "grep -c POINTER_SCROLL_WHEEL /tmp/keys.log; grep KEYBOARD_KEY /tmp/keys.log", limit=10,
                     matches=[r"^3$", r"KEY_CAMERA \(212\) pressed", r"KEY_CAMERA \(212\) released"])
    steps.run("stop listening", "pkill -f 'libinput debug-events'; true")


@scenario("touch-and-dials", limit=150)
def touch_and_dials(steps):
    """The camera answers its board's inputs: a tap on the Auto/Pro toggle (the virtual
    touchscreen, through libinput) enters Pro, the dials slide in and the mode is saved; three
    detents of the first dial raise the ISO three stops, which is saved and reaches the
    sensor's gain control; holding the zoom-in key magnifies the picture and shows the zoom on
    the HUD; a second tap goes back to Auto."""
    # Auto with the ISO automatic and the zoom at 1x: sensor-gain, before it, leaves Pro at
    # ISO 800 if it fails before putting Auto back.
    fresh_camera(steps)
    mode = "runuser -u reflex -- reflex settings get mode --state-dir /var/lib/reflex"
    steps.wait_until("the board's touchscreen and dials exist", "cat /sys/class/input/event*/device/name", limit=30,
                     contains=["Reflex Virtual Touchscreen", "Reflex Virtual Dial 1"])
    steps.wait_until("the camera shows its picture", SHOWN_LOG, limit=30,
                     contains=["display: first frame on the panel"])
    steps.run("it starts in Auto", mode, matches=[r"^auto$"])
    steps.run("a tap on the toggle", touch_tap(1172, 748))
    steps.wait_until("Pro is saved", mode, limit=10, matches=[r"^pro$"])
    (shot, width, height, pixel, bright_pixels), shown = screen_until(steps, "touch-pro", lambda pixel, bright_pixels, *_: [
        ("the PRO segment is lit amber", amber(pixel(1180, 748))),  # left of the word, inside the lit segment
        ("the ISO dial shows its value", bright_pixels(40, 680, 200, 40) > 100)])
    require(shown, "Pro's dials are not on screen",
            f"screendump {shot}: PRO segment {pixel(1180, 748)}, {bright_pixels(40, 680, 200, 40)} bright pixels on the ISO dial")
    dial = device_node("Reflex Virtual Dial 1")
    steps.run("three detents clockwise on the first dial, 0.2 s apart", detents(dial, 3, 0.2))
    steps.wait_until("ISO 200 is saved: three thirds of a stop above Auto's 100",
                     "runuser -u reflex -- reflex settings get iso --state-dir /var/lib/reflex", limit=10,
                     matches=[r"^200$"])
    steps.wait_until("and the sensor has it", REFLEX_LOG + " | tail -30", limit=20, contains=["manual ISO 200"])
    steps.run("vivid's gain is 200/100 x 16", "v4l2-ctl -d /dev/video0 --get-ctrl gain", contains=["gain: 32"])
    buttons = device_node("Reflex Virtual Buttons")
    steps.run("hold the zoom-in key for a second and a half", key_hold(buttons, KEY_ZOOMIN, 1.5))
    first_bar = lambda pixel, width, height: pixel(int(0.5 * width / 8), height // 2)
    (shot, width, height, pixel, bright_pixels), zoomed = screen_until(
        steps, "zoomed", lambda pixel, bright_pixels, width, height: [
            ("the zoom shows on the HUD", bright_pixels(376, 30, 100, 28) > 50),
            # A doubling a second: about 2.8x. How far depends on how the emulated machine
            # timed the press and the release: any bar but the white one.
            ("the picture is magnified: a colour bar where vivid's white one was",
             min(first_bar(pixel, width, height)) < 100 and max(first_bar(pixel, width, height)) > 150)])
    require(zoomed, "the zoom key did not zoom", f"screendump {shot}: {bright_pixels(376, 30, 100, 28)} bright pixels "
            f"in the zoom column, {first_bar(pixel, width, height)} at the left")
    steps.run("zoom back out: the volume-down key held 3 s", key_hold(buttons, KEY_VOLUMEDOWN, 3))
    steps.run("a second tap on the toggle", touch_tap(1172, 748))
    steps.wait_until("Auto is saved", mode, limit=10, matches=[r"\Aauto\s*\Z"])
    steps.run("and the manual ISO went with Pro",
              "runuser -u reflex -- reflex settings get iso --state-dir /var/lib/reflex", matches=[r"\Aauto\s*\Z"])


ISO_STOPS = [100, 125, 160, 200, 250, 320, 400, 500, 640, 800, 1000, 1250, 1600, 2000, 2500, 3200, 6400, 12800]


@scenario("controls", limit=360)
def controls(steps):
    """The controls issue on the board: the quick menu opened by the Menu key (the board's
    controls.conf), the first dial changes the format; opened by touch, a tap on the format's
    value steps it, and a screendump shows it; a tap on the picture in Auto draws the metering
    box there; in Pro the real one-finger drag recording on the ISO dial moves it, N slow
    detents are N stops, a fast spin stops at the bound and the vibrator bumps; and the
    camera's statistics give the wait from an input to the flip that shows it."""
    # JPEG, Auto with the ISO automatic, the zoom at 1x: touch-and-dials, before it, changes
    # all three and puts them back only if it passes (the zoom by holding a key for a while).
    fresh_camera(steps)
    setting = "runuser -u reflex -- reflex settings get {} --state-dir /var/lib/reflex"
    vibrator = "journalctl -b -u reflex-virtual-inputs -o cat --no-pager | grep '^vibrator:'"
    steps.wait_until("the camera shows its picture", SHOWN_LOG, limit=60,
                     contains=["display: first frame on the panel"])
    steps.run("the board's controls come from its controls.conf", REFLEX_LOG + " | grep 'board: controls'",
              contains=["board: controls from /etc/reflex/board/controls.conf"])
    steps.wait_until("the camera found the vibrator", REFLEX_LOG + " | grep 'haptics:' | tail -1", limit=90,
                     contains=["4 effects loaded"])
    buttons = device_node("Reflex Virtual Buttons")
    dial = device_node("Reflex Virtual Dial 1")
    steps.run("JPEG to start with", setting.format("format"), matches=[r"\Ajpeg\s*\Z"])
    steps.run("the Menu key", key_tap(buttons, KEY_MENU))
    (shot, width, height, pixel, bright_pixels), opened = screen_until(steps, "controls-menu-key", lambda pixel, *_: [
        ("the menu's button is lit", amber(pixel(24, 84))), ("its panel is over the picture", max(pixel(*MENU_INSIDE)) < 60)])
    require(opened, "the Menu key did not open the quick menu", f"screendump {shot}: {pixel(24, 84)}, {pixel(*MENU_INSIDE)}")
    steps.run("one detent of the first dial", detents(dial, 1, 0))
    steps.wait_until("the format is RAW, saved", setting.format("format"), limit=15, matches=[r"\Araw\s*\Z"])
    steps.run("the Menu key again", key_tap(buttons, KEY_MENU))
    steps.run("a tap on the menu's button", touch_tap(*MENU_BUTTON))
    steps.run("a tap on the format's value (its right half)", touch_tap(*MENU_FORMAT_FORWARD))
    steps.wait_until("the format is RAW+JPEG, saved", setting.format("format"), limit=15, matches=[r"\Araw\+jpeg\s*\Z"])
    (shot, width, height, pixel, bright_pixels), shown = screen_until(steps, "controls-menu-touch", lambda pixel, *_: [
        ("the menu is open", amber(pixel(24, 84))),
        ("the format's value is written in the highlight's amber", amber_pixels(pixel, 330, 140, 200, 32) > 20)])
    require(shown, "the menu opened by touch is not on screen", f"screendump {shot}")
    steps.run("and again: back to JPEG", touch_tap(*MENU_FORMAT_FORWARD))
    steps.wait_until("JPEG again", setting.format("format"), limit=15, matches=[r"\Ajpeg\s*\Z"])
    steps.run("a tap outside the menu closes it", touch_tap(900, 420))
    (shot, width, height, pixel, bright_pixels), closed = screen_until(steps, "controls-menu-closed", lambda pixel, *_: [
        ("the button is dark again", not amber(pixel(24, 84)))])
    require(closed, "the menu did not close", f"screendump {shot}")
    # A tap on the picture in Auto: the metering box where the finger was.
    box_edge = lambda px, bp: bp(262, 356, 4, 110) + bp(378, 356, 4, 110)
    before = box_edge(pixel, bright_pixels)
    steps.run("a tap on the picture, left of centre", touch_tap(320, 412))
    (shot, width, height, pixel, bright_pixels), boxed = screen_until(steps, "controls-metering", lambda pixel, bright_pixels, *_: [
        ("the box's sides are drawn round the tap", box_edge(pixel, bright_pixels) > before + 60)])
    require(boxed, "no metering box where the tap was",
            f"screendump {shot}: {before} → {box_edge(pixel, bright_pixels)} bright pixels on the box's sides")
    # Pro: slow detents, the real drag on the ISO dial, a spin to the bound.
    steps.run("a tap on the toggle: Pro", touch_tap(1172, 748))
    steps.wait_until("Pro", setting.format("mode"), limit=10, matches=[r"\Apro\s*\Z"])
    steps.run("one detent: the dial leaves Auto a stop from the metered ISO", detents(dial, 1, 0))
    first = int(re.findall(r"\d+", steps.wait_until("a manual ISO", setting.format("iso"), limit=15,
                                                     matches=[r"\A\d+\s*\Z"]))[0])
    expected = ISO_STOPS[ISO_STOPS.index(first) + 3]
    # (The first of them a third of a second after the detent before, too: a slow turn.)
    steps.run("three slow detents, a third of a second apart", "sleep 0.35; " + detents(dial, 3, 0.35))
    steps.wait_until(f"exactly three stops more: ISO {expected}", setting.format("iso"), limit=15,
                     matches=[rf"\A{expected}\s*\Z"])
    panel = device_node("Reflex Virtual Touchscreen")
    drag = drag_recording_on(150, 780)
    steps.run(f"the real drag recording's upward stroke ({len(drag)} events) on the ISO dial", play(panel, drag), timeout=60)
    iso_now = lambda what: int(re.findall(r"\d+", steps.run(what, setting.format("iso"), matches=[r"\A\d+\s*\Z"]))[0])
    deadline = time.monotonic() + 15
    while (iso := iso_now("the ISO after the drag")) <= expected and time.monotonic() < deadline:
        time.sleep(0.5)
    require([("the drag moved the ISO dial up", iso > expected)], "the drag did not move the ISO dial",
            f"ISO {iso} after the drag")
    bumps = vibrator + " | grep -c 'played effect [0-9]*: strong 49152 weak 65535'; true"
    felt = lambda what: int(re.findall(r"^\d+", steps.run(what, bumps), re.M)[0])
    played = felt("bumps felt so far")
    steps.run("a fast spin of 30 detents", detents(dial, 30, 0.02))
    deadline = time.monotonic() + 15
    while (now_played := felt("the bound is felt: the vibrator's bump")) <= played:
        require([("a bump within 15 s", time.monotonic() < deadline)], "no bump at the ISO dial's bound",
                f"{played} bumps before the spin, {now_played} after; the vibrator's last words:\n"
                + steps.run("the vibrator's log", vibrator + " | tail -5; " + REFLEX_LOG + " | tail -5"))
        time.sleep(0.5)
    top = steps.run("the ISO at the bound", setting.format("iso")).strip()
    played = felt("bumps felt so far")
    steps.run("one more detent", detents(dial, 1, 0))
    # Refused at the bound, it bumps: once that is felt, the camera has had the detent.
    steps.wait_until("it is felt: a bump", bumps, limit=15, matches=[rf"^(?!{played}$)\d+$"])
    steps.run("the ISO stays at the bound", setting.format("iso"), matches=[rf"\A{top}\s*\Z"])
    steps.run("a tap on the toggle: back to Auto", touch_tap(1172, 748))
    steps.wait_until("Auto", setting.format("mode"), limit=10, matches=[r"\Aauto\s*\Z"])
    latency = steps.wait_until("the wait from input to screen, in the camera's statistics",
                               REFLEX_LOG + " | grep 'input to screen' | tail -1", limit=45,
                               matches=[r"input to screen over \d+ events: p50 [\d.]+ ms, p99 [\d.]+ ms"])
    print("    " + re.search(r"input to screen over[^,]*, p99 [\d.]+ ms, max [\d.]+ ms", latency).group(0))


@scenario("haptics", limit=150)
def haptics(steps):
    """The board's vibrator (a uinput force-feedback device answering uploads as a driver
    does: Board/qemu-x86_64/virtual-vibrator) is found by its capability and loaded with the
    camera's four effects once; the hand then feels a confirmation when Pro is switched on, a
    tick for a dial's detent, and the shutter's pulse for the shutter key. The vibrator says
    in the journal each effect it is asked to play."""
    vibrator = "journalctl -b -u reflex-virtual-inputs -o cat --no-pager | grep '^vibrator:'"
    steps.wait_until("the camera shows its picture", SHOWN_LOG, limit=60,
                     contains=["display: first frame on the panel"])
    steps.wait_until("the camera found the vibrator by its capability", REFLEX_LOG + " | grep 'haptics:' | tail -1",
                     limit=30, matches=[r"vibrator “Reflex Virtual Vibrator” at /dev/input/event\d+, 4 effects loaded"])
    steps.run("the vibrator holds the camera's effects", vibrator,
              matches=[r"uploaded: strong 0 weak 36864 for 12 ms", r"uploaded: strong 49152 weak 65535 for 45 ms",
                       r"uploaded: strong 32768 weak 32768 for 30 ms", r"uploaded: strong 65535 weak 24576 for 20 ms"])
    dial = device_node("Reflex Virtual Dial 1")
    buttons = device_node("Reflex Virtual Buttons")
    mode = "runuser -u reflex -- reflex settings get mode --state-dir /var/lib/reflex"
    for what, action, felt in [
            ("a tap on the toggle: Pro", touch_tap(1172, 748), r"strong 32768 weak 32768 for 30 ms"),
            ("one detent of the first dial", detents(dial, 1, 0), r"strong 0 weak 36864 for 12 ms"),
            ("the shutter key",
             key_tap(buttons, KEY_CAMERA), r"strong 65535 weak 24576 for 20 ms"),
            ("a tap on the toggle: back to Auto", touch_tap(1172, 748), r"strong 32768 weak 32768 for 30 ms")]:
        count = int(re.findall(r"^\d+", steps.run("effects played so far", vibrator + " | grep -c played; true"), re.M)[0])
        steps.run(what, action)
        steps.wait_until("it is felt", vibrator + f" | grep played | tail -n +{count + 1}", limit=10,
                         matches=[r"played effect \d+: " + felt])
    steps.wait_until("Auto again, for the other scenarios", mode, limit=10, matches=[r"\Aauto\s*\Z"])
