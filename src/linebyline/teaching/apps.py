from django.apps import AppConfig


class TeachingConfig(AppConfig):
    name = "linebyline.teaching"
    label = "teaching"
    verbose_name = "teaching"
