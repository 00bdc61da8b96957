"""Knock's one settings module. Everything comes from the environment.

With nothing set, Knock runs embedded: SQLite, tasks run in-process, a local
memory cache and DEBUG on. Production sets DEBUG=off, SECRET_KEY, ALLOWED_HOSTS,
DATABASE_URL (PostgreSQL) and REDIS_URL (Celery broker, results and cache).
"""

import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _
from whitenoise.compress import Compressor

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    if value.lower() in ("1", "true", "yes", "on"):
        return True
    if value.lower() in ("0", "false", "no", "off"):
        return False
    raise ImproperlyConfigured(f"{name} must be on or off, not {value!r}.")


def env_list(name: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, "").split(",") if item.strip()]


DEBUG = env_flag("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
if DEBUG:
    SECRET_KEY = SECRET_KEY or "knock-development-only-not-secret"
    ALLOWED_HOSTS = ALLOWED_HOSTS or ["127.0.0.1", "localhost", "[::1]", "testserver"]
else:
    # Production never falls back to a known key or to any host.
    if not SECRET_KEY:
        raise ImproperlyConfigured("DEBUG is off: set SECRET_KEY (50+ random characters).")
    if not ALLOWED_HOSTS:
        raise ImproperlyConfigured("DEBUG is off: set ALLOWED_HOSTS (comma-separated host names).")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

# Behind the TLS proxy of docker/compose.yaml, the proxy's X-Forwarded-Proto and
# X-Forwarded-For headers say how and from where a request came. Without the
# proxy anyone could send them, so they are believed only when this says so.
BEHIND_PROXY = env_flag("BEHIND_PROXY", False)

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "axes",
    "django_tables2",
    # Mail providers' backends and tracking webhooks, when the operator picks one.
    "anymail",
    # Listed so the API's docs page serves its scripts from our static files, not a CDN.
    "ninja",
    # Below every app: the live pages' counters and streams, and what every app's
    # pages share of a request (an app each, so each is copied wherever the apps are).
    "live",
    "web",
    "clubs",
    "scoring",
    "tournaments",
    "seasons",
    # The players told by e-mail and push: above the apps whose events it tells.
    "notices",
    # The demo loader (`manage.py load_demo`): above every app, since it fills them all.
    "demo",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django_permissions_policy.PermissionsPolicyMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # The site's time zone again at every request's start and end (a club's page
    # shows the club's, web/zones.py).
    "web.zones.zone_reset",
    "web.security.no_store_for_tokens",
    "web.security.seat_token_guard",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "config.api.json_errors",
    "config.unavailable.DatabaseUnavailable",
    # Last, so that a locked-out login is answered before the login view runs.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# Database: DATABASE_URL, or SQLite beside the project. SQLite takes the write
# lock when a transaction starts (IMMEDIATE) and waits for it, so two phones
# entering at once queue up instead of failing with "database is locked".
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 30,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}
DATABASE_URL = os.environ.get("DATABASE_URL", "")
if DATABASE_URL:
    # A connection is closed at the end of each request unless CONN_MAX_AGE says
    # otherwise. Kept connections belong to a thread: a threaded or ASGI server
    # starts new threads and leaves their connections open until PostgreSQL runs
    # out. Only a server with a fixed set of threads (gunicorn's sync workers, as
    # in the image) may keep them; health checks then drop a dead one first.
    DATABASES = {
        "default": dj_database_url.parse(
            DATABASE_URL,
            conn_max_age=int(os.environ.get("CONN_MAX_AGE", 0)),
            conn_health_checks=True,
        )
    }
    if not DATABASES["default"]["CONN_MAX_AGE"]:
        # A connection per request, taken from a pool of the process's own: a new
        # PostgreSQL connection is a new server process, which cost every stream's
        # and every threaded request's opening more than its queries. With the
        # health checks on, Django has the pool check each as it is taken (one
        # round trip): one that a restarted or cleaned-up database dropped
        # meanwhile is replaced, not handed to a request.
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": 1,
            "max_size": int(os.environ.get("DATABASE_POOL_SIZE", 10)),
            "timeout": 10,
        }
else:
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": os.environ.get("SQLITE_PATH", str(BASE_DIR / "knock.sqlite3")),
            "OPTIONS": SQLITE_OPTIONS,
            "TEST": {"NAME": os.environ.get("SQLITE_TEST_PATH") or None},
        }
    }
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(SQLITE_OPTIONS)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Redis: Celery broker and result backend, and the cache. Without it, tasks run
# eagerly in the process that calls them and the cache lives in local memory.
REDIS_URL = os.environ.get("REDIS_URL", "")
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "web.cache.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "knock"),
            # A cache that is down must not stop a table from entering a hand.
            "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# The seat counters, the board's versions and the seat-link guard live in the
