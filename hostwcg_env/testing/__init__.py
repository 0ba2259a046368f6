"""Tools for testing the project and projects built on it: golden traces of seeded games
(``golden``), the fuzz, benchmarks and measurements. They import numpy but nothing of pytest, so
scripts and notebooks may use them; each thin script of ``scripts/`` calls one of them."""
