"""Engine and env speed, both builds of the same commit side by side (docs/engine.md).

The command-line front end of ``hostwcg_env.testing.bench``, where the logic, its options and its documentation
live (``python scripts/bench.py --help``).
"""

from hostwcg_env.testing.bench import main

if __name__ == "__main__":
    raise SystemExit(main())
