"""Production serves its pages: the image's own collectstatic step, run with its
own environment, then gunicorn with DEBUG=off, asked as the proxy asks. Each
server runs in a fresh interpreter, so the settings are exactly production's."""

import fcntl
import json
import os
import re
import shlex
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.error import HTTPError
from urllib.request import Request, urlopen

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
BIN = Path(sys.executable).parent
HOST = "knock.example.org"
PRODUCTION = {
    "DEBUG": "off",
    "SECRET_KEY": "x7!kq2@Lm9#zR4$tV8^wB1&nC6*hJ3(pF5)dG0-sY2+eU7=aK4?iO9",
    "ALLOWED_HOSTS": HOST,
    "BEHIND_PROXY": "on",
}
SEED = "from tests.factories import start_party; print(start_party().seats.first().token)"


def dockerfile_step(word: str) -> str:
    """The shell command of the Dockerfile's RUN step that runs ``word``."""
    text = (ROOT / "docker" / "Dockerfile").read_text().replace("\\\n", " ")
    for line in text.splitlines():
        if line.startswith("RUN ") and word in line:
            return next(part for part in line[4:].split("&&") if word in part).strip()
    raise AssertionError(f"the Dockerfile has no RUN step with {word}")


def environment(tmp: Path, static_root: Path) -> dict:
    # Nothing of the test run's own database, cache or mode leaks in.
    keep = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR"}
    env = {key: value for key, value in os.environ.items() if key in keep}
    env["PATH"] = f"{BIN}{os.pathsep}{env.get('PATH', '')}"
    env.update(PRODUCTION, SQLITE_PATH=str(tmp / "knock.sqlite3"), STATIC_ROOT=str(static_root))
    return env


def single_process(env: dict) -> dict:
    """One gunicorn worker and no Redis: declared so, or production refuses to start."""
    return {**env, "SINGLE_PROCESS": "on"}


