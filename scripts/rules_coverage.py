"""Rules coverage: which numbered rule is implemented where, and which tests check it.

The command-line front end of ``hostwcg_env.testing.rules_coverage``, where the logic, its options and its documentation
live (``python scripts/rules_coverage.py --help``).
"""

from hostwcg_env.testing.rules_coverage import main

if __name__ == "__main__":
    raise SystemExit(main())
