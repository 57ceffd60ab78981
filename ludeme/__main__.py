"""`python -m ludeme` runs the command line."""

import sys

from ludeme.cli.main import main

sys.exit(main())