def run(command: str, env: dict) -> str:
    result = subprocess.run(
        command, shell=True, cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert result.returncode == 0, f"{command}\n{result.stdout}\n{result.stderr}"
    return result.stdout


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Site:
    def __init__(self, env: dict):
        self.env = env
        self.url = f"http://127.0.0.1:{free_port()}"
        command = [str(BIN / "gunicorn"), "config.wsgi", "--bind", self.url[7:], "--workers", "1"]
        self.process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        deadline = time.monotonic() + 60
        while self.get("/health/")[0] != 200:
            assert self.process.poll() is None, self.process.stderr.read().decode()
            assert time.monotonic() < deadline, "gunicorn did not answer within a minute"
            time.sleep(0.2)

    def get(self, path: str) -> tuple[int, str]:
        """Asks as the TLS proxy does: for the site's host name, over https."""
        request = Request(self.url + path, headers={"Host": HOST, "X-Forwarded-Proto": "https"})
        try:
            with urlopen(request, timeout=30) as response:
                return response.status, response.read().decode()
        except HTTPError as error:
            return error.code, error.read().decode()
        except OSError:
            return 0, ""

    def health_check(self) -> subprocess.CompletedProcess:
        """The container's HEALTHCHECK, pointed at this server."""
        return subprocess.run(
            [sys.executable, "docker/healthcheck.py"],
            cwd=ROOT,
            env={**self.env, "HEALTHCHECK_URL": self.url},
            capture_output=True,
            text=True,
            timeout=60,
        )

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


@pytest.fixture(scope="session")
def image(tmp_path_factory, worker_id):
    """A server built the way the image is: the Dockerfile's collectstatic step,
    migrations, one party, gunicorn. The build is made once a run: under
    pytest-xdist the first process that needs it builds it in the run's shared
    folder while the others wait on the lock, then each process serves it with a
    gunicorn of its own (the tests only read). Built once per process, it cost
    each of three processes up to two minutes in CI."""
    shared = tmp_path_factory.getbasetemp()
    if worker_id != "master":
        shared = shared.parent  # the run's folder, above each process's own
    build = shared / "production"
    with open(shared / "production.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        env = single_process(environment(build, build / "static"))
        if not (build / "token").exists():
            build.mkdir(exist_ok=True)
            run(dockerfile_step("collectstatic"), env)
            run("python manage.py migrate --noinput", env)
            token = run(f"python manage.py shell -c {shlex.quote(SEED)}", env).split()[-1]
            (build / "token").write_text(token)
    site = Site(env)
    site.token = (build / "token").read_text()
    yield site
    site.stop()


def test_the_image_collects_static_files_with_a_manifest(image):
    manifest = json.loads((Path(image.env["STATIC_ROOT"]) / "staticfiles.json").read_text())
    assert "css/knock.css" in manifest["paths"]
    assert "js/print.js" in manifest["paths"]


@pytest.mark.parametrize("page", ["home", "seat", "api-docs", "login"])
def test_production_serves_every_kind_of_page(image, page):
    path = {
        "home": "/",
        "seat": f"/table/{image.token}/",
        "api-docs": "/api/docs",
        "login": "/login/",
    }[page]
    status, body = image.get(path)
    assert status == 200, body[:500]


def test_pages_link_the_hashed_static_files_and_those_are_served(image):
    _, body = image.get("/")
    stylesheet = re.search(r'href="(/static/css/knock\.[0-9a-f]{12}\.css)"', body).group(1)
    status, css = image.get(stylesheet)
    assert status == 200
    assert "body" in css


def test_the_health_check_passes_on_the_image(image):
    result = image.health_check()
    assert result.returncode == 0, result.stderr


def test_without_a_manifest_pages_fail_and_the_health_check_says_so(tmp_path):
    """The old image: static files collected with DEBUG on, so no manifest. The
    API and /health/ still answer; the home page is the plain 500 page; the
    container's health check must call that unhealthy."""
    env = single_process(environment(tmp_path, tmp_path / "static"))
    run("DEBUG=on python manage.py collectstatic --noinput", env)
    run("python manage.py migrate --noinput", env)
    site = Site(env)
    try:
        assert site.get("/health/")[0] == 200
        status, body = site.get("/")
        assert status == 500
        assert "Something went wrong" in body
        result = site.health_check()
        assert result.returncode == 1
        assert "/:" in result.stderr
    finally:
        site.stop()


def test_production_without_a_shared_cache_refuses_to_start(tmp_path):
    """The image's several workers, without REDIS_URL, would each keep their own seat
    counters: gunicorn stops at once and says what is missing."""
    env = environment(tmp_path, tmp_path / "static")
    command = [str(BIN / "gunicorn"), "config.wsgi", "--bind", f"127.0.0.1:{free_port()}"]
    result = subprocess.run(
        [*command, "--workers", "3"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.returncode != 0
    assert "set REDIS_URL" in result.stderr
    assert "SINGLE_PROCESS=on" in result.stderr


def test_the_image_runs_several_workers_and_compose_gives_them_redis():
    """The Dockerfile's gunicorn runs several processes, as many as WEB_CONCURRENCY
    says (no --workers in its command to override it), so compose must set
    REDIS_URL for web (the operators' guide says the same)."""
    dockerfile = (ROOT / "docker" / "Dockerfile").read_text()
    workers = int(re.search(r"^ENV WEB_CONCURRENCY=(\d+)$", dockerfile, re.MULTILINE).group(1))
    command = next(line for line in dockerfile.splitlines() if line.startswith("CMD "))
    compose = (ROOT / "docker" / "compose.yaml").read_text()
    assert workers > 1
    assert "--workers" not in command
    assert re.search(r"^    REDIS_URL: redis://", compose, re.MULTILINE)
    assert "SINGLE_PROCESS" not in compose
    assert "`SINGLE_PROCESS=on`" in (ROOT / "docs" / "operators.md").read_text()
