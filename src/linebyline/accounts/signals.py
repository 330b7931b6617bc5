"""A new password ends every personal token of the account, as it ends the account's other
sessions: whoever knew the old password may have made one.

Every way a password is set (the password change and reset pages, the admin, `manage
changepassword`) goes through User.set_password(), which keeps the new password in `_password`
until save() has passed it to the password validators' password_changed hook; the quiet rehash at
sign-in (a stronger hasher, same password) clears it first. So a save with `_password` set is a
new password, and only that."""
from __future__ import annotations

from django.conf import settings
from django.db.models.signals import post_save


def end_tokens_on_new_password(sender, instance, created: bool, **kwargs) -> None:
    if created or getattr(instance, "_password", None) is None:
        return
    instance.access_tokens.all().delete()


def connect() -> None:
    post_save.connect(end_tokens_on_new_password, sender=settings.AUTH_USER_MODEL,
                      dispatch_uid="linebyline-end-tokens-on-new-password")
