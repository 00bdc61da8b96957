"""The clubs' page anyone may open: where a new organizer chooses their password.
The home page and a club's page show tournaments too, so they live in
tournaments/public."""

from django.contrib.auth import views as auth_views
from django.urls import reverse_lazy

from clubs import services

#: Django's set-password view with the organizer invitation's own tokens: the link
#: works once, expires, and stops when the invitation is revoked. The new organizer
#: is logged in and lands on their clubs.
organizer_welcome = auth_views.PasswordResetConfirmView.as_view(
    token_generator=services.invitation_tokens,
    template_name="clubs/public/organizer_welcome.html",
    success_url=reverse_lazy("manage:club-list"),
    post_reset_login=True,
    post_reset_login_backend="django.contrib.auth.backends.ModelBackend",
)
