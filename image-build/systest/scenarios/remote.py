"""The remote over the camera's own Wi-Fi: two radios from the kernel's mac80211_hwsim, the
camera's network on one, a phone in a network namespace on the other."""
import re
import subprocess
import time

from ..camera import REFLEX_LOG, SHOWN_LOG
from ..inputs import MENU_BUTTON, MENU_REMOTE_FORWARD, touch_tap
from ..pixels import screendump
from ..steps import paced, require, scenario

PHONE = "ip netns exec phone "
URL = "http://192.168.4.1:8080"
# The phone's DHCP client: busybox's udhcpc; the address it is lent put on its radio.
DHCP = (PHONE + "busybox udhcpc -i wlan1 -n -q -t 10 -s /bin/true 2>&1 | tee /run/phone-dhcp.log; "
        "lease=$(sed -n 's/.*lease of \\([0-9.]*\\) obtained.*/\\1/p' /run/phone-dhcp.log); "
        + PHONE + "ip address add \"$lease/24\" dev wlan1; " + PHONE + "ip -4 -br address show wlan1")
# The live view as the page takes it: a WebSocket opened with the pairing's cookie, three
# binary frames read; prints the answer's status line and each frame's size and first bytes.
LIVE_FRAMES = r'''
import base64, os, socket, struct, sys
cookie = next(line.split("\t")[-1].strip() for line in open("/run/phone-cookies") if "\treflex_token\t" in line)
connection = socket.create_connection(("192.168.4.1", 8080), timeout=30)
key = base64.b64encode(os.urandom(16)).decode()
connection.sendall(("GET /live HTTP/1.1\r\nHost: 192.168.4.1:8080\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                    f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nCookie: reflex_token={cookie}\r\n\r\n").encode())
buffer = b""
def take(count):
    global buffer
    while len(buffer) < count:
        chunk = connection.recv(65536)
        if not chunk:
            sys.exit("closed")
        buffer += chunk
    part, buffer = buffer[:count], buffer[count:]
    return part
while b"\r\n\r\n" not in buffer:
    buffer += connection.recv(4096)
head, buffer = buffer.split(b"\r\n\r\n", 1)
print(head.split(b"\r\n")[0].decode())
frames = 0
while frames < 3:
    first, second = take(2)
    length = second & 0x7F
    if length == 126:
        length = struct.unpack(">H", take(2))[0]
    elif length == 127:
        length = struct.unpack(">Q", take(8))[0]
    payload = take(length)
    if first & 0x0F == 2:
        frames += 1
        print(f"frame binary {length} {payload[:2].hex()}")
'''


def read_codes(shot):
    """The QR codes zbarimg reads off a screendump (on the host, as a phone's camera would)."""
    run = subprocess.run(["zbarimg", "--raw", "-q", shot], capture_output=True, text=True)
    return run.stdout.split("\n")[:-1] if run.returncode == 0 else []


def join_with(name, passphrase, log):
    """Shell: the phone's wpa_supplicant started on its radio for `name` with `passphrase`
    (WPA2 or WPA3, as a phone offers both), its log in `log`."""
    config = ("ctrl_interface=/run/phone-wpa\\nnetwork={\\n ssid=\"%s\"\\n psk=\"%s\"\\n key_mgmt=WPA-PSK SAE\\n"
              " ieee80211w=1\\n}\\n")
    return (f"printf '{config}' '{name}' '{passphrase}' > /run/phone-wpa.conf && " + PHONE
            + f"wpa_supplicant -B -i wlan1 -c /run/phone-wpa.conf -P /run/phone-wpa.pid -f {log}")


def curl(arguments):
    return PHONE + f"curl -s -b /run/phone-cookies {arguments}"


