"""Build ``docs/rules-index.toml``: every numbered rule of the Host WCG comprehensive rules.

The command-line front end of ``hostwcg_env.testing.rules_index``, where the logic, its options and its documentation
live (``python scripts/build_rules_index.py --help``).
"""

from hostwcg_env.testing.rules_index import main

if __name__ == "__main__":
    raise SystemExit(main())
