"""``python -m onered`` runs the ``onered`` command."""

import sys

from onered.cli import main

if __name__ == "__main__":
    sys.exit(main())
