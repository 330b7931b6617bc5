"""The addresses accounts gave before e-mail was verified (django-allauth) become addresses to
confirm: none of them was ever proved to belong to its account (anyone could type anyone's), so
none gets a reset link until its owner confirms it from the account page. Where several accounts
gave one address, each keeps it unconfirmed; only one of them can confirm it."""
from django.db import migrations


def addresses_to_confirm(apps, schema_editor):
    users = apps.get_model("auth", "User")
    addresses = apps.get_model("account", "EmailAddress")
    for user in users.objects.exclude(email="").iterator():
        addresses.objects.get_or_create(user=user, email=user.email.lower(),
                                        defaults={"verified": False, "primary": True})


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0002_progress_set_aside"),
        ("account", "0009_emailaddress_unique_primary_email"),
    ]

    operations = [
        migrations.RunPython(addresses_to_confirm, migrations.RunPython.noop),
    ]
