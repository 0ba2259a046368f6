"""``python -m hostwcg_env``: the ``hostwcg`` command."""

import sys

from hostwcg_env.cli import main

sys.exit(main())
