"""Movies: a recording with sound, read on the host; a recording cut by a hard stop."""
import json
import os
import re
import shutil
import subprocess
import time

import rig

from ..camera import REFLEX_LOG, SHOWN_LOG, wait_for_card, wait_for_reflex
from ..inputs import KEY_RECORD, device_node, key_tap
from ..pixels import screen_until
from ..steps import RESULTS, require, scenario


MOVIE_SAVED = r"movie (RFLX\d{4}): ([\d.]+) s, (\d+) frames, (\d+) dropped"


def probe_movie(path):
    """What ffprobe, on the host, reads of a movie: its streams, and the video frames it decodes."""
    probe = subprocess.run(["ffprobe", "-v", "error", "-count_frames", "-show_entries",
                            "stream=codec_type,codec_name,width,height,sample_rate,nb_read_frames", "-of", "json", path],
                           capture_output=True, text=True)
    streams = json.loads(probe.stdout or "{}").get("streams", []) if probe.returncode == 0 else []
    return {stream["codec_type"]: stream for stream in streams}, probe.stderr


def loudness(path):
    """The sound track's mean volume (dB), as ffmpeg's volumedetect measures it."""
    run = subprocess.run(["ffmpeg", "-v", "info", "-nostats", "-i", path, "-map", "0:a", "-af", "volumedetect", "-f", "null", "-"],
                         capture_output=True, text=True)
    match = re.search(r"mean_volume: (-?[\d.]+) dB", run.stderr)
    return float(match.group(1)) if match else None


