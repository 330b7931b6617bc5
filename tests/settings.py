"""Django settings for the tests: the real ones, with a throwaway data folder and plain static files."""
import os
import tempfile

os.environ.setdefault("LINEBYLINE_DATA_DIR", tempfile.mkdtemp(prefix="linebyline-test-"))

from linebyline.web.settings import *  # noqa: E402,F403

STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
STATIC_ROOT.mkdir(exist_ok=True)  # noqa: F405 (WhiteNoise wants it to exist)
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # fast logins in tests only
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):  # noqa: F405
    # A file, as in real use: SQLite's in-memory test database locks tables between threads
    # instead of waiting, so concurrent writers (the shared cache) would not be tested as they run.
    DATABASES["default"]["TEST"] = {"NAME": str(DATA_DIR / "test.sqlite3")}  # noqa: F405
