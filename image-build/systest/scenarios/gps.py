"""GPS: geotagging from the board's gpsd, fed a real receiver's NMEA log."""
import json
import os
import re
import shutil
import subprocess

import rig

from ..camera import REFLEX_LOG, SHOWN_LOG
from ..inputs import MENU_BUTTON, MENU_GEOTAG_FORWARD, touch_tap
from ..pixels import amber, screen_until
from ..steps import RESULTS, indent, require, scenario


CONSENT_ALLOW = (432, 744)
CONSENT_DENY = (160, 744)
# gpsd's reports in the guest, for a few seconds or until one has a 3D fix: what a client of
# the board's gpsd sees.
GPSD_REPORTS = """python3 - <<'EOF'
import socket, time
connection = socket.create_connection(("127.0.0.1", 2947), timeout=5)
connection.sendall(b'?WATCH={"enable":true,"json":true}\\n')
received, until = b"", time.time() + 4
while time.time() < until and b'"class":"TPV","device":"/dev/ttyS2","mode":3' not in received:
    try:
        received += connection.recv(65536)
    except socket.timeout:
        break
print("\\n".join(line for line in received.decode(errors="replace").splitlines() if '"TPV"' in line or "DEVICES" in line))
EOF"""


def nmea_positions(path):
    """Every position an NMEA log states (GGA, RMC, GLL; valid or not), as signed degrees."""
    def degrees(value, hemisphere, digits):
        magnitude = float(value[:digits]) + float(value[digits:]) / 60
        return -magnitude if hemisphere in ("S", "W") else magnitude
    positions = []
    with open(path, encoding="latin-1") as log:
        for line in log:
            fields = line.strip().split(",")
            start = {"GGA": 2, "RMC": 3, "GLL": 1}.get(fields[0][-3:])
            if start is None or len(fields) <= start + 3:
                continue
            try:
                positions.append((degrees(fields[start], fields[start + 1], 2), degrees(fields[start + 2], fields[start + 3], 3)))
            except ValueError:
                continue
    return positions


def exif_gps(path):
    """The GPS tags exiftool reads in a file, numbers as numbers ({} without any)."""
    run = subprocess.run(["exiftool", "-n", "-j", "-gps:all", path], capture_output=True, text=True)
    tags = (json.loads(run.stdout) or [{}])[0] if run.stdout.strip() else {}
    tags.pop("SourceFile", None)
    return tags


