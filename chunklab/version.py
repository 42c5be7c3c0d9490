"""The version of chunklab: in the index fingerprints (a new version may cut differently) and `--version`."""

__version__ = "0.1.0"
