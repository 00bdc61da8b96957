"""Every kind of page of the demo, public and the organizer's, read as the HTML
checker reads it: ids used once, labels tied to a field that is there, one h1 and
headings that never skip a level (a screen reader's outline of the page), and no
cell spanning more columns than its table has."""

import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

pytestmark = pytest.mark.django_db

# Links whose answer is no page of its own kind (files, streams) or that change
# something when followed.
NOT_A_PAGE = re.compile(
    r"/static/|/logout|/api/|csv|json|archive|print|cards|/qr|\.png|\.svg|/events|"
    r"/live/|/poll|manifest|/sw\.js"
)
MANY = re.compile(r"/table/[^/]+/|/door/[^/]+/|/me/[^/]+/|\d+")


LANDMARKS = {
    "nav": "navigation",
    "main": "main",
    "aside": "complementary",
    "section": "region",
    "form": "form",
    "search": "search",
}
LANDMARK_ROLES = {"navigation", "main", "complementary", "region", "form", "search"}
VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


class Outline(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: list[str] = []
        self.label_for: list[str] = []
        self.headings: list[int] = []
        self.links: list[str] = []
        # Per table: the cells of its first row, and every colspan in it.
        self.tables: list[dict] = []
        self.open_tables: list[dict] = []
        # Landmarks as (role, name, labelled-by id); the text of each element with an id.
        self.landmarks: list[tuple[str, str, str]] = []
        self.texts: dict[str, str] = {}
        self.open_ids: list[tuple[str, str]] = []

    def handle_data(self, data):
        for _tag, ident in self.open_ids:
            self.texts[ident] = self.texts.get(ident, "") + data

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        role = attrs.get("role") or LANDMARKS.get(tag)
        named = attrs.get("aria-label") or attrs.get("aria-labelledby")
        if role in ("region", "form") and not named:
            role = None  # a section or form without a name is no landmark
        if role in LANDMARK_ROLES:
            label = (attrs.get("aria-label") or "").strip()
            self.landmarks.append((role, label, attrs.get("aria-labelledby") or ""))
        if "id" in attrs and tag not in VOID:
            self.open_ids.append((tag, attrs["id"]))
        if tag == "table":
            table = {"columns": 0, "rows": 0, "spans": []}
            self.tables.append(table)
            self.open_tables.append(table)
        elif tag == "tr" and self.open_tables:
            self.open_tables[-1]["rows"] += 1
        elif tag in ("td", "th") and self.open_tables:
            table = self.open_tables[-1]
            span = int(attrs.get("colspan") or 1)
            if table["rows"] == 1:
                table["columns"] += span
            if span > 1:
                table["spans"].append(span)
        if "id" in attrs:
            self.ids.append(attrs["id"])
        if tag == "label" and attrs.get("for"):
            self.label_for.append(attrs["for"])
        if re.fullmatch(r"h[1-6]", tag):
            self.headings.append(int(tag[1]))
        if tag == "a" and (attrs.get("href") or "").startswith("/"):
            self.links.append(attrs["href"].split("#")[0].split("?")[0])

    def handle_endtag(self, tag):
        if tag == "table" and self.open_tables:
            self.open_tables.pop()
        if self.open_ids and self.open_ids[-1][0] == tag:
            self.open_ids.pop()

    def landmark_names(self) -> list[tuple[str, str]]:
        return [
            (role, label or " ".join(self.texts.get(i, "") for i in by.split()).strip())
            for role, label, by in self.landmarks
        ]


def faults(html: str) -> list[str]:
    outline = Outline()
    outline.feed(html)
    found = [f"id {i!r} used twice" for i in sorted(set(outline.ids)) if outline.ids.count(i) > 1]
    found += [f"label for missing id {i!r}" for i in outline.label_for if i not in outline.ids]
    levels = outline.headings
    found += [f"h{b} follows h{a}" for a, b in zip([1, *levels], levels, strict=False) if b > a + 1]
    names = outline.landmark_names()
    found += [
        f"two {role} landmarks named {name!r}"
        for role, name in sorted(set(names))
        if names.count((role, name)) > 1
    ]
    if levels.count(1) != 1:
        found.append(f"{levels.count(1)} h1")
    found += [
        f"colspan={span} in a table of {table['columns']} columns"
        for table in outline.tables
        for span in table["spans"]
        if span > table["columns"]
    ]
    return found


def crawl(client, start: str) -> dict[str, list[str]]:
    """One page of each kind reachable from start, with what is wrong on it."""
    kinds: dict[str, list[str]] = {}
    queue, seen = [start], set()
    while queue:
        url = queue.pop(0)
        if url in seen or NOT_A_PAGE.search(url):
            continue
        seen.add(url)
        kind = MANY.sub("N", url)
        if kind in kinds:
            continue
        response = client.get(url)
        if response.status_code != 200 or "html" not in response["Content-Type"]:
            continue
        html = response.content.decode()
        kinds[kind] = faults(html)
        outline = Outline()
        outline.feed(html)
        queue += outline.links
    return kinds


def test_every_page_kind_public_and_the_organizer_s_has_unique_ids_and_an_unbroken_outline(
    client, settings
):
    # One test for both crawls: the demo's load is most of its time.
    settings.DEBUG = True
    call_command("load_demo")
    kinds = crawl(client, "/")
    assert {"/t/knickerbocker-autumn-cup/final/", "/clubs/knickerbocker/seasons/N/"} <= set(kinds)
    client.force_login(User.objects.get(username="organizer"))
    organizer = crawl(client, "/manage/")
    assert {"/manage/seasons/N/", "/manage/tournaments/knickerbocker-autumn-cup/final/"} <= set(
        organizer
    )
    assert len(organizer) >= 25
    crawls = {"public": kinds, "organizer": organizer}
    failing = {
        f"{who} {kind}": found
        for who, crawled in crawls.items()
        for kind, found in crawled.items()
        if found
    }
    assert not failing, "\n".join(f"{k}: {v}" for k, v in failing.items())
