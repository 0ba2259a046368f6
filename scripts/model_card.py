"""Write agents/checkpoints/MODEL_CARD.md from the training run's JSON and a ladder report.

The command-line front end of ``agents.training.model_card``, where the logic, its options and its documentation
live (``python scripts/model_card.py --help``).
"""

from agents.training.model_card import main

if __name__ == "__main__":
    raise SystemExit(main())
