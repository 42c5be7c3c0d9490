"""The chunklab version: in index fingerprints (a new one may cut differently) and `--version`."""

__version__ = "0.1.0"
