"""``python -m kubasolve`` runs the CLI."""

import sys

from kubasolve.cli.main import main

sys.exit(main())
