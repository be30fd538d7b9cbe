"""A scenario's steps: run in the guest through the test agent, within the scenario's time
limit, each failure saying what it ran and what it saw. Also the registry of scenarios and
the folder the evidence goes to."""
import os
import re
import time

import rig

RESULTS = os.path.join(rig.REPO, ".build-systest" + ("-arm64" if rig.ARCH == "arm64" else ""))
SCENARIOS = []

# How much slower than a guest of CI's kind at rest this run's guest is (1 at most as fast):
# every time limit of a scenario, a step and a wait is stretched by it, so a slower or busier
# machine takes longer and fails for a stall, never for being slow. The runner measures it
# after the boot (`measure_pace`).
PACE = 1.0
# QEMU's start until the guest's agent answers, in seconds, on a machine of CI's kind (2
# cores, TCG) with nothing else running: 38-47 s.
REFERENCE_BOOT_SECONDS = 40.0
# A fixed piece of work for both of the guest's vCPUs at once, beside the running camera, as
# the scenarios' own work is: two checksums of zeros side by side. The boot alone does not
# tell a slow host: it keeps about one vCPU busy, and a host that gives QEMU a single core
# boots nearly as fast as one that gives it two, then runs every scenario 2-2.5 times slower.
GUEST_WORK = "for i in 1 2; do head -c 32M /dev/zero | sha256sum >/dev/null & done; wait"
# Its seconds (from the host: the agent's round trip included; the fastest of three) in a
# guest of CI's kind at rest, each architecture's own: amd64 3.8-4.1 s (QEMU pinned to one
# core: 10.4 s), arm64 3.0 s (7.7-11.7 s once, just after a boot).
REFERENCE_WORK_SECONDS = {"amd64": 3.8, "arm64": 3.0}
# A guest slower than this is no machine to test on: its limits stop stretching.
MOST_PACE = 5.0


def measure_guest_work(machine):
    """Seconds the guest takes for GUEST_WORK, the fastest of three runs (a one-off stall of
    the host is no pace)."""
    times = []
    for _ in range(3):
        started = time.monotonic()
        machine.run(GUEST_WORK, timeout=120)
        times.append(time.monotonic() - started)
    return min(times)


def measure_pace(seconds_to_agent, seconds_of_work):
    """Sets PACE from the boot (until the guest answered) and the guest's fixed work, the
    slower of the two against a guest of CI's kind at rest; returns it."""
    global PACE
    reference = REFERENCE_WORK_SECONDS.get(rig.ARCH) or seconds_of_work
    PACE = min(max(seconds_to_agent / REFERENCE_BOOT_SECONDS, seconds_of_work / reference, 1.0), MOST_PACE)
    return PACE


def paced(seconds):
    """A time limit of a guest of CI's kind at rest, for this run's guest."""
    return seconds * PACE


def scenario(name, limit=120):
    """Registers a scenario: a function of a Steps object, with a time limit in seconds."""
    def register(function):
        if any(name == registered for registered, _, _ in SCENARIOS):
            raise RuntimeError(f"two scenarios are called {name}")
        SCENARIOS.append((name, limit, function))
        return function
    return register


class StepFailed(Exception):
    def __init__(self, message, output=""):
        super().__init__(message)
        self.output = output  # what the failing step's command printed


class Steps:
    """Runs a scenario's steps in the guest and keeps its deadline, and the time each step
    took (`times`: when it started after the scenario did, how long it took, what it was and
    how many tries it had), for the run's step-times.txt."""

    def __init__(self, machine, deadline):
        self.machine = machine
        self.deadline = deadline
        self.count = 0
        self.started = time.monotonic()
        self.times = []

    def run(self, what, command, expect_status=0, contains=(), matches=(), excludes=(), timeout=30):
        """Runs `command` in the guest within `timeout` s (paced); fails unless it exits with `expect_status` and its
        output contains every string of `contains`, matches every regex of `matches`, and
        holds none of `excludes`. Returns the output."""
        started = time.monotonic()
        try:
            return self._run(what, command, expect_status, contains, matches, excludes, timeout)
        finally:
            self.note_time(started, what)

    def note_time(self, started, what, tries=1):
        """Notes in `times` something of the scenario's that started at `started` (monotonic)
        and ends now: a step, or work that is no step in the guest (a boot, waiting for the
        screen to show something)."""
        self.times.append((started - self.started, time.monotonic() - started, what, tries))

    def _run(self, what, command, expect_status=0, contains=(), matches=(), excludes=(), timeout=30):
        self.count += 1
        remaining = self.deadline - time.monotonic()
        if remaining <= 0:
            raise StepFailed(f"step {self.count} ({what}): the scenario's time limit was reached")
        status, output = self.machine.run(command, timeout=min(int(paced(timeout)), max(1, int(remaining))))
        problems = []
        if expect_status is not None and status != expect_status:
            problems.append(f"exit status {status}, expected {expect_status}")
        problems += [f"no {text!r} in the output" for text in contains if text not in output]
        problems += [f"nothing matches /{pattern}/" for pattern in matches if not re.search(pattern, output, re.M)]
        problems += [f"{text!r} should not be there" for text in excludes if text in output]
        if problems:
            raise StepFailed(f"step {self.count} ({what}) failed: {'; '.join(problems)}\n"
                             f"  command: {command}\n  output:\n" + indent(output), output)
        return output

    def wait_until(self, what, command, limit=60, **expectations):
        """Repeats a step until it passes or `limit` seconds pass (paced); the last failure is reported."""
        until = min(time.monotonic() + paced(limit), self.deadline)

        def give_up(failure, now):
            if now >= until:
                raise failure
        return self._repeat(what, command, give_up, 0.5, expectations)

    def wait_while_progressing(self, what, command, progress, stall=180, **expectations):
        """Repeats a step until it passes, for as long as the camera reports progress: fails
        when the number that `progress` (a regex with one group) finds in the output (a count
        of the camera's own reports of the heavy work) has not grown for `stall` seconds, or
        at the scenario's deadline. A slow machine reports less often; a stalled camera not
        at all. (`stall` is paced.)"""
        started = time.monotonic()
        stall = paced(stall)
        last = {"count": -1, "grew": started}

        def give_up(failure, now):
            found = re.search(progress, failure.output, re.M)
            count = int(found.group(1)) if found else 0
            if count > last["count"]:
                last.update(count=count, grew=now)
            if now - last["grew"] >= stall or now >= self.deadline:
                raise StepFailed(f"{failure}\n  (no progress by /{progress}/ for {now - last['grew']:.0f} s; "
                                 f"{max(last['count'], 0)} in {now - started:.0f} s)", failure.output)
        return self._repeat(what, command, give_up, 1, expectations)

    def _repeat(self, what, command, give_up, pause, expectations):
        """Runs a step until it passes; after each failure `give_up(failure, now)` raises to
        end the wait."""
        started = time.monotonic()
        tries = 0
        try:
            while True:
                tries += 1
                try:
                    return self._run(what, command, **expectations)
                except StepFailed as failure:
                    give_up(failure, time.monotonic())
                    self.count -= 1
                    time.sleep(pause)
        finally:
            self.note_time(started, what, tries)


def indent(text, limit=4000):
    text = text if len(text) <= limit else text[:limit] + f"\n… ({len(text) - limit} more characters)"
    return "\n".join("    | " + line for line in text.splitlines()) or "    | (no output)"


def require(checks, what, evidence):
    failed = [name for name, ok in checks if not ok]
    if failed:
        raise StepFailed(what + ": " + "; ".join(failed) + "\n  " + evidence)