# cache, and every process must see the same numbers: with a cache of its own per
# gunicorn worker, the phones reload several times a minute and are told that
# the other phone changed the sheet while a player types. So production needs
# Redis, unless it is declared to run as one process (a small club on one
# machine, a build step, a management command run on its own), where the local
# memory cache is the only one.
SINGLE_PROCESS = env_flag("SINGLE_PROCESS", False)
if not DEBUG and not REDIS_URL and not SINGLE_PROCESS:
    raise ImproperlyConfigured(
        "DEBUG is off: set REDIS_URL, the cache every process shares (the seat "
        "counters live there). Only a single server process may go without it: "
        "then say so with SINGLE_PROCESS=on."
    )

# Public pages (standings, running scores) are cached under counters that move
# after every committed change; entries also expire after this many seconds, so a
# change missed while the cache was away shows after at most this long.
PUBLIC_CACHE_SECONDS = int(os.environ.get("PUBLIC_CACHE_SECONDS", 300))
# A tournament's public board is built at most once per this many seconds, off
# the request path (tournaments/stored_board.py): at a championship a change
# shows this long (and one build) late at most; after a quiet spell, at once.
# An open page asks nothing per build (its stream carries the changed lines), and
# the builder of a 1,000-entrant board takes about a fifth of a core at 1.5 s:
# spectators told within 2 s (p95 1.5-1.6 s) with every phone's target held at
# 500 tables on two cores (make load, benchmarks/RESULTS.md).
PUBLIC_REFRESH_SECONDS = float(os.environ.get("PUBLIC_REFRESH_SECONDS", 1.5))

# The largest archive file the organizer's import page takes (a big tournament's
# archive runs to a few megabytes); the import_archive command has no limit.
ARCHIVE_UPLOAD_MAX_BYTES = int(os.environ.get("ARCHIVE_UPLOAD_MAX_MB", 20)) * 1024 * 1024

# Backups (manage.py backup, clubs/backups.py): where they are written, and how
# long they are kept. A backup older than BACKUP_KEEP_DAYS is removed by the next
# backup, but the newest BACKUP_KEEP_COPIES stay whatever their age.
BACKUP_DIR = Path(os.environ.get("BACKUP_DIR") or BASE_DIR / "backups")
BACKUP_KEEP_DAYS = int(os.environ.get("BACKUP_KEEP_DAYS", 14))
BACKUP_KEEP_COPIES = int(os.environ.get("BACKUP_KEEP_COPIES", 7))

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
# A task is acknowledged when it has run, not when it was taken: a worker killed
# in the middle leaves it to the next (every task is safe to run twice). A worker
# process that dies hands its task back at once; a whole worker that dies leaves
# it unacknowledged, and Redis gives it to another worker after the visibility
# timeout, which must exceed the longest task (a pairing takes seconds).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 1,
    "max_retries": 1,
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", 120)),
    # Look for abandoned tasks every 10 s (by default only every 100 s).
    "unacked_restore_interval": 10,
    "unacked_restore_throttle": 1,
}
CELERY_TIMEZONE = "UTC"
# The queue tasks are sent to, and a worker takes them from by default: one
# worker's own in the tests (tests/conftest.py), where a task a worker sends (the
# public board after a pairing) must reach that worker too.
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "celery")

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Logins (the site's and the admin's) go through django-axes: after
# AXES_FAILURE_LIMIT wrong passwords for one user name from one address, that
# pair is refused until AXES_COOLOFF_TIME has passed. Counting the pair, not the
# user name alone, means a stranger guessing the organizer's password locks out
# only himself; the cool-off means nobody is locked out for good.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("AXES_FAILURE_LIMIT", 5))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("AXES_COOLOFF_MINUTES", 15)))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "web.client.client_address"
AXES_LOCKOUT_TEMPLATE = "registration/login_locked.html"
AXES_RESET_ON_SUCCESS = True
# Failed attempts are kept in the database (the admin lists them; `manage.py
# axes_reset` lifts a lock): logins keep working while Redis is down.
AXES_HANDLER = "axes.handlers.database.AxesDatabaseHandler"
AXES_VERBOSE = False

LOGIN_URL = "login"
# An organizer lands on their clubs; a `next` from the login page goes first.
LOGIN_REDIRECT_URL = "manage:club-list"
LOGOUT_REDIRECT_URL = "home"

