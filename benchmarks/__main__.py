"""Run every benchmark module's ``main()`` in turn."""

from benchmarks import (
    grouping,
    melds,
    pairing,
    public,
    schedules,
    seasons,
    standings,
    stream_memory,
    table,
)

MODULES = [melds, pairing, grouping, schedules, table, standings, stream_memory, seasons, public]


def main() -> None:
    for module in MODULES:
        print()
        module.main()


if __name__ == "__main__":
    main()
