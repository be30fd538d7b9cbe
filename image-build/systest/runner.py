"""The run: the options, the boot, each scenario in turn with its time limit (its time and
steps printed as it ends, a screenshot taken, its steps' times written to step-times.txt),
and the evidence saved at the end."""
import argparse
import os
import subprocess
import sys
import time

import rig

from .camera import wait_for_first_frame, wait_for_reflex
from .scenarios import in_order
from .steps import RESULTS, Steps, StepFailed, indent, measure_guest_work, measure_pace, paced


def main(description):
    """Runs image-build/test's command line; `description` is its help text."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("names", nargs="*", help="scenarios to run (default: all)")
    parser.add_argument("--list", action="store_true", help="list the scenarios")
    parser.add_argument("--no-build", action="store_true", help="use the image as it is")
    parser.add_argument("--slow", action="store_true",
                        help="a host slowed on purpose: QEMU's two vCPUs pinned to one core and capped at "
                             f"{SLOW_HOST_PERCENT}%% of it (REFLEX_QEMU_CPU_PERCENT: another share), about three "
                             "times slower per scenario than on the whole quiet machine")
    parser.add_argument("--arch", choices=["amd64", "arm64"], default=rig.ARCH,
                        help="the image's architecture (arm64: the qemu-arm64 board, QEMU's virt machine)")
    arguments = parser.parse_args()
    scenarios = in_order()
    if arguments.list:
        for name, limit, function in scenarios:
            print(f"{name:14} {limit:4} s  {function.__doc__.split(chr(10))[0] if function.__doc__ else ''}")
        return 0
    chosen = [s for s in scenarios if not arguments.names or s[0] in arguments.names]
    unknown = set(arguments.names) - {s[0] for s in scenarios}
    if unknown:
        print(f"unknown scenarios: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
    if not arguments.no_build:
        subprocess.run([os.path.join(rig.REPO, "image-build", "build"), "--arch", rig.ARCH], check=True)
    if not os.path.isdir(rig.TESTDATA):
        print(f"note: {rig.TESTDATA} is missing; scenarios that replay test data will fail", file=sys.stderr)

    os.makedirs(RESULTS, exist_ok=True)
    if arguments.slow:
        slow_host()
    return run_scenarios(chosen)


# The share of its one core QEMU gets on the slowed host (REFLEX_QEMU_CPU_PERCENT another).
SLOW_HOST_PERCENT = 85


def slow_host(cpu="0"):
    """Slows the machine the guest runs on: QEMU (both its vCPUs and its own threads) on one
    core for the whole run, with at most SLOW_HOST_PERCENT of it (a CPU cgroup: rig.cpu_capped).
    One core alone made the whole set only about as slow as a CI run's busy machine does (2,125 s
    against 1,895 s, 2026-12-07); capped at 85 % probe, capture and controls took 3.2× their
    time on the whole quiet machine, 70 % made them 3.7× (docs/testing.md, A slowed host)."""
    os.environ["REFLEX_QEMU_CPU"] = cpu
    os.environ.setdefault("REFLEX_QEMU_CPU_PERCENT", str(SLOW_HOST_PERCENT))
    print(f"a slowed host: QEMU on core {cpu} only, at most {os.environ['REFLEX_QEMU_CPU_PERCENT']}% of it", flush=True)


def run_scenarios(chosen):
    """Boots the machine once and runs the chosen scenarios on it, in order; 0 when all pass."""
    failures = []
    times = []
    # A blank card each run, kept outside the machine's folder: a power cut and the boot after
    # it see the same card.
    card = os.path.join(RESULTS, "card.img")
    if os.path.exists(card):
        os.remove(card)
    with open(os.path.join(RESULTS, "step-times.txt"), "w") as step_times, \
            rig.Machine(os.path.join(RESULTS, "machine"), card=card) as machine:
        to_agent = machine.wait_for_agent()
        to_reflex = wait_for_reflex(machine)
        work = measure_guest_work(machine)
        pace = measure_pace(to_agent, work)
        print(f"boot: QEMU start → guest answering {to_agent:.1f} s, → reflex running {to_reflex:.1f} s "
              f"({'KVM' if rig.kvm_usable() else 'TCG'}); the guest's fixed work {work:.2f} s; "
              f"the time limits paced ×{pace:.2f}", flush=True)
        first_frame = wait_for_first_frame(machine)
        if first_frame:
            print(f"boot: kernel start → first frame on the panel {first_frame:.1f} s (guest clock)", flush=True)
        _, split = machine.run("systemd-analyze blame --no-pager | head -6", timeout=20)
        print("boot, as the guest's systemd saw it:\n" + indent(split), flush=True)
        for index, (name, limit, function) in enumerate(chosen):
            started = time.monotonic()
            steps = Steps(machine, started + paced(limit))
            try:
                function(steps)
                verdict = "ok"
            except (StepFailed, rig.RigError) as failure:
                verdict = "FAILED"
                failures.append((name, str(failure)))
            shot = os.path.join(RESULTS, f"{name}.png")
            try:
                machine.screendump(shot)
            except rig.RigError as problem:
                shot = f"(no screenshot: {problem})"
            seconds = time.monotonic() - started
            times.append((name, seconds, verdict))
            print(f"{verdict:6} {name:14} {seconds:5.1f} s  {steps.count} steps  {shot}", flush=True)
            write_step_times(step_times, name, seconds, verdict, steps.times)
            if verdict == "FAILED" and index + 1 < len(chosen):
                boot_again_after(machine, name)
        save_evidence(machine)
    print_times(times)
    for name, failure in failures:
        print(f"\n--- {name}\n{failure}", file=sys.stderr)
    print(f"\n{len(chosen) - len(failures)} of {len(chosen)} scenarios passed; evidence in {RESULTS}")
    return 1 if failures else 0


def print_times(times, slowest=10):
    """The slowest scenarios of the run with their times, and all the scenarios' time together
    (the boot and the build before them not counted)."""
    if not times:
        return
    print(f"\nthe {slowest} slowest scenarios:" if len(times) > slowest else "\nthe scenarios, slowest first:")
    for name, seconds, verdict in sorted(times, key=lambda entry: -entry[1])[:slowest]:
        print(f"  {name:22} {seconds:6.1f} s{'' if verdict == 'ok' else '  ' + verdict}")
    total = sum(seconds for _, seconds, _ in times)
    together = f"{len(times)} scenario{'s' if len(times) > 1 else ''} in all"
    print(f"  {together:22} {total:6.1f} s ({int(total // 60)} min {total % 60:02.0f} s)", flush=True)


def write_step_times(out, name, seconds, verdict, times):
    """A scenario's steps as they ran: when each started (after the scenario did), how long it
    took and, for a step repeated until it passed, how many tries. The gaps between them are
    the host's work (screendumps, reading the card) and the scenario's own pauses."""
    out.write(f"{name} {seconds:.1f} s {verdict}\n")
    for at, took, what, tries in times:
        out.write(f"  {at:6.1f} s +{took:5.1f} s  {what}{f' ({tries} tries)' if tries > 1 else ''}\n")
    out.flush()


def boot_again_after(machine, failed):
    """A scenario that failed halfway may leave the machine in any state (its camera on another
    sensor, its card out, a service stopped, the rest of its cleanup never run): the next
    scenario starts from a fresh boot instead, as each must start from its known state. One
    failure stays one failure, not the cause of every scenario after it. The failed one's
    journal is kept first (journal-NAME.txt)."""
    began = time.monotonic()
    save_evidence(machine, suffix="-" + failed)
    machine.power_off()
    machine.start()
    machine.wait_for_agent()
    wait_for_reflex(machine)
    wait_for_first_frame(machine)
    print(f"       the machine booted again after {failed}'s failure ({time.monotonic() - began:.1f} s)", flush=True)


def save_evidence(machine, suffix=""):
    try:
        _, journal = machine.run("journalctl -b --no-pager", timeout=20)
        with open(os.path.join(RESULTS, f"journal{suffix}.txt"), "w") as out:
            out.write(journal)
    except rig.RigError:
        pass
    with open(os.path.join(RESULTS, f"console{suffix}.txt"), "w") as out:
        out.write(machine.console_text())
