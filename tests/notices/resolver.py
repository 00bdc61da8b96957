"""The names the tests' push addresses resolve to: a table, not the machine's
resolver (a test machine may have no DNS)."""

from notices import endpoints

PUBLIC = "93.184.215.14"

NAMES = {
    "push.example.org": [PUBLIC],
    "push.example.net": ["2606:2800:220:1::"],
    # One address among several inside the site's network is enough to refuse.
    "mixed.example.org": [PUBLIC, "10.0.0.7"],
    "metadata.example.org": ["169.254.169.254"],
    "mapped.example.org": ["::ffff:127.0.0.1"],
    "nat64.example.org": ["64:ff9b::a00:1"],
    "group.example.org": ["224.0.0.251"],
    "nowhere.example.org": ["0.0.0.0"],
    "shared.example.org": ["100.64.0.1"],
}


def resolving(monkeypatch, names=None) -> dict:
    """Push addresses resolved from ``names`` (NAMES by default), a name it lacks
    not found; returns the table, which a test may change to re-point a name."""
    table = dict(NAMES if names is None else names)

    def addresses(host):
        if host not in table:
            raise OSError("Name or service not known")
        return list(table[host])

    monkeypatch.setattr(endpoints, "addresses", addresses)
    return table
