"""`python -m chunklab`: the same as the `chunklab` command.

Guarded, so that importing the module (the API reference's autosummary imports every module)
does not run the command line with the importer's arguments.
"""

import sys

from chunklab.cli import main

if __name__ == "__main__":
    sys.exit(main())