@scenario("remote-wifi", limit=420)
def remote_wifi(steps):
    """The quick menu's Remote on the QEMU board (Board/qemu-x86_64/remote.conf): Off, no radio
    is up and no port open; On, the camera asks reflex-network.service for its network, which
    runs hostapd and dnsmasq on wlan0, and its screen shows two QR codes that zbarimg reads
    off a screendump: the network to join (WIFI:…) and the page with the pairing code. A phone
    (wlan1's radio moved into a network namespace, wpa_supplicant, busybox's DHCP client,
    curl, a WebSocket from Python) does not join with a wrong passphrase, joins with the one on
    the screen, gets an address, pairs with the code from the screen, receives live-view JPEG
    frames, fires the shutter, finds the photo in the card's index and downloads it whole. Off
    again: the service ends, no hostapd, no listening socket, the radio down."""
    steps.wait_until("the camera shows its picture", SHOWN_LOG, limit=60, contains=["display: first frame on the panel"])
    steps.run("two radios: the camera's wlan0, the phone's wlan1", "iw dev | grep Interface", contains=["wlan0", "wlan1"])
    steps.run("the camera's request is watched", "systemctl is-active reflex-network.path", contains=["active"])
    off = "ip -br link show wlan0; ss -Hltn; pgrep -x hostapd || echo no hostapd; pgrep -x dnsmasq || echo no dnsmasq"
    steps.run("Remote off: the radio down, no port open, nothing running", off,
              matches=[r"^wlan0\s+DOWN"], contains=["no hostapd", "no dnsmasq"], excludes=[":8080"])
    steps.run("the menu, Remote's value", touch_tap(*MENU_BUTTON) + "; sleep 1; " + touch_tap(*MENU_REMOTE_FORWARD))
    served = steps.wait_until("the network up and the page served", REFLEX_LOG + " | grep 'remote:'", limit=150,
                              matches=[r"remote: serving http://192\.168\.4\.1:8080/ .*a phone pairs with the code \d{6}"])
    steps.run("the network's service runs hostapd and dnsmasq", "systemctl is-active reflex-network; cat /run/reflex-network/state;"
              " pgrep -x hostapd >/dev/null && echo hostapd; pgrep -x dnsmasq >/dev/null && echo dnsmasq; ss -Hltn",
              contains=["active", "hostapd", "dnsmasq", "192.168.4.1:8080"], matches=[r"^up Reflex-[0-9A-F]{4}$"])
    steps.run("the camera itself holds no right over the network",
              "grep ^CapEff /proc/$(systemctl show -p MainPID --value reflex)/status", matches=[r"CapEff:\s+0+$"])
    # The codes on the camera's screen, read as a phone's camera reads them.
    started, codes, shot = time.monotonic(), [], ""
    while time.monotonic() < min(started + paced(30), steps.deadline):
        shot = screendump(steps, "remote-sheet")[0]
        codes = read_codes(shot)
        if len(codes) == 2:
            break
        time.sleep(1)
    steps.note_time(started, "the screen's QR codes")
    join = next((c for c in codes if c.startswith("WIFI:")), "")
    page = next((c for c in codes if c.startswith("http://")), "")
    found = re.fullmatch(r"WIFI:T:WPA;S:(Reflex-[0-9A-F]{4});P:([a-z0-9-]{14});;", join)
    paired = re.fullmatch(r"http://192\.168\.4\.1:8080/#code=(\d{6})", page)
    require([("the network's QR code", found is not None), ("the page's QR code with the pairing code", paired is not None)],
            "the camera's screen does not show both codes", f"screendump {shot}: zbarimg read {codes}")
    name, passphrase, code = found.group(1), found.group(2), paired.group(1)
    require([("the code on the screen is the one the camera pairs with", code in served)],
            "the screen's code is not the log's", f"{code} vs {served[-300:]}")
    print(f"    on the screen: {name}, passphrase {passphrase}, code {code}")

    steps.run("the phone: wlan1's radio in a network namespace of its own",
              "ip netns add phone && iw phy $(cat /sys/class/net/wlan1/phy80211/name) set netns name phone && "
              + PHONE + "ip link set wlan1 up")
    steps.run("a wrong passphrase", join_with(name, "wrong-pass-word", "/run/phone-wpa-wrong.log"))
    steps.wait_until("is refused", "cat /run/phone-wpa-wrong.log", limit=60,
                     matches=[r"WRONG_KEY|4-Way Handshake failed|CTRL-EVENT-SSID-TEMP-DISABLED"])
    steps.run("and does not join", PHONE + "iw dev wlan1 link; kill $(cat /run/phone-wpa.pid)", contains=["Not connected"])
    steps.run("the passphrase on the screen", "sleep 1; " + join_with(name, passphrase, "/run/phone-wpa.log"))
    steps.wait_until("joins the camera's network", PHONE + "iw dev wlan1 link", limit=60, contains=[f"SSID: {name}"])
    steps.run("and is lent an address", DHCP, matches=[r"lease of 192\.168\.4\.(1\d|[2-5]\d|60) obtained from 192\.168\.4\.1",
                                                       r"wlan1\s+UP\s+192\.168\.4\.(1\d|[2-5]\d|60)/24"], timeout=60)
    steps.run("the page, to a phone not yet paired", PHONE + f"curl -s -o /dev/null -w '%{{http_code}}' {URL}/api/status",
              contains=["401"])
    steps.run("pairs with the code from the screen", PHONE + f"curl -s -c /run/phone-cookies -d code={code} {URL}/api/pair;"
              " echo; grep -c reflex_token /run/phone-cookies", matches=[r'^\{"paired":true\}$', r"^1$"])
    steps.run("the live view's frames over the WebSocket", PHONE + "python3 - <<'EOF'\n" + LIVE_FRAMES + "EOF",
              contains=["101 Switching Protocols"], matches=[r"(frame binary \d+ ffd8\s*){3}"], timeout=60)
    before = set(re.findall(r"RFLX\d{4}\.JPG", steps.run("the card's index", curl(f"{URL}/api/items"))))
    steps.run("the shutter from the phone", curl(f"-d action=shutter -d pressed=1 {URL}/api/control") + "; "
              + curl(f"-d action=shutter -d pressed=0 {URL}/api/control"))
    deadline = time.monotonic() + paced(90)
    photos = set()
    while not photos - before and time.monotonic() < min(deadline, steps.deadline):
        photos = set(re.findall(r"RFLX\d{4}\.JPG", steps.run("the photo in the index", curl(f"{URL}/api/items"))))
        time.sleep(1)
    require([("a new JPEG in the card's index", photos - before)], "the phone's shutter made no photo", f"{before} → {photos}")
    photo = sorted(photos - before)[-1]
    steps.run("downloaded whole", curl(f"-o /run/phone-photo.jpg {URL}/card/100REFLX/{photo}") + "; "
              "python3 -c \"d=open('/run/phone-photo.jpg','rb').read(); print(len(d), d[:2].hex(), d[-2:].hex())\"",
              matches=[r"^\d{5,} ffd8 ffd9$"], timeout=60)

    # (The shutter closed the menu and its sheet, as any camera's does.)
    steps.run("the menu again, Remote's value off, the menu closed",
              touch_tap(*MENU_BUTTON) + "; sleep 1; " + touch_tap(*MENU_REMOTE_FORWARD) + "; sleep 1; " + touch_tap(900, 420))
    steps.wait_until("the network's service ends", "systemctl is-active reflex-network || true", limit=60,
                     matches=[r"^inactive$"])
    steps.run("Remote off again: the radio down, no port open, nothing running", off,
              matches=[r"^wlan0\s+DOWN"], contains=["no hostapd", "no dnsmasq"], excludes=[":8080"])
    steps.run("the phone put away", "kill $(cat /run/phone-wpa.pid) 2>/dev/null; ip netns del phone; sleep 1; iw dev | grep Interface",
              contains=["wlan1"])
