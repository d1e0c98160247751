"""``python -m fortyfives``: the ``fortyfives`` command, and the single-file bundle's entry
(packaging/fortyfives.spec).

``freeze_support()`` first: the hall's server (granian) starts its worker as a new process of
this same program (multiprocessing's "spawn"); in the bundle that process is the bundle run
again, which must become the worker instead of parsing the command line. Outside a bundle it
does nothing.
"""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()

    from fortyfives.cli import main

    sys.exit(main())
