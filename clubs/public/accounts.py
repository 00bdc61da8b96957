"""Signing up and getting back in, for anyone: the sign-up form, the page that
says a mail is on its way, the confirmation link's page, and Django's forgotten-
password pages with Knock's templates. The mails' links begin with SITE_URL."""

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from clubs import accounts
from clubs.public.forms import ConfirmForm, SignUpForm
from web.throttle import too_often

BACKEND = "django.contrib.auth.backends.ModelBackend"


def signup(request):
    """The same answer for every address (the mail says the rest), after the check
    that this address has not asked too often."""
    if request.user.is_authenticated:
        return redirect("manage:club-create")
    form = SignUpForm(
        request.POST if request.method == "POST" else None,
        initial={"next": _safe_next(request, request.GET.get("next", ""))},
    )
    if request.method == "POST" and too_often(request, what="signup"):
        return _too_many(request)
    if form.is_valid():
        data = form.cleaned_data
        accounts.account_sign_up(email=data["email"], next_page=_safe_next(request, data["next"]))
        return redirect("signup-sent")
    status = 400 if form.is_bound else 200
    return render(request, "clubs/public/signup_form.html", {"form": form}, status=status)


def signup_sent(request):
    return render(request, "clubs/public/signup_sent.html")


@never_cache
def signup_confirm(request, uidb64, token):
    """The link of the sign-up mail: the reader chooses a name and a password and
    confirms (a button: a mail program that opens links to look at them must not
    spend it), then is logged in and goes on to what the sign-up was for: an
    invitation, or a club of one's own."""
    next_page = _safe_next(request, request.GET.get("next", ""))
    waiting = accounts.account_waiting(uidb64=uidb64, token=token)
    if waiting is None:
        return render(request, "clubs/public/signup_invalid.html", status=404)
    form = ConfirmForm(request.POST if request.method == "POST" else None, email=waiting.email)
    if form.is_valid():
        user = accounts.account_confirm(
            uidb64=uidb64,
            token=token,
            name=form.cleaned_data["name"],
            password=form.cleaned_data["password"],
        )
        if user is None:  # confirmed a moment ago, by the same link opened twice
            return render(request, "clubs/public/signup_invalid.html", status=404)
        login(request, user, backend=BACKEND)
        return redirect(next_page or "manage:club-create")
    status = 400 if form.is_bound else 200
    context = {"form": form, "next": next_page}
    return render(request, "clubs/public/signup_confirm.html", context, status=status)


def _safe_next(request, next_page: str) -> str:
    """A page of this site to go on to, or ""."""
    ok = url_has_allowed_host_and_scheme(
        next_page, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    return next_page if ok and next_page.startswith("/") else ""


def _too_many(request):
    detail = _("Too many requests from your network. Wait an hour, then try again.")
    response = render(request, "429.html", {"detail": detail}, status=429)
    response["Retry-After"] = str(settings.ACCOUNT_MAIL_WINDOW)
    return response


def _throttled(view):
    """A password-reset request counted like a sign-up: each sends a mail."""

    def wrapped(request, *args, **kwargs):
        if request.method == "POST" and too_often(request, what="reset"):
            return _too_many(request)
        return view(request, *args, **kwargs)

    return wrapped


#: Django's reset form sends nothing to an address it does not know and shows the
#: same page after: no one learns whose address is registered.
password_reset = _throttled(
    auth_views.PasswordResetView.as_view(
        email_template_name="clubs/mail/password_reset.txt",
        subject_template_name="clubs/mail/password_reset_subject.txt",
        extra_email_context={"site_url": settings.SITE_URL},
    )
)
password_reset_done = auth_views.PasswordResetDoneView.as_view()
password_reset_confirm = auth_views.PasswordResetConfirmView.as_view(
    post_reset_login=True, post_reset_login_backend=BACKEND
)
password_reset_complete = auth_views.PasswordResetCompleteView.as_view()
