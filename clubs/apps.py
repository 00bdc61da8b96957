from django.apps import AppConfig
from django.contrib.auth.signals import user_logged_in, user_login_failed


class ClubsConfig(AppConfig):
    name = "clubs"

    def ready(self):
        # Django's own hooks for logins: they fire for every way in (the login page,
        # the admin's, any other view that authenticates), which no single view of
        # ours would see. They only hand over to the service that records.
        user_logged_in.connect(_logged_in, dispatch_uid="clubs-login")
        user_login_failed.connect(_login_failed, dispatch_uid="clubs-login-failed")


def _address(request):
    from web.client import client_address

    return client_address(request) if request is not None else None


def _logged_in(sender, request, user, **kwargs):
    from clubs.services import login_record

    login_record(user=user, username=user.get_username(), address=_address(request), succeeded=True)


def _login_failed(sender, credentials, request=None, **kwargs):
    from clubs.services import login_record

    # Django masks the password in ``credentials``; the name typed is kept.
    username = str(credentials.get("username", ""))
    login_record(username=username, address=_address(request), succeeded=False)
