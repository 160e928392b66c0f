"""``python -m onered`` runs the ``onered`` command."""

import sys

from onered.cli import main, quiet_on_broken_pipe

if __name__ == "__main__":
    sys.exit(quiet_on_broken_pipe(main))
