"""Speed measurements, run with ``python -m benchmarks`` (``make bench``)."""
