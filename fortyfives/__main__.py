"""``python -m fortyfives``: the ``fortyfives`` command (what the single-file bundle runs)."""

import sys

from fortyfives.cli import main

sys.exit(main())
