"""The proxy of compose.yaml — Caddy with docker/Caddyfile — rides out a restart of
`web` or `live`: a request that finds nothing listening is held and tried again
until the server answers, and only when none answers within the try time is it
told "back in a moment" (503 with Retry-After, a page in English and German),
never a blank error. Run on a real Caddy (the dev extra installs one), the compose
services' names pointed at a port of this machine."""

import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.error import HTTPError
from urllib.request import Request, urlopen

import pytest

DOCKER = Path(__file__).resolve().parent.parent.parent / "docker"
CADDY = shutil.which("caddy", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
#: How long the Caddyfile holds a request while no upstream answers.
TRY_SECONDS = 15


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_the_proxy_retries_a_restarting_upstream_instead_of_marking_it_failed():
    caddyfile = (DOCKER / "Caddyfile").read_text()
    proxies = re.findall(r"reverse_proxy \{(.*?)\n\t\t\}", caddyfile, re.DOTALL)
    assert len(proxies) == 2  # live's streams, web's pages
    for proxy in proxies:
        assert f"lb_try_duration {TRY_SECONDS}s" in proxy
        assert "lb_try_interval 250ms" in proxy
        assert "refresh 1s" in proxy
        # A failure mark kept the one restarted upstream out after it answered again.
        assert "fail_duration" not in proxy


def test_compose_gives_the_proxy_the_page_its_caddyfile_serves():
    caddyfile = (DOCKER / "Caddyfile").read_text()
    compose = (DOCKER / "compose.yaml").read_text()
    assert "root * /srv" in caddyfile
    assert "rewrite * /unavailable.html" in caddyfile
    assert "- ./unavailable.html:/srv/unavailable.html:ro" in compose
    page = (DOCKER / "unavailable.html").read_text()
    assert "Knock is back in a moment" in page
    assert "Knock ist gleich wieder da" in page


class Upstream(BaseHTTPRequestHandler):
    def do_GET(self):
        self.answer(f"served {self.path}")

    def answer(self, text):
        body = text.encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def proxy(tmp_path):
    """Caddy on a free port with compose's Caddyfile, plain HTTP, both services
    (`web`, `live`) at ``proxy.upstream_port`` on this machine, the error page from
    docker/."""
    if CADDY is None:
        pytest.skip("caddy is not installed (pip install '.[dev]')")
    port, upstream_port = free_port(), free_port()
    text = (DOCKER / "Caddyfile").read_text()
    for old, new in (
        ("name web\n", "name 127.0.0.1\n"),
        ("name live\n", "name 127.0.0.1\n"),
        ("port 8000\n", f"port {upstream_port}\n"),
        ("root * /srv\n", f"root * {DOCKER}\n"),
    ):
        assert old in text, old
        text = text.replace(old, new)
    # No admin endpoint: it would take the one port every Caddy here shares.
    (tmp_path / "Caddyfile").write_text("{\n\tadmin off\n}\n" + text)
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path),
        "SITE_ADDRESS": f"http://127.0.0.1:{port}",
    }
    command = [CADDY, "run", "--config", str(tmp_path / "Caddyfile"), "--adapter", "caddyfile"]
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    deadline = time.monotonic() + 30
    while True:
        assert process.poll() is None, process.stderr.read()
        with socket.socket() as sock:
            if sock.connect_ex(("127.0.0.1", port)) == 0:
                break
        assert time.monotonic() < deadline, "caddy did not listen within 30 s"
        time.sleep(0.1)
    process.url = f"http://127.0.0.1:{port}"
    process.upstream_port = upstream_port
    yield process
    process.terminate()
    process.wait(timeout=10)


def ask(url, method="GET"):
    """(status, headers, body, seconds taken)."""
    started = time.monotonic()
    data = b"hand=1" if method == "POST" else None
    try:
        with urlopen(Request(url, data=data, method=method), timeout=TRY_SECONDS + 30) as answer:
            status, headers, body = answer.status, answer.headers, answer.read().decode()
    except HTTPError as error:
        status, headers, body = error.code, error.headers, error.read().decode()
    return status, headers, body, time.monotonic() - started


