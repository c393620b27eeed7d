"""A parsed statement -> nothing, or the first compile-time error it holds: the checking stage.

Every error found before any data is read comes from here; the planner and the expression
compiler then only build (a guard of theirs that fires is an internal error).  Two passes run in
this fixed order, and which error a statement with several faults reports is part of what users
see, so the order is the one the statement was always judged in:

1. `scoping.py`: variables and scopes clause by clause (`bindings.py` for pattern variables,
   `projection.py` for WITH/RETURN, `pattern_positions.py` for patterns used as values).
2. `build_order.py`: the planner's own order (UNION parts, clause placement, patterns from their
   anchor, CREATE/MERGE shapes, CALL against the registry) with expressions walked as they are
   compiled (`expr_order.py`): static operand types (`types.py`), function calls, names a
   property map reads before the walk binds them.  The rules are in `checks/`.

`Catalog` is what the checks ask of the rest of the engine, which they may not import: the
function table's arities, the procedure registry and the planner's anchor choice for a pattern
part (a property map may read only names bound before it in the walk).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..syntax import ast as A
from .build_order import BuildOrder
from .scoping import Analyzer


@dataclass(frozen=True, slots=True)
class Catalog:
    arity: Callable[[str], tuple[int, int] | None]  # lower-cased function name -> (min, max) args
    procedures: object = None  # a registry with `.get(name)`; None: no procedure is known
    anchor: Callable | None = None  # (element, bound names, WHERE conjuncts) -> anchor node index


def analyze(stmt: A.Statement, catalog: Catalog) -> None:
    """Raise the first compile-time error of `stmt`; return when it may be planned."""
    Analyzer(stmt.text, catalog.procedures).statement(stmt)
    BuildOrder(stmt.text, catalog.arity, catalog.procedures, catalog.anchor).statement(stmt)
