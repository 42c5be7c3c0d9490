"""The chunklab version: in index fingerprints (a new one may cut differently) and `--version`."""

__version__ = "0.1.0"
"""In every index fingerprint, so `chunklab index` re-indexes what another version cut; and
what `chunklab --version` prints."""
