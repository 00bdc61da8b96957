"""Run every benchmark module's ``main()`` in turn."""

from benchmarks import melds

MODULES = [melds]


def main() -> None:
    for module in MODULES:
        module.main()


if __name__ == "__main__":
    main()
