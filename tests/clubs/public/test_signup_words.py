"""Sign-up in German: "Adresse" alone reads as a postal address; the confirmation
form says e-mail address."""

from django.utils import translation

from clubs.public.forms import ConfirmForm


def test_the_german_confirmation_says_the_email_address_is_never_shown():
    with translation.override("de"):
        html = str(ConfirmForm()["name"].help_text)
    assert html.endswith("Ihre E-Mail-Adresse wird nie gezeigt.")
