"""Run skillsmith as ``python -m skillsmith``."""

import sys

from skillsmith.cli import main

sys.exit(main())
