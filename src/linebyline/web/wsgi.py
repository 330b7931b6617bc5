"""The WSGI application that `linebyline serve` hands to waitress."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "linebyline.web.settings")
application = get_wsgi_application()
