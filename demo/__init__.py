"""The demo club (`loader`) and a big tournament for the benchmarks (`big`)."""

import json
from pathlib import Path

#: A hand of the party formats won by a knocker with no deadwood, as its entry
#: gives it (`hands.json`, to which the knocker and the defender's deadwood are
#: added): what ends the demo's parties quickly.
NO_DEADWOOD = json.loads(Path(__file__).with_name("hands.json").read_text())["no_deadwood"]
