"""The public pages of registration before the night (drives/registration_pages.py), outside
any namespace: ``drive-register`` (a drive's registration page) and ``drive-register-cancel``
(the cancel link)."""

from django.urls import path

from drives import registration_pages

urlpatterns = [
    path("drives/<slug:slug>/register/", registration_pages.register, name="drive-register"),
    path(
        "register/cancel/<str:token>/",
        registration_pages.register_cancel,
        name="drive-register-cancel",
    ),
]
