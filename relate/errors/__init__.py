"""relate's errors: the one tree of classes (`tree.py`) and the catalog of kinds (`catalog.py`).

`from relate.errors import CypherTypeError` names a class of the tree; `E` is the catalog, whose
declarations make the errors (`raise E.Type.InvalidArgumentType(detail)`).
"""
from . import catalog as E  # noqa: F401
from .tree import *  # noqa: F401,F403  (every class and constant of the tree, as before the split)
