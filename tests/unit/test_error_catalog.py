"""The error catalog (relate/errors/catalog.py) against the code: every kind the package makes is
declared with the class it is made with, every declared kind is made somewhere, and a kind made
through the catalog is the error its class's constructor makes.

tests/conftest.py adds the same check at run time: every RelateError made while the whole test
session runs must have a declared kind (see tests/error_record.py).
"""
from __future__ import annotations

import ast
import inspect
import string
from collections import defaultdict
from pathlib import Path

import pytest

from relate import errors
from relate.errors import E, Position
from tests.error_sites import scan

SITES = scan()


def _where(sites) -> str:
    return "\n".join(f"  {s.module}:{s.line} {s.cls}({s.kind!r})" for s in sites)


def test_the_source_tells_the_kind_of_every_error_it_makes():
    unknown = [s for s in SITES if s.kind is None]
    assert not unknown, "these sites make an error whose kind the source does not name:\n" + _where(unknown)


def test_every_kind_the_package_makes_is_declared_with_its_class():
    undeclared = [s for s in SITES if s.kind is not None
                  and (s.cls not in vars(errors) or E.declared(vars(errors)[s.cls], s.kind) is None)]
    assert not undeclared, ("declare these kinds in relate/errors/catalog.py (in the group of the class), "
                            "or raise them with the class they are declared with:\n" + _where(undeclared))


def test_every_declared_kind_is_made_somewhere():
    made = {(s.cls, s.kind) for s in SITES}
    unused = [f"{k.error.__name__}.{k.name}" for k in E.kinds() if (k.error.__name__, k.name) not in made]
    assert not unused, f"nothing in relate/ raises these declared kinds; remove them: {unused}"


def test_the_scan_finds_the_kinds_of_helpers_and_constants():
    found = defaultdict(set)
    for s in SITES:
        found[(s.cls, s.kind)].add(s.module)
    # a helper whose parameter is the kind, and the default of that parameter
    assert "relate.semantic.projection" in found[("CypherSemanticError", "NoExpressionAlias")]
    assert "relate.syntax.parser" in found[("CypherSyntaxError", "ParseError")]
    # a module constant, a local chosen between two literals, a class fixing its own kind
    assert "relate.semantic.safe_mode" in found[("CypherSyntaxError", "SafeModeViolation")]
    assert "relate.syntax.parser" in found[("CypherSyntaxError", "InvalidUnicodeCharacter")]
    assert "relate.database" in found[("ReadOnlyError", "ReadOnly")]


def test_every_class_of_the_tree_has_one_group_in_tree_order():
    classes = [v for v in vars(errors.tree).values()
               if inspect.isclass(v) and issubclass(v, errors.RelateError) and v is not errors.RelateError]
    assert [g.error for g in E.GROUPS] == classes
    # a class whose constructor fixes the kind has that one kind
    for group in E.GROUPS:
        if "kind" not in inspect.signature(group.error.__init__).parameters:
            assert len(group.kinds) == 1, group