# E-mail: sign-up, invitations, resets and the players' notices. With nothing set the
# messages are printed on the console (`make run` shows the links); production names
# its SMTP server (EMAIL_HOST, EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD,
# EMAIL_USE_TLS) or another of Django's mail backends.
EMAIL_HOST = os.environ.get("EMAIL_HOST", "")
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND") or (
    "django.core.mail.backends.smtp.EmailBackend"
    if EMAIL_HOST
    else "django.core.mail.backends.console.EmailBackend"
)
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", 25))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_flag("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = int(os.environ.get("EMAIL_TIMEOUT", 10))
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Knock <knock@localhost>")
# A mail provider instead of SMTP: EMAIL_BACKEND one of django-anymail's (e.g.
# anymail.backends.postmark.EmailBackend) and its settings as ANYMAIL_* variables
# (ANYMAIL_POSTMARK_SERVER_TOKEN=... becomes ANYMAIL["POSTMARK_SERVER_TOKEN"]). With
# ANYMAIL_WEBHOOK_SECRET set, the provider's bounces and complaints come back
# through its tracking webhook (notices/public/provider.py, notices/bounces.py).
ANYMAIL = {
    name.removeprefix("ANYMAIL_"): value
    for name, value in os.environ.items()
    if name.startswith("ANYMAIL_")
}
# The address links in e-mails begin with (a mail is read away from any request).
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000").rstrip("/")
# Web push to the players' phones: the site's VAPID private key (base64 of its raw
# number or of its DER, as in `vapid --gen`'s PEM). Without it push is off, and the
# pages say so.
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "")
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:knock@localhost")
# Push only to services over HTTPS, by name (notices.endpoints.endpoint_verdict);
# off only for a push service on this machine (the tests').
PUSH_ENDPOINTS_HTTPS_ONLY = True
# Notices a worker sends at most (Celery's rate limit, per worker): a club's mail
# provider takes no more.
NOTICES_RATE_LIMIT = os.environ.get("NOTICES_RATE_LIMIT", "60/m")
# One address may ask for ACCOUNT_MAIL_LIMIT sign-ups, and as many password
# resets, within ACCOUNT_MAIL_WINDOW seconds (web/throttle.py); past that it is
# answered 429 until the window ends.
ACCOUNT_MAIL_LIMIT = int(os.environ.get("ACCOUNT_MAIL_LIMIT", 5))
ACCOUNT_MAIL_WINDOW = int(os.environ.get("ACCOUNT_MAIL_WINDOW", 3600))
# The sign-up and password-reset links, like the organizer's welcome link, work
# once and for Django's PASSWORD_RESET_TIMEOUT (three days).
# An invitation to organize a club works this many days.
INVITATION_DAYS = int(os.environ.get("INVITATION_DAYS", 7))

LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("de", _("German"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TIME_ZONE", "Europe/Berlin")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = Path(os.environ.get("STATIC_ROOT") or BASE_DIR / "staticfiles")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Source maps are opened only by a developer's tools, never by a phone: compressing
# them (5 of the static files' 10 MB, brotli at its best) was half the image's
# collectstatic time.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = (*Compressor.SKIP_COMPRESS_EXTENSIONS, "map")

DJANGO_TABLES2_TEMPLATE = "django_tables2/table.html"

# Production hardening: on unless DEBUG is on. Behind a TLS-terminating proxy
# the proxy sets X-Forwarded-Proto.
SECURE = not DEBUG
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if BEHIND_PROXY else None
SECURE_SSL_REDIRECT = env_flag("SECURE_SSL_REDIRECT", SECURE)
SESSION_COOKIE_SECURE = SECURE
CSRF_COOKIE_SECURE = SECURE
SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", 31536000 if SECURE else 0))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_flag("SECURE_HSTS_INCLUDE_SUBDOMAINS", SECURE)
SECURE_HSTS_PRELOAD = env_flag("SECURE_HSTS_PRELOAD", SECURE)
SECURE_CONTENT_TYPE_NOSNIFF = True
X_FRAME_OPTIONS = "DENY"

# Content-Security-Policy (django-csp): scripts, styles and images come from our
# own origin only, never inline, so injected markup cannot run. The QR codes are
# inline SVG elements, not images; the API's docs page draws its icons from
# data: URLs.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Permissions-Policy (django-permissions-policy): the pages need none of the
# browser's devices or sensors.
PERMISSIONS_POLICY = {
    feature: []
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
}

# A wrong seat link costs an address one try: after SEAT_TOKEN_MISS_LIMIT
# different unknown tokens within SEAT_TOKEN_MISS_WINDOW seconds, unknown tokens
# under /table/… and /api/tables/… answer 429 to that address until the window
# ends; a right token always opens its seat (config/security.seat_token_guard).
SEAT_TOKEN_MISS_LIMIT = int(os.environ.get("SEAT_TOKEN_MISS_LIMIT", 20))
SEAT_TOKEN_MISS_WINDOW = int(os.environ.get("SEAT_TOKEN_MISS_WINDOW", 600))

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}

# Beat: the catch-up of pairings whose task was lost (the broker away when it was
# sent, or a worker killed with it): tournaments.tasks.pair_waiting_rounds; and of
# finals whose advance after a party's end did not run: tournaments.final.tasks.advance_finals.
CELERY_BEAT_SCHEDULE = {
    "pair-waiting-rounds": {"task": "tournaments.tasks.pair_waiting_rounds", "schedule": 30.0},
    "advance-finals": {"task": "tournaments.final.tasks.advance_finals", "schedule": 30.0},
    # The season digests, to the players who asked for one: once a week.
    "season-digests": {"task": "notices.tasks.send_digests", "schedule": timedelta(days=7)},
    # Notices left "being sent" by a worker that died, or waiting with no task.
    "notices-catch-up": {"task": "notices.tasks.notices_catch_up", "schedule": 60.0},
}
