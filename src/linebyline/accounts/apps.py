from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "linebyline.accounts"
    label = "accounts"
    verbose_name = "accounts and progress"

    def ready(self) -> None:
        from . import signals
        signals.connect()