def test_a_kind_is_declared_once_in_its_group():
    tree = ast.parse(Path(E.__file__).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name in {g.__name__ for g in E.GROUPS}:
            names = [t.id for item in node.body if isinstance(item, ast.Assign)
                     for t in item.targets if isinstance(t, ast.Name)]
            assert len(names) == len(set(names)), f"{node.name} declares a kind twice: {names}"
    for kind in E.kinds():
        assert kind.description.strip() and "\n" not in kind.description, kind
        assert kind.phase in ("compile", "runtime"), kind


def _fields(kind) -> dict:
    if not isinstance(kind.message, str):
        return {name: ["a", "b"] for name in inspect.signature(kind.message).parameters} if kind.message else {}
    return {name: 1.5 if spec else "v" for _, name, spec, _ in string.Formatter().parse(kind.message) if name}


def _by_constructor(kind, detail: str, position: Position | None):
    cls = kind.error
    params = inspect.signature(cls.__init__).parameters
    if "kind" not in params:  # the class fixes the kind and builds the message itself
        if cls is errors.ParameterMissingError:
            return cls(["a", "b"])
        if cls is errors.StatementTimeout:
            return cls(1.5)
        return cls(detail)
    extra = {"phase": kind.phase} if "phase" in params else {}
    return cls(kind.name, detail, position=position, **extra)


def _facts(e) -> tuple:
    return (type(e), e.kind, e.detail, e.phase, e.position, e.args, str(e), e.message, e.label,
            e.tck_type, e.tck_detail, e.retryable, e.internal, e.exit_code, vars(e))


@pytest.mark.parametrize("kind", E.kinds(), ids=repr)
def test_the_catalog_makes_what_the_constructor_makes(kind):
    position = Position(4, 1, 5)
    params = inspect.signature(kind.error.__init__).parameters
    fixed = "kind" not in params
    if not fixed or kind.message is None:
        with_position = fixed is False and "position" in params
        made = kind("some detail", position=position if with_position else None)
        assert _facts(made) == _facts(_by_constructor(kind, "some detail", position if with_position else None))
    if kind.message is not None:
        made = kind(**_fields(kind))
        expected = _by_constructor(kind, made.detail, None)
        assert _facts(made) == _facts(expected)
        assert "{" not in made.detail.replace("{v}", "")  # every field of the template was filled


def test_a_kind_takes_its_fields_or_a_detail():
    e = E.Semantic.VariableAlreadyBound(name="n", position=Position(7, 1, 8))
    assert (e.message, e.position.offset, e.phase) == (
        "semantic error: VariableAlreadyBound: Variable `n` already declared", 7, "compile")
    assert E.Semantic.UndefinedVariable("Unknown procedure output: `x`").detail == "Unknown procedure output: `x`"
    with pytest.raises(TypeError):
        E.Semantic.VariableAlreadyBound("a detail", name="n")
    with pytest.raises(TypeError):
        E.Storage.Corrupt()  # no message of its own: the site words the detail
    assert E.Semantic.IndexNotFound(name="i").tck_type == "SemanticError"  # a runtime kind of its group
    assert E.Timeout.Timeout(seconds=0.25).seconds == 0.25


def test_the_session_check_sees_an_error_of_an_undeclared_kind():
    from tests import error_record

    errors.CypherTypeError("NoSuchKind", "made on purpose", phase="runtime")
    errors.CypherSemanticError("IndexNotFound", "declared for the runtime phase", phase="compile")
    try:
        lines = error_record.undeclared()
        assert any("CypherTypeError('NoSuchKind') is not declared" in line for line in lines), lines
        assert any("CypherSemanticError('IndexNotFound') was made in the compile phase" in line for line in lines)
    finally:  # these two were made on purpose: they must not fail the session
        error_record.forget(("CypherTypeError", "NoSuchKind", "runtime"),
                            ("CypherSemanticError", "IndexNotFound", "compile"))
    assert error_record.undeclared() == []


def test_errors_are_made_through_the_catalog():
    """Outside relate/errors/, no site constructs a RelateError class directly with a literal kind:
    `raise E.Group.Kind(...)` keeps one declaration per kind and its message in one place."""
    classes = {name for name, obj in vars(errors).items()
               if inspect.isclass(obj) and issubclass(obj, errors.RelateError)}
    root = Path(errors.__file__).parents[1]
    direct = []
    for path in sorted(root.rglob("*.py")):
        if path.parent.name == "errors":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in classes
                    and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)
                    and node.args[0].value[:1].isupper()):
                where = f"{path.relative_to(root.parent)}:{node.lineno}"
                direct.append(f"  {where} {node.func.id}({node.args[0].value!r}, ...)")
    assert not direct, "make these through the catalog (E.<Group>.<Kind>(...)):\n" + "\n".join(direct)