@scenario("geotag", limit=300)
def geotag(steps):
    """Geotagging on the board: its gpsd (Board/qemu-x86_64/default/gpsd) reads the GPS
    receiver's UART, ttyS2, which the host feeds with a real receiver's NMEA log; the first
    switch-on in the quick menu shows the consent screen (screendump), Allow turns geotag on
    and remembers the consent, the camera asks gpsd and the GPS icon shows; a shot then carries
    the log's position, read back on the host with exiftool; turned off, the next shot has
    no GPS tags at all."""
    setting = "runuser -u reflex -- reflex settings get {} --state-dir /var/lib/reflex"
    steps.wait_until("the camera shows its picture", SHOWN_LOG, limit=60,
                     contains=["display: first frame on the panel"])
    steps.run("gpsd runs on the board, on its receiver's UART", "systemctl is-active gpsd; grep ^DEVICES /etc/default/gpsd",
              contains=["active", 'DEVICES="/dev/ttyS2"'])
    steps.wait_until("gpsd has a 3D fix from the serial receiver", GPSD_REPORTS, limit=90,
                     matches=[r'"class":"TPV","device":"/dev/ttyS2","mode":3'])
    steps.run("geotag is off on a first start, gpsd not asked", setting.format("geotag")
              + "; " + REFLEX_LOG + " | grep 'gps:'", matches=[r"\Aoff\s*$", r"geotag off \(gpsd is not asked\)"])
    steps.run("a tap on the menu's button", touch_tap(*MENU_BUTTON))
    steps.run("a tap on Geotag's value", touch_tap(*MENU_GEOTAG_FORWARD))
    (shot, width, height, pixel, bright_pixels), shown = screen_until(
        steps, "geotag-consent", lambda pixel, bright_pixels, *_: [
            ("the consent screen's Allow is drawn in the accent", amber(pixel(330, 730))),
            ("its Don't allow beside it is not", not amber(pixel(60, 730))),
            ("its explanation is written", bright_pixels(40, 150, 440, 180) > 400)])
    require(shown, "no consent screen on the first switch-on", f"screendump {shot}: {pixel(330, 730)}, {pixel(60, 730)}")
    steps.run("nothing is on before an answer", setting.format("geotag"), matches=[r"\Aoff\s*\Z"])
    steps.run("a tap on Allow", touch_tap(*CONSENT_ALLOW))
    steps.wait_until("geotag on and the consent remembered", setting.format("geotag") + "; " + setting.format("geotag-consent"),
                     limit=15, matches=[r"\Aon\s+on\s*\Z"])
    steps.wait_until("the camera asks the board's gpsd", REFLEX_LOG + " | grep 'gps:' | tail -3", limit=30,
                     contains=["gps: connected to gpsd at 127.0.0.1:2947"])
    steps.run("a tap outside the menu closes it", touch_tap(900, 420))
    (shot, width, height, pixel, bright_pixels), shown = screen_until(
        steps, "geotag-icon", lambda pixel, bright_pixels, *_: [
            ("the GPS icon is drawn left of the format badge", bright_pixels(1130, 8, 56, 48) > 40)])
    require(shown, "no GPS icon while geotagging",
            f"screendump {shot}: {bright_pixels(1130, 8, 56, 48)} bright pixels where the icon is")
    folder = os.path.join(RESULTS, "geotag-card")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    positions = nmea_positions(rig.GPS_LOG)
    asked = steps.run("a shot with geotag on", "reflex capture --state-dir /var/lib/reflex --format jpeg",
                      matches=[r"/media/card/DCIM/100REFLX/RFLX\d{4}.JPG"], timeout=90)
    name = re.search(r"(RFLX\d{4}).JPG", asked).group(1)
    steps.run("the card's writes are on the disk", "sync /media/card/DCIM/100REFLX/*")
    tagged = rig.copy_from_card(steps.machine.card, f"::DCIM/100REFLX/{name}.JPG", os.path.join(folder, name + ".JPG"))
    tags = exif_gps(tagged)
    latitude = tags.get("GPSLatitude", 0) * (-1 if tags.get("GPSLatitudeRef") == "S" else 1)
    longitude = tags.get("GPSLongitude", 0) * (-1 if tags.get("GPSLongitudeRef") == "W" else 1)
    require([("the shot carries GPS coordinates", "GPSLatitude" in tags and "GPSLongitude" in tags),
             ("the log's position, to the 1/10000 s of arc the tags carry",
              any(abs(a - latitude) < 1e-7 and abs(b - longitude) < 1e-7 for a, b in positions)),
             ("with the fix's UTC date and time", "GPSDateStamp" in tags and "GPSTimeStamp" in tags)],
            "the geotagged shot does not carry the receiver's position", f"{tagged}: {tags}")
    print(f"    {name}.JPG: {latitude:.7f}, {longitude:.7f}, altitude {tags.get('GPSAltitude')} m, "
          f"{tags.get('GPSDateStamp')} {tags.get('GPSTimeStamp')} UTC")
    steps.run("the menu again, Geotag's value: off", touch_tap(*MENU_BUTTON) + "; sleep 1; " + touch_tap(*MENU_GEOTAG_FORWARD)
              + "; sleep 1; " + touch_tap(900, 420))
    steps.wait_until("geotag off (no question: it was allowed)", setting.format("geotag"), limit=15,
                     matches=[r"\Aoff\s*\Z"])
    asked = steps.run("a shot with geotag off", "reflex capture --state-dir /var/lib/reflex --format jpeg",
                      matches=[r"/media/card/DCIM/100REFLX/RFLX\d{4}.JPG"], timeout=90)
    name = re.search(r"(RFLX\d{4}).JPG", asked).group(1)
    steps.run("the card's writes are on the disk", "sync /media/card/DCIM/100REFLX/*")
    untagged = rig.copy_from_card(steps.machine.card, f"::DCIM/100REFLX/{name}.JPG", os.path.join(folder, name + ".JPG"))
    everything = subprocess.run(["exiftool", "-a", "-G1", "-s", untagged], capture_output=True, text=True).stdout
    require([("no GPS tag anywhere in it", "GPS" not in everything)], "a shot with geotag off carries GPS tags",
            indent(everything, 1500))
