"""The public pages of the clubs (namespace ``public``, see config/urls.py). A
club's page and the home page show its tournaments too, so they live with the
app above, in tournaments/public."""

from django.contrib.auth import views as auth_views
from django.urls import path

from clubs.public import accounts, invitations, views
from clubs.public.forms import LoginForm

urlpatterns = [
    # The link an owner gives a new organizer, to choose the login's password.
    path("welcome/<uidb64>/<token>/", views.organizer_welcome, name="organizer-welcome"),
    # An invitation to organize a club, by link or by e-mail.
    path("invitations/<str:key>/", invitations.invitation_detail, name="invitation"),
]

# Names outside any namespace: Django's auth and the settings refer to them.
site_urlpatterns = [
    path("login/", auth_views.LoginView.as_view(form_class=LoginForm), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("signup/", accounts.signup, name="signup"),
    path("signup/sent/", accounts.signup_sent, name="signup-sent"),
    path("signup/<uidb64>/<token>/", accounts.signup_confirm, name="signup-confirm"),
    path("password-reset/", accounts.password_reset, name="password_reset"),
    path("password-reset/sent/", accounts.password_reset_done, name="password_reset_done"),
    path(
        "password-reset/<uidb64>/<token>/",
        accounts.password_reset_confirm,
        name="password_reset_confirm",
    ),
    path("password-reset/done/", accounts.password_reset_complete, name="password_reset_complete"),
]
