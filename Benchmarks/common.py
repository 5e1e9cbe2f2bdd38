"""Shared helpers for the benchmark scripts: build once, time whole processes, read peak memory."""
import os, statistics, subprocess, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# How modellint is built for release: on Linux with the Swift runtime linked in (start-up 9 ms -> 4 ms, and no
# indirection on every retain and release); on macOS the runtime is part of the system.
RELEASE = ["swift", "build", "-c", "release"] + (["--static-swift-stdlib", "-Xlinker", "-no-pie"] if os.uname().sysname == "Linux" else [])


def build():
    subprocess.run(RELEASE, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    bindir = subprocess.run(RELEASE + ["--show-bin-path"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout.strip()
    return os.path.join(bindir, "modellint")


def median_wall(cmd, runs, cwd=None):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def median_walls(cmds, runs, cwd=None):
    """Median wall time of each command, their runs interleaved so a machine's drift affects all alike."""
    times = [[] for _ in cmds]
    for _ in range(runs):
        for i, cmd in enumerate(cmds):
            start = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd)
            times[i].append(time.perf_counter() - start)
    return [statistics.median(t) for t in times]


def peak_mb(cmd, cwd=None):
    if not os.path.exists("/usr/bin/time"):
        return float("nan")
    out = subprocess.run(["/usr/bin/time", "-v"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=cwd).stderr
    for line in out.splitlines():
        if "Maximum resident set size" in line:
            return int(line.split(":")[1]) / 1024
    return float("nan")


def machine():
    return f"{os.cpu_count()} cores, {os.uname().machine}, {os.uname().sysname}"