@scenario("movie", limit=600)
def movie(steps):
    """Movies: the board's record key (a uinput KEY_RECORD) starts a recording of vivid's
    stream and the emulated microphone (an HDA codec hearing a 1 kHz tone from the host), the
    top bar shows the red dot, the key again stops it; on the host ffprobe reads H.264 at the
    board's 720p and AAC at 48 kHz, every frame decodes, and the sound track carries the tone.
    Then a recording cut by a hard stop (QMP quit): after the next boot the camera's card check
    shows the movie, cut to its last whole second, and the host plays it."""
    machine = steps.machine
    folder = os.path.join(RESULTS, "movie")
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    steps.wait_until("the camera shows its picture", SHOWN_LOG, limit=60, contains=["display: first frame on the panel"])
    steps.run("the board has a microphone (ALSA's capture devices)", "arecord -l", matches=[r"card \d+: .*device \d+"])
    steps.run("it hears the host's tone (2 s through ALSA's default device)",
              "arecord -q -D default -d 2 -f S16_LE -r 48000 -c 1 -t raw /tmp/mic.raw && python3 -c \""
              "import array, math; a = array.array('h', open('/tmp/mic.raw', 'rb').read()[48000:]);"
              " print('rms', int(math.sqrt(sum(x * x for x in a) / max(len(a), 1))))\"",
              matches=[r"rms ([3-9]\d{2}|\d{4,})"])
    buttons = device_node("Reflex Virtual Buttons")
    saved = REFLEX_LOG + " | grep -E 'movie RFLX[0-9]{4}: [0-9.]+ s, [0-9]+ frames'"
    before = len(re.findall(MOVIE_SAVED, steps.run("movies so far", saved + "; true")))
    steps.run("the record key", key_tap(buttons, KEY_RECORD))
    steps.wait_until("a recording starts, with sound", REFLEX_LOG + " | grep 'recording,' | tail -1", limit=30,
                     matches=[r"movie RFLX\d{4}: recording, .* left on the card, sound from default"])
    recording = time.monotonic()
    red = lambda pixel: sum(1 for y in range(12, 52, 2) for x in range(600, 1120, 2)
                            if pixel(x, y)[0] > 200 and pixel(x, y)[1] < 100 and pixel(x, y)[2] < 100)
    (shot, width, height, pixel, bright_pixels), shown = screen_until(steps, "movie-recording", lambda pixel, *_: [
        ("the red dot in the top bar", red(pixel) >= 20)])
    require(shown, "no recording shown", f"screendump {shot}: {red(pixel)} red pixels in the top bar")
    # The movie's length: the key again 7 s after the log said it records.
    time.sleep(max(0, recording + 7 - time.monotonic()))
    steps.run("the record key again", key_tap(buttons, KEY_RECORD))
    steps.wait_until("the movie is finished and named", saved + " | wc -l", limit=60, matches=[rf"^{before + 1}$"])
    log = steps.run("its line in the log", saved + " | tail -1", matches=[MOVIE_SAVED])
    name, seconds, frames, dropped = re.findall(MOVIE_SAVED, log)[-1]
    # (The length is the keys' times as the emulated machine took them: about 7 s, more on a
    # busy host, so only a movie shorter than the keys were apart fails: part of it was lost;
    # its length is printed below. Under TCG libx264 can fall a frame or two behind: said, not
    # failed; the native benchmark holds the 0-dropped target.)
    require([("at least 5 s long (the keys were about 7 s apart)", 5 <= float(seconds))], "the recording", log)
    steps.run("the card's writes are on the disk", "sync /media/card/DCIM/100REFLX/*")
    local = rig.copy_from_card(machine.card, f"::DCIM/100REFLX/{name}.MP4", os.path.join(folder, name + ".MP4"))
    streams, errors = probe_movie(local)
    video, audio = streams.get("video", {}), streams.get("audio", {})
    volume = loudness(local)
    require([("H.264 video", video.get("codec_name") == "h264"),
             ("at 1280x720", (video.get("width"), video.get("height")) == (1280, 720)),
             ("every frame decodes", str(video.get("nb_read_frames")) == frames),
             ("AAC sound", audio.get("codec_name") == "aac"), ("at 48 kHz", audio.get("sample_rate") == "48000"),
             ("the tone is in it", volume is not None and volume > -40)],
            "ffprobe on the host", f"{local}: {json.dumps(streams)} {errors}; mean volume {volume} dB")
    print(f"    {name}.MP4: {seconds} s, {frames} frames of H.264 {video.get('width')}x{video.get('height')} "
          f"({dropped} dropped by the encoder), AAC {audio.get('sample_rate')} Hz at {volume} dB")

    # A hard stop mid-recording.
    steps.run("the record key, for a recording the power will cut", key_tap(buttons, KEY_RECORD))
    started = steps.wait_until("it records", REFLEX_LOG + " | grep 'recording,' | sed -n 2p", limit=30,
                               matches=[r"movie RFLX\d{4}: recording"])
    cut_recording = re.search(r"movie (RFLX\d{4}): recording", started).group(1)
    # Two fragments written (each synced as it ends, so the first is surely on the card): what
    # the cut must keep. (A fixed few seconds left nothing whole on a slow host: a frame a
    # second, and the first fragments come late.)
    steps.wait_until("two of its fragments are written",
                     f"cat /media/card/DCIM/100REFLX/*{cut_recording}.MP4* | grep -ao moof | wc -l",
                     limit=90, matches=[r"^([2-9]|\d\d+)$"])
    machine.quit_hard()
    hidden = [n for n in rig.card_files(machine.card) if n.endswith(".MP4")]
    booting = time.monotonic()
    machine.start()
    machine.wait_for_agent()
    wait_for_reflex(machine)
    steps.note_time(booting, "the machine boots again, until the camera runs")
    recovered = steps.wait_until("the card's check keeps the interrupted movie", REFLEX_LOG + " | grep 'was interrupted'",
                                 limit=90, matches=[r"movies: /media/card/DCIM/100REFLX/(RFLX\d{4}).MP4 was interrupted"])
    cut_name = re.search(r"(RFLX\d{4}).MP4 was interrupted", recovered).group(1)
    steps.run("the card unmounted for a look from the host", "systemctl stop reflex-card; ! mountpoint -q /media/card")
    try:
        cut = rig.copy_from_card(machine.card, f"::DCIM/100REFLX/{cut_name}.MP4", os.path.join(folder, cut_name + "-cut.MP4"))
    finally:
        steps.run("and mounted again", "systemctl start reflex-card; mountpoint /media/card", contains=["is a mountpoint"])
    wait_for_card(steps)
    streams, errors = probe_movie(cut)
    cut_frames = int(streams.get("video", {}).get("nb_read_frames") or 0)
    # (How many frames were on the card at the cut is how fast the emulated machine encoded:
    # printed below. What fails is a movie that does not play.)
    require([("it plays: H.264 frames decode", streams.get("video", {}).get("codec_name") == "h264" and cut_frames > 0),
             ("with its sound", streams.get("audio", {}).get("codec_name") == "aac")],
            "the interrupted movie", f"{cut} (on the card at the cut: {hidden}): {json.dumps(streams)} {errors}")
    print(f"    {cut_name}.MP4, cut by a hard stop after two fragments: {cut_frames} frames play")
