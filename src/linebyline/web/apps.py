from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "linebyline.web"
    label = "linebyline"
    verbose_name = "linebyline"
