"""Settings are read from the environment; each case runs in a fresh interpreter."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PRODUCTION = {
    "DEBUG": "off",
    "SECRET_KEY": "x7!kq2@Lm9#zR4$tV8^wB1&nC6*hJ3(pF5)dG0-sY2+eU7=aK4?iO9",
    "ALLOWED_HOSTS": "knock.example.org",
    "DATABASE_URL": "postgres://knock@db.example.org/knock",
    "REDIS_URL": "redis://cache.example.org:6379/0",
}


def manage(*args, **environ):
    env = {k: v for k, v in os.environ.items() if k not in PRODUCTION}
    env.update(environ)
    return subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )


def test_production_refuses_to_start_without_a_secret_key():
    result = manage("check", **{**PRODUCTION, "SECRET_KEY": ""})
    assert result.returncode != 0
    assert "set SECRET_KEY" in result.stderr


def test_production_refuses_to_start_without_allowed_hosts():
    result = manage("check", **{**PRODUCTION, "ALLOWED_HOSTS": ""})
    assert result.returncode != 0
    assert "set ALLOWED_HOSTS" in result.stderr


def test_production_settings_pass_the_deployment_check():
    result = manage("check", "--deploy", "--fail-level", "WARNING", **PRODUCTION)
    assert result.returncode == 0, result.stderr
    assert "no issues" in result.stdout


def test_development_default_passes_the_plain_check_with_nothing_set():
    result = manage("check", "--fail-level", "WARNING")
    assert result.returncode == 0, result.stderr


def test_a_mistyped_debug_value_is_an_error_not_a_guess():
    result = manage("check", DEBUG="maybe")
    assert result.returncode != 0
    assert "DEBUG must be on or off" in result.stderr


def setting(expression: str, **environ) -> str:
    result = manage(
        "shell", "-c", f"from django.conf import settings; print({expression})", **environ
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def test_forwarded_headers_are_believed_only_behind_the_proxy():
    assert setting("settings.SECURE_PROXY_SSL_HEADER", **PRODUCTION) == "None"
    behind = setting("settings.SECURE_PROXY_SSL_HEADER", **PRODUCTION, BEHIND_PROXY="on")
    assert behind == "('HTTP_X_FORWARDED_PROTO', 'https')"


def test_postgresql_connections_close_after_each_request_unless_told_otherwise():
    database = "settings.DATABASES['default']"
    kept = f"({database}['CONN_MAX_AGE'], {database}['CONN_HEALTH_CHECKS'])"
    assert setting(kept, **PRODUCTION) == "(0, True)"
    assert setting(kept, **PRODUCTION, CONN_MAX_AGE="60") == "(60, True)"