def test_a_request_while_the_server_restarts_is_answered_once_it_is_back(proxy):
    servers = []

    def come_back():  # nothing listens on the port until then
        servers.append(ThreadingHTTPServer(("127.0.0.1", proxy.upstream_port), Upstream))
        servers[0].serve_forever()

    starting = threading.Timer(2, come_back)
    starting.start()
    try:
        with ThreadPoolExecutor(2) as pool:
            stream = pool.submit(ask, f"{proxy.url}/t/autumn-cup/events/")
            page = pool.submit(ask, f"{proxy.url}/t/autumn-cup/")
            answers = [stream.result(), page.result()]
    finally:
        starting.cancel()
        for server in servers:
            server.shutdown()
            server.server_close()
    for (status, _, body, seconds), path in zip(
        answers, ("/t/autumn-cup/events/", "/t/autumn-cup/"), strict=True
    ):
        assert (status, body) == (200, f"served {path}")
        assert 1.5 < seconds < TRY_SECONDS


def test_with_no_server_answering_the_proxy_says_back_in_a_moment(proxy):
    with ThreadPoolExecutor(3) as pool:
        asked = [
            pool.submit(ask, f"{proxy.url}/t/autumn-cup/", "GET"),
            pool.submit(ask, f"{proxy.url}/manage/nights/1/", "POST"),
            pool.submit(ask, f"{proxy.url}/t/autumn-cup/events/", "GET"),
        ]
        (page, form, stream) = [future.result() for future in asked]
    for status, headers, body, seconds in (page, form, stream):
        assert status == 503
        assert headers["Retry-After"] == "10"
        assert headers["Cache-Control"] == "no-store"
        assert "Knock is back in a moment" in body
        assert "Knock ist gleich wieder da" in body
        assert seconds >= TRY_SECONDS - 1  # held and tried until then
    # A page opened by a link reloads itself; a form is not sent again unasked.
    assert page[1]["Refresh"] == "10"
    assert form[1]["Refresh"] is None


def test_make_loads_proxy_spreads_pages_over_the_web_groups_and_streams_over_the_live_groups(
    tmp_path,
):
    """``make load`` in groups (benchmarks/load_layout.py) runs docker/Caddyfile with the
    groups' ports for docker's names: a change to the Caddyfile that it can no longer
    follow fails here, not only in a run with LOAD_GROUPS."""
    if CADDY is None:
        pytest.skip("caddy is not installed (pip install '.[dev]')")
    from benchmarks.load_layout import caddyfile

    servers = {}
    for name in ("web 1", "web 2", "live 1", "live 2"):
        servers[name] = ThreadingHTTPServer(("127.0.0.1", 0), Group)
        servers[name].name = name
        threading.Thread(target=servers[name].serve_forever, daemon=True).start()
    ports = {name: server.server_address[1] for name, server in servers.items()}
    port = free_port()
    (tmp_path / "Caddyfile").write_text(
        caddyfile([ports["web 1"], ports["web 2"]], [ports["live 1"], ports["live 2"]])
    )
    env = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path),
        "SITE_ADDRESS": f"http://127.0.0.1:{port}",
    }
    command = [CADDY, "run", "--config", str(tmp_path / "Caddyfile"), "--adapter", "caddyfile"]
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 30
        while not listening(port):
            assert process.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
        answered = set()
        for path in ["/t/autumn-cup/", "/t/autumn-cup/events/"] * 40:
            request = Request(f"http://127.0.0.1:{port}{path}")
            request.add_header("X-Forwarded-For", "10.0.0.7")
            with urlopen(request, timeout=10) as answer:
                answered.add((path.endswith("/events/"), answer.read().decode()))
    finally:
        process.terminate()
        process.wait(timeout=10)
        for server in servers.values():
            server.shutdown()
            server.server_close()
    # The phone's own address is passed on (each simulated phone has one).
    assert answered == {
        (False, "web 1 10.0.0.7"),
        (False, "web 2 10.0.0.7"),
        (True, "live 1 10.0.0.7"),
        (True, "live 2 10.0.0.7"),
    }


class Group(Upstream):
    """A group of make load's: answers with its server's name and the client's
    address the proxy passed on."""

    def do_GET(self):
        self.answer(f"{self.server.name} {self.headers['X-Forwarded-For']}")


def listening(port):
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0
