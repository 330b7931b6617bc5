"""Django settings, all from environment variables with safe defaults for one person on localhost.

LINEBYLINE_DEBUG          "1" to turn Django's debug mode on (off by default)
LINEBYLINE_SECRET_KEY     the secret key; by default one is generated once and kept in the data dir
LINEBYLINE_DATA_DIR       where the database, the secret key and collected static files live
                          (default: ~/.local/share/linebyline, or $XDG_DATA_HOME/linebyline);
                          it and the SQLite database are made readable by their owner only
LINEBYLINE_DATABASE_URL   e.g. postgres://user:pass@host/db (default: SQLite in the data dir)
LINEBYLINE_ALLOWED_HOSTS  comma-separated host names (default: localhost, 127.0.0.1, [::1])
LINEBYLINE_NAMES_FILE     the data set the browser mounts as input.txt (default: the bundled names)
LINEBYLINE_COURSE         the course folder (default: the bundled microgpt course)
LINEBYLINE_STATIC_ROOT    where static files are collected (default: static/ in the data dir);
                          a reverse proxy that serves them must be able to read it
LINEBYLINE_PRODUCTION     "1" refuses to start with an insecure configuration (production.py)
                          and sends cookies over HTTPS only
LINEBYLINE_RATE_LIMITS    "0" turns rate limits off, for load tests only (refused in production)
LINEBYLINE_EMAIL_HOST     an SMTP server for account mail: address confirmations, password resets
                          (default: none: mail is printed to the console); with
                          LINEBYLINE_EMAIL_PORT (default 587), _USER, _PASSWORD, _SECURITY
                          (starttls, ssl or none; default starttls), _FROM
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from ..course.dataset import names_file
from . import production
from .headers import add_static_headers, immutable_static_file

PACKAGE_DIR = Path(__file__).resolve().parent


def _data_dir() -> Path:
    configured = os.environ.get("LINEBYLINE_DATA_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "linebyline"


def _owner_only(path: Path, mode: int) -> None:
    """Make a folder (0700) or file (0600) we own unreadable to anyone else."""
    status = path.stat()
    if status.st_uid == os.geteuid() and status.st_mode & 0o077:
        path.chmod(mode)


def _private_data_dir(path: Path) -> Path:
    # The database holds session keys, which work as admin cookies: nobody else may read it.
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    _owner_only(path, 0o700)
    return path


def _private_sqlite(path: Path) -> str:
    """The SQLite file, created owner-only (SQLite gives its journals the same mode)."""
    if not path.exists():
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))  # an empty file is an empty database
    _owner_only(path, 0o600)
    return f"sqlite:///{path}"


def _secret_key(data_dir: Path) -> str:
    configured = os.environ.get("LINEBYLINE_SECRET_KEY")
    if configured:
        return configured
    path = data_dir / "secret_key"
    if not path.exists():
        data_dir.mkdir(parents=True, exist_ok=True)
        # Created readable by its owner only: the key signs sessions and CSRF tokens.
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(descriptor, "w") as file:
            file.write(secrets.token_urlsafe(50))
    return path.read_text().strip()


PRODUCTION = production.enabled(os.environ)
if PRODUCTION and production.problems(os.environ):
    raise ImproperlyConfigured(production.refusal(production.problems(os.environ)))


def _email_port(text: str) -> int:
    if not text.isdigit() or not 0 < int(text) < 65536:
        raise ImproperlyConfigured(f"LINEBYLINE_EMAIL_PORT must be a port number, not {text!r}")
    return int(text)


def _email_security(text: str) -> tuple[bool, bool]:
    choices = {"starttls": (True, False), "ssl": (False, True), "none": (False, False)}
    if text not in choices:
        raise ImproperlyConfigured("LINEBYLINE_EMAIL_SECURITY must be starttls, ssl or none, "
                                   f"not {text!r}")
    return choices[text]


DATA_DIR = _private_data_dir(_data_dir())
SECRET_KEY = _secret_key(DATA_DIR)
DEBUG = os.environ.get("LINEBYLINE_DEBUG", "") == "1"
ALLOWED_HOSTS = [h.strip() for h in os.environ.get(
    "LINEBYLINE_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]").split(",") if h.strip()]
NAMES_FILE = names_file()
COURSE_DIR = os.environ.get("LINEBYLINE_COURSE") or None

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "linebyline.web.apps.WebConfig",
    "linebyline.teaching.apps.TeachingConfig",
    "linebyline.accounts.apps.AccountsConfig",  # before allauth: its templates win
    "allauth",
    "allauth.account",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "linebyline.web.headers.SecurityHeaders",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "linebyline.web.shared_first.SharedPagesFirst",  # the course's pages, as fast as a file
    "django.middleware.gzip.GZipMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_ratelimit.middleware.RatelimitMiddleware",
    "linebyline.accounts.middleware.SecureCookiesOverHttps",
    "allauth.account.middleware.AccountMiddleware",
]

ROOT_URLCONF = "linebyline.web.urls"
WSGI_APPLICATION = "linebyline.web.wsgi.application"

TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
        "linebyline.web.context.assets",
    ]},
}]

DATABASES = {"default": dj_database_url.parse(
    os.environ.get("LINEBYLINE_DATABASE_URL") or _private_sqlite(DATA_DIR / "linebyline.sqlite3"),
    conn_max_age=60,
)}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # Several threads (and processes) write at once: the events, the shared cache. A write-ahead
    # log lets readers go on while one writes; synchronous=FULL syncs it to disk at every commit,
    # so a sync the server acknowledged survives a power loss, not only a killed process
    # (bench/load.py, "progress sync, each a write", measures the cost). IMMEDIATE transactions
    # take the write lock first, so two never deadlock upgrading to it.
    DATABASES["default"].setdefault("OPTIONS", {}).update({
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL",
        "transaction_mode": "IMMEDIATE", "timeout": 20})
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Shared by every server process on the database (rate limits must be): created by `serve`
# (createcachetable) on its first run. cache.py says why it is not Django's own DatabaseCache.
CACHES = {"default": {"BACKEND": "linebyline.web.cache.SharedDatabaseCache",
                      "LOCATION": "linebyline_cache",
                      "OPTIONS": {"MAX_ENTRIES": 1_000_000}}}

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Accounts: Django's auth with Argon2 (older hashes still verify, and are upgraded at sign-in).
PASSWORD_HASHERS = [
    "django.contrib.auth.hashers.Argon2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2PasswordHasher",
    "django.contrib.auth.hashers.PBKDF2SHA1PasswordHasher",
    "django.contrib.auth.hashers.ScryptPasswordHasher",
]
AUTHENTICATION_BACKENDS = ["django.contrib.auth.backends.ModelBackend"]
LOGIN_URL = "accounts:login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
SESSION_COOKIE_AGE = 60 * 60 * 24 * 30  # a month: learners come back to a course for weeks

# --- Accounts with django-allauth (issue 23) ------------------------------------------------
# Sign-in by username; an e-mail address is optional, and receives nothing but its confirmation
# until its owner has confirmed it (a password reset goes to a confirmed address only). Every
# account action is throttled by allauth in the shared cache (so across server processes),
# sliding windows per client address ("ip"), per e-mail address or sign-in pair ("key"), per
# account ("user"). The numbers are in docs/security.md. accounts/adapter.py makes the failed sign-in
# key the pair (username, client address): one learner's typos lock only themselves, while the
# address's own limit leaves room for a class of 30 behind one school address.
ACCOUNT_ADAPTER = "linebyline.accounts.adapter.AccountAdapter"
ACCOUNT_FORMS = {"login": "linebyline.accounts.forms.SignInForm",
                 "signup": "linebyline.accounts.forms.SignUpForm",
                 "add_email": "linebyline.accounts.forms.NewAddressForm",
                 "change_password": "linebyline.accounts.forms.PasswordChangeForm",
                 "set_password": "linebyline.accounts.forms.PasswordSetForm",
                 "reset_password": "linebyline.accounts.forms.ResetToConfirmedAddressForm",
                 "reset_password_from_key": "linebyline.accounts.forms.NewPasswordForm"}
ACCOUNT_LOGIN_METHODS = {"username"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "optional"
ACCOUNT_UNIQUE_EMAIL = True  # among confirmed addresses
# Signing up with an address another account holds unconfirmed is neither refused (that would
# tell who has it, and let anyone squat an address) nor answered with mail: only one account
# can confirm it, and only a confirmed one gets a reset.
ACCOUNT_PREVENT_ENUMERATION = "strict"
ACCOUNT_EMAIL_UNKNOWN_ACCOUNTS = False  # no mail to an address no account has confirmed
ACCOUNT_CHANGE_EMAIL = True  # one address per account; a new one replaces it once confirmed
ACCOUNT_CONFIRM_EMAIL_ON_GET = False  # a link opened by a mail scanner confirms nothing
ACCOUNT_SESSION_REMEMBER = True  # as before: a session lasts SESSION_COOKIE_AGE
ACCOUNT_EMAIL_SUBJECT_PREFIX = ""
ACCOUNT_RATE_LIMITS = {
    "signup": "40/h/ip",                          # a class of 30, with retries
    "login": "120/m/ip",                          # every sign-in attempt, right or wrong
    "login_failed": "150/15m/ip,5/15m/key",       # key: (username, client address)
    "reset_password": "10/h/ip,3/h/key",          # key: the e-mail address asked for
    "reset_password_from_key": "20/m/ip",
    "confirm_email": "1/3m/key,3/h/key",          # confirmation mails per address
    "change_password": "5/m/user",
    "manage_email": "10/m/user",
    "reauthenticate": "10/m/user",
}

EMAIL_HOST = os.environ.get("LINEBYLINE_EMAIL_HOST", "")
EMAIL_BACKEND = ("django.core.mail.backends.smtp.EmailBackend" if EMAIL_HOST
                 else "django.core.mail.backends.console.EmailBackend")
EMAIL_PORT = _email_port(os.environ.get("LINEBYLINE_EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("LINEBYLINE_EMAIL_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("LINEBYLINE_EMAIL_PASSWORD", "")
EMAIL_USE_TLS, EMAIL_USE_SSL = _email_security(os.environ.get("LINEBYLINE_EMAIL_SECURITY",
                                                              "starttls"))
EMAIL_TIMEOUT = 20
DEFAULT_FROM_EMAIL = os.environ.get("LINEBYLINE_EMAIL_FROM", "linebyline <noreply@localhost>")

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = Path(os.environ.get("LINEBYLINE_STATIC_ROOT") or DATA_DIR / "static")
# Everything in STATIC_ROOT is served: the bookkeeping of the build (the manifest of fingerprinted
# names, the stamp of what was collected) lives beside it instead.
BUILD_DIR = DATA_DIR / "build"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "linebyline.web.storage.StaticStorage"},
}
# Pyodide loads its files by their plain names, so they cannot be fingerprinted; they live in a
# folder named after Pyodide's version instead, which changes whenever the files do.
WHITENOISE_IMMUTABLE_FILE_TEST = immutable_static_file
WHITENOISE_ADD_HEADERS_FUNCTION = add_static_headers
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = ["jpg", "jpeg", "png", "gif", "webp", "zip", "gz", "tgz",
                                       "bz2", "tbz", "xz", "br", "woff", "woff2"]

SESSION_COOKIE_HTTPONLY = True
# In production every request arrives over HTTPS (through the proxy): cookies never leave it.
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = PRODUCTION
SESSION_COOKIE_SAMESITE = "Lax"
CSRF_COOKIE_SAMESITE = "Lax"
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

RATELIMIT_VIEW = "linebyline.web.views.rate_limited"
RATELIMIT_ENABLE = os.environ.get("LINEBYLINE_RATE_LIMITS", "1") != "0"

# One line per rejected request (tracebacks only for server errors), and waitress's
# "Task queue depth" warning at most once a minute (see logs.py).
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"line": {"()": "linebyline.web.logs.RequestLine",
                            "format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}},
    "filters": {"once_a_minute": {"()": "linebyline.web.logs.AtMostEvery", "seconds": 60}},
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "line"}},
    "loggers": {
        "django": {"handlers": ["console"], "level": "WARNING"},
        "waitress": {"handlers": ["console"], "level": "WARNING", "propagate": False},
        "waitress.queue": {"filters": ["once_a_minute"]},
    },
}
