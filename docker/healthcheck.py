"""The web container's health check: /health/ (the database answers) and the
home page (templates and static files render) must both answer 200. A page that
fails while the API still answers makes the container unhealthy.

Asks as the proxy would: for an allowed host, over https."""

import os
import sys
from urllib.request import Request, urlopen

BASE = os.environ.get("HEALTHCHECK_URL", "http://127.0.0.1:8000")
HEADERS = {
    "Host": os.environ["ALLOWED_HOSTS"].split(",")[0].strip(),
    "X-Forwarded-Proto": "https",
}


def main() -> int:
    for path in ("/health/", "/"):
        try:
            with urlopen(Request(BASE + path, headers=HEADERS), timeout=4) as response:
                status = response.status
        except Exception as error:  # an error status or no answer at all
            print(f"{path}: {error}", file=sys.stderr)
            return 1
        if status != 200:
            print(f"{path}: {status}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
