"""Python base classes for compiled engine classes, for what mypyc's own classes lack. This
module is never compiled (setup.py): a compiled class that inherits from a Python class gets
the Python object layout, weak references included."""


class Weakrefable:
    """A base whose instances take weak references (a compiled class alone does not): callers
    check that a finished game and its state are freed (``weakref.ref(game)``)."""
