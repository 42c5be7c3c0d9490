import sys

from chunklab.cli import main

sys.exit(main())
