"""Tools for testing the project and projects built on it: golden traces of seeded games
(``golden``). They import numpy but nothing of pytest, so scripts and notebooks may use them."""
