"""Where collected static files are kept."""
from __future__ import annotations

from django.conf import settings
from django.core.files.storage import FileSystemStorage
from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    """WhiteNoise's fingerprinted, compressed files, with the manifest kept out of STATIC_ROOT:
    everything in there is served, and the manifest is bookkeeping, not a page asset."""

    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("manifest_storage", FileSystemStorage(location=settings.BUILD_DIR))
        super().__init__(*args, **kwargs)
