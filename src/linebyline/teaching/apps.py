from django.apps import AppConfig


class TeachingConfig(AppConfig):
    name = "linebyline.teaching"
    label = "teaching"
    verbose_name = "teaching"

    def ready(self) -> None:
        # The account's API and data download include teaching's part; accounts never imports
        # this app (it sits below it).
        from ..accounts import contributions
        from .access import can_teach
        from .export import learner_data

        contributions.add_flag("teach", can_teach)
        contributions.add_data(learner_data)
