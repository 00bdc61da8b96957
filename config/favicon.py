"""/favicon.ico, which browsers and bookmark tools ask for whatever the page links."""

from django.contrib.staticfiles.storage import staticfiles_storage
from django.shortcuts import redirect
from django.views.decorators.http import require_safe


@require_safe
def favicon(request):
    """The site's icon (static/knock.svg, the one base.html links): a redirect to
    its static address, which carries the file's hash in production and so may be
    cached for good, unlike this fixed path."""
    return redirect(staticfiles_storage.url("knock.svg"))
