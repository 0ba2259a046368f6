"""Training: the logic behind the training scripts, importable by notebooks and tests.

``train_ppo`` (hostwcg_v0, MaskablePPO by self-play), ``train_v1`` (the hostwcg_v1 set policy:
league PPO), ``distill_v1`` (cloning a search teacher, DAgger), ``learned_check`` (the network
taught the search's check; expert iteration), ``pretrain_bc`` (v0 behaviour cloning). Each has
``main(argv)``; ``scripts/NAME.py`` is its command-line front end. ``bench_train`` (v0 against
v1 training throughput), ``eval_policy`` (a PPO policy on the ladder) and ``lookahead_fit`` (the
lookahead's evaluation weights fitted to kept games) are the logic of the scripts of those names
(``fit_lookahead_eval`` for the last), which keep only their argparse front end. ``recipe`` (the
TOML recipe and its checks), ``pipeline`` (the stage runner over those pieces) and ``exploit`` (a
best response to a frozen agent) are behind ``hostwcg train`` and ``hostwcg exploit``
(``hostwcg_env/cli_train.py``, docs/training.md). They need the ``train``
extra (torch, Stable-Baselines3, sb3-contrib), imported where used. This package sits above
``hostwcg_env.analysis`` (it plays and replays games through the runner), so nothing below it
imports it.
"""
