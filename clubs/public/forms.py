"""The forms of a person without a club yet: signing up, logging in. They only
validate."""

from django import forms
from django.contrib.auth import get_user_model, password_validation
from django.contrib.auth.forms import AuthenticationForm
from django.utils.translation import gettext_lazy as _

from web.validators import PrintableForm


class SignUpForm(PrintableForm):
    """Only the address: the name and the password are chosen on the page its
    mail leads to (`clubs.accounts`)."""

    email = forms.EmailField(label=_("Email"), max_length=150)
    next = forms.CharField(required=False, widget=forms.HiddenInput)


class ConfirmForm(PrintableForm):
    """The confirmation page's: the name the club shows and the password, chosen
    by whoever opened the mailed link."""

    name = forms.CharField(
        label=_("Your name"),
        max_length=120,
        help_text=_("As the players at your club know you; your address is never shown."),
    )
    password = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text=_("At least 8 characters, not only digits, not a common password."),
    )

    def __init__(self, *args, email: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.email = email

    def clean(self):
        data = super().clean()
        if "password" in data:
            # Checked against the name and address, like Django's own forms.
            person = get_user_model()(
                username=self.email, email=self.email, first_name=data.get("name", "")
            )
            try:
                password_validation.validate_password(data["password"], person)
            except forms.ValidationError as error:
                self.add_error("password", error)
        return data


class LoginForm(AuthenticationForm):
    """Django's login form; an e-mail address typed as the user name is matched
    whatever its case, as sign-up keeps it in small letters (`account_sign_up`)."""

    def clean_username(self):
        name = self.cleaned_data["username"]
        return name.lower() if "@" in name else name
