from django import forms
from django.utils.translation import gettext_lazy as _


class NoticeFilterForm(forms.Form):
    undelivered = forms.BooleanField(label=_("Only those failed or bounced"), required=False)
