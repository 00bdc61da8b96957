"""The browser tests' own teardown: a context Chromium will not close costs the
browser, not the suite's timeout, and the module's next test still gets one."""

import pytest

from tests.browser.conftest import PHONE, close, kill_browsers


def test_a_killed_browser_is_launched_again_for_the_next_context(chromium, live_server):
    context = chromium.new_context(viewport=PHONE)
    context.new_page().goto(live_server.url + "/")

    kill_browsers()
    with pytest.warns(UserWarning, match="was killed"):
        close(context)  # returns at once: the context went with the browser

    context = chromium.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(live_server.url + "/")
    assert page.title()
    close(context)
