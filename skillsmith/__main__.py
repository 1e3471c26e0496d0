"""Run skillsmith as ``python -m skillsmith``."""

import sys

from skillsmith.cli.main import main

sys.exit(main())
