"""GAPS.md: per construct, what relate does today and the smallest failing query.

Constructs (a scenario's tag) are sorted by how many corpus cases they fail.  "Today" is the mix of
failure kinds (parse error, wrong result, missing error, ...) with the commonest reason; the
smallest failing query is the shortest query text among the construct's failing cases.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from pathlib import Path

# What each construct needs, for the helpers who build it (hand-written; keyed by tag).
NOTES = {
    "constraint-unique": "CREATE CONSTRAINT ... IS UNIQUE (node and relationship, composite); enforce on "
                         "CREATE/SET/SET label/MERGE; check existing data (ConstraintCreationFailed).",
    "constraint-existence": "IS NOT NULL constraints, checked at commit (a later SET in the same statement "
                            "satisfies them).",
    "constraint-key": "IS NODE KEY / IS RELATIONSHIP KEY = existence + uniqueness over the key.",
    "constraint-type": "IS :: <TYPE> (IS TYPED) property type constraints, unions, LIST<T NOT NULL>.",
    "constraint-ddl": "IF NOT EXISTS, DROP CONSTRAINT name [IF EXISTS], OPTIONS {...}, name clashes with "
                      "indexes, Neo4j 4 ON/ASSERT refused.",
    "show-constraints": "SHOW [UNIQUE|...] CONSTRAINTS [YIELD ... [WHERE]] with the 5.x columns id, name, "
                        "type, entityType, labelsOrTypes, properties, ownedIndex, propertyType.",
    "index-create": "CREATE [RANGE|TEXT|POINT|FULLTEXT] INDEX for relationships, composites, "
                    "EquivalentSchemaRuleAlreadyExists / IndexWithNameAlreadyExists.",
    "index-drop": "DROP INDEX name: IndexDropFailed when missing or owned by a constraint.",
    "show-indexes": "SHOW [TEXT|...] INDEXES YIELD ... WHERE ... (name, state, type, entityType, "
                    "labelsOrTypes, properties, owningConstraint). Decide whether relate lists Neo4j's two "
                    "default LOOKUP indexes (the corpus filters them out).",
    "call-unit": "CALL (x) { write } with no RETURN: keeps outer rows; a query may end in it.",
    "call-returning": "CALL (x) { ... RETURN } per row, UNION inside, ORDER BY/LIMIT inside.",
    "call-scope": "The variable scope clause CALL (x, y) / CALL () / CALL (*) and its errors.",
    "call-import-with": "The importing WITH of an unscoped CALL { }.",
    "optional-call": "OPTIONAL CALL: outer rows kept with nulls.",
    "in-transactions": "CALL { } IN [n CONCURRENT] TRANSACTIONS [OF n ROWS]: batches commit on their own.",
    "in-transactions-errors": "ON ERROR CONTINUE | BREAK | FAIL, REPORT STATUS AS s {started, committed, "
                              "transactionId, errorMessage}; committed batches survive a failure.",
    "collect-subquery": "COLLECT { ... RETURN one column }, UNION inside, no updates.",
    "count-subquery": "COUNT { pattern [WHERE] } and COUNT { full query }, UNION inside.",
    "exists-subquery": "EXISTS { } with UNION inside.",
    "subquery-expression-scope": "Shadowing refused inside EXISTS/COUNT/COLLECT; no updates.",
    "qpp": "Quantified path patterns ((a)-[r]->(b)){m,n} / + / * between node patterns.",
    "qpp-group-variables": "Group variables: node and relationship variables bound as lists.",
    "qpp-where": "WHERE inside a QPP, applied per iteration.",
    "qpp-path": "Path variables over QPPs, direction, undirected trails, QPPs in sequence.",
    "qpp-semantics": "Trail semantics (no relationship twice in a path).",
    "qpp-errors": "Quantifier bounds, nesting, mixing with -[*]-, group variables reused as singletons.",
    "quantified-relationship": "-[:R]->{m,n} / + / * with a list-valued relationship variable.",
    "shortest": "SHORTEST k, ALL SHORTEST, ANY SHORTEST, partitioned by end-node pair; inner predicates "
                "filter before selection.",
    "shortest-groups": "SHORTEST k GROUPS.",
    "any-path": "ANY [k], ALL selectors.",
    "shortest-path-function": "shortestPath()/allShortestPaths() with the WHERE on relationships(p) "
                              "applied during the search; single-relationship and min-length rules.",
    "label-or": "Label disjunction :A|B in node patterns.",
    "label-and": "Label conjunction :A&B and parentheses, & binding tighter than |.",
    "label-not": "Label negation :!A.",
    "label-wildcard": "The wildcard :% and :!%.",
    "label-where": "Label expressions as predicates/values in WHERE and RETURN.",
    "label-is": "The IS form (n IS Label, WHERE n IS A&B).",
    "label-create": "CREATE accepts :A&B; refuses | in CREATE/MERGE and : mixed with new symbols.",
    "type-expression": "Relationship type expressions |, !, %, &.",
    "dynamic-label-match": "MATCH (n:$(expr)), $any(...), $all(...).",
    "dynamic-label-write": "CREATE/SET/REMOVE/MERGE with :$(expr).",
    "dynamic-type": "Relationship types [:$(expr)].",
    "dynamic-property": "SET n[key] = v (dynamic property writes).",
    "inline-where": "WHERE inside node and relationship patterns.",
    "inline-where-errors": "Pattern predicates refused in CREATE/MERGE and on var-length relationships.",
    "type-predicate": "x IS [NOT] :: <TYPE> [NOT NULL], IS TYPED, ::, unions, LIST<T>, synonyms.",
    "value-type": "valueType().",
    "string-concat": "|| on strings and lists, the Neo4j 5 string functions.",
    "normalize": "normalize(s[, form]) and s IS [NOT] [form] NORMALIZED.",
    "string-errors": "Errors of string functions and ||.",
    "list-functions": "|| on lists, to*List, isEmpty, ...",
    "round": "round(x, precision[, mode]) on the decimal text, HALF_UP default with a precision.",
    "math-functions": "Numeric functions.",
    "math-errors": "Arithmetic errors.",
    "element-id": "elementId() (a string id) for nodes and relationships.",
    "null-if": "nullIf(a, b).",
    "timestamp": "timestamp(): milliseconds, fixed per statement.",
    "random-uuid": "randomUUID().",
    "neo4j5-removals": "Neo4j 5 removed exists(n.p), length(string), size(pattern), {param}.",
    "graph-functions": "id(), labels(), type(), keys(), properties(), startNode(), endNode().",
    "timezone": "Named zones, DST gaps, epoch constructors, truncation, durations.",
    "finish": "FINISH.",
    "offset": "OFFSET as a synonym of SKIP.",
    "standalone-order-by": "ORDER BY / SKIP / OFFSET / LIMIT as clauses of their own.",
    "limit": "LIMIT/SKIP expressions and their errors.",
    "load-csv": "LOAD CSV [WITH HEADERS] FROM 'file:///x' AS row, linenumber(), file(); the import folder "
                "(the runner opens `connect(':memory:', import_dir=...)` once connect takes it).",
    "load-csv-format": "FIELDTERMINATOR, quoting, empty field = null.",
    "load-csv-errors": "ExternalResourceFailed for missing files and paths outside the import folder.",
    "errors-compile": "Compile-time refusals (Neo4j files them under SyntaxError).",
    "errors-runtime": "Runtime error families.",
}


# Root causes: the syntax a parse error points at, first match wins.  Each pattern is tried on the
# line the parse error points into, then on the whole failing statement.
ROOT_CAUSES = [
    ("constraint commands (CREATE/DROP/SHOW CONSTRAINT)", r"\bCONSTRAINTS?\b"),
    ("index names from parameters (CREATE/DROP INDEX $name)", r"\bINDEX\s+\$\w+"),
    ("index commands (relationship, TEXT/POINT/FULLTEXT, SHOW INDEXES)",
     r"\bSHOW\s+(\w+\s+)?INDEXES\b|\b(TEXT|POINT|FULLTEXT|RANGE)\s+INDEX\b|INDEX\s+\w*\s*FOR\s*\(\)-"),
    ("LOAD CSV", r"\bLOAD\s+CSV\b"),
    ("CALL { } IN TRANSACTIONS", r"\bIN\s+(\d+\s+CONCURRENT\s+)?TRANSACTIONS\b"),
    ("OPTIONAL CALL", r"\bOPTIONAL\s+CALL\b"),
    ("scoped CALL (x) { } subquery", r"\bCALL\s*\([^)]*\)\s*\{"),
    ("CALL { } subquery (unscoped, importing WITH)", r"\bCALL\s*\{"),
    ("COLLECT { } subquery", r"\bCOLLECT\s*\{"),
    ("UNION inside EXISTS { } / COUNT { }", r"^UNION( ALL)?$"),
    ("path selectors (SHORTEST k, ALL SHORTEST, ANY, GROUPS)",
     r"(=|MATCH)\s*(ANY|ALL|SHORTEST)\b"),
    ("quantified path patterns and quantified relationships",
     r"\)\s*(\{\s*\d*\s*,?\s*\d*\s*\}|[+*])|\]-?>?\s*(\{\s*\d*\s*,?\s*\d*\s*\}|[+*])\s*\("),
    ("type predicates (IS :: / IS TYPED)", r"\bIS\s+(NOT\s+)?(::|TYPED)|(^|\s)::\s"),
    ("normalize() / IS NORMALIZED", r"\bNORMALIZED\b|\bnormalize\("),
    ("|| concatenation", r"\|\|"),
    ("trim(LEADING|TRAILING|BOTH ... FROM ...)", r"\btrim\(\s*(LEADING|TRAILING|BOTH)\b"),
    ("dynamic labels and types :$(...)", r":\s*\$(\(|any\(|all\()"),
    ("inline WHERE in node/relationship patterns", r"\([^()]*\bWHERE\b|\[[^\]]*\bWHERE\b"),
    ("label expressions (|, &, !, %, IS Label)",
     r":\s*[!%(]|\b\w+\s*:\s*\w+\s*[&|]\s*[!\w(]|\bIS\s+[A-Z]\w*\b"),
    ("FINISH", r"\bFINISH\b"),
    ("standalone ORDER BY / SKIP / OFFSET / LIMIT", r"^(ORDER BY|SKIP|OFFSET|LIMIT)\b"),
    ("SET n[key] (dynamic property writes)", r"\bSET\s+\w+\s*\["),
]


def root_cause(o) -> str:
    if o.category in ("parse error", "setup parse error"):
        for text in (o.error_line, o.failing_text):
            for name, pattern in ROOT_CAUSES:
                if text and re.search(pattern, text, re.M):
                    return name
        return "other syntax: " + (o.error_line or o.failing_text.splitlines()[0])[:60]
    if re.search(r"Variable `NFK?[CD]` not defined", o.error_text):
        return "normalize() / IS NORMALIZED"
    m = re.search(r"Unknown function '([^']+)'", o.error_text)
    if m:
        return f"missing function {m.group(1)}()"
    if o.category == "missing error":
        return f"refusal missing ({o.construct})"
    return f"{o.category} ({o.construct})"


CONTRACTS = """\
## Contracts the corpus assumes (for the implementers)

- **Error families.** A case names a Neo4j family (`Neo.ClientError.<Category>.<Family>` without the
  prefix).  TCK-style families compare with `tck_type` as the TCK runner does (compile-time
  semantic refusals are `SyntaxError`, as in Neo4j).  The schema and resource families compare with
  the error's **kind**: declare kinds named `EquivalentSchemaRuleAlreadyExists`,
  `ConstraintAlreadyExists`, `ConstraintWithNameAlreadyExists`, `IndexWithNameAlreadyExists`,
  `ConstraintCreationFailed`, `ConstraintDropFailed` (or `ConstraintNotFound`), `IndexDropFailed` (or
  the existing `IndexNotFound`), `ExternalResourceFailed`; the table is `FAMILIES` in
  `tests/neo4j5/runner.py`.  Today's `IndexAlreadyExists` answers both "equivalent index" (accepted
  for `EquivalentSchemaRuleAlreadyExists`) and "name taken" (Neo4j: `IndexWithNameAlreadyExists`).
  Constraint violations on write are `ConstraintValidationFailed` (relate's `ConstraintError` class).
- **Schema counters.** `+constraints` / `-constraints` / `+indexes` / `-indexes` are read from the
  query's `Result.stats` (`constraints_added`, ...).  A uniqueness or key constraint counts one
  constraint and no index, though its backing index is listed by SHOW INDEXES (with
  `owningConstraint`) and dropped with the constraint.
- **IN TRANSACTIONS.** Batches that committed before an ON ERROR FAIL failure stay committed: the
  error step is followed by the side effects that remain.
- **LOAD CSV.** The runner writes files into a per-scenario folder and opens
  `relate.connect(":memory:", import_dir=<folder>)` once `connect` takes an `import_dir` argument
  (a proposal: name it as you like, then adjust `Neo4jRun.__init__`); `file:///x.csv` resolves
  inside that folder, a path climbing out of it is `ExternalResourceFailed`.
- **LOOKUP indexes.** A new Neo4j database lists two LOOKUP indexes; every SHOW INDEXES case filters
  them out, so relate may list them or not (decide, and document it in "coming from Neo4j").
- **Vacuous passes.** Error cases that pass today only because the statement does not parse are
  counted (see above); they start to mean something once the construct parses.
"""


def _md(text: str) -> str:
    return text.replace("|", "\\|")


def write_gaps(path: Path, outcomes) -> None:
    groups: dict[str, list] = defaultdict(list)
    for o in outcomes:
        groups[o.construct].append(o)
    rows = []
    for construct, outs in groups.items():
        failing = [o for o in outs if not o.verdict.passed]
        rows.append((len(failing), len(outs), construct, failing))
    rows.sort(key=lambda r: (-r[0], r[2]))
    total_fail = sum(r[0] for r in rows)
    cats = Counter(o.category for o in outcomes if not o.verdict.passed)
    vacuous = sum(o.vacuous for o in outcomes)
    head = [
        "# Neo4j 5 corpus: gaps", "",
        "Written by `python tests/neo4j5/run.py` from the corpus in `tests/neo4j5/features` (do not edit by "
        "hand; the notes come from `tests/neo4j5/gaps.py`).  First the gaps sorted by how many corpus cases "
        "each fails, then the contracts the corpus assumes, then one section per construct.", "",
        f"{total_fail} of {len(outcomes)} cases fail today: "
        + ", ".join(f"{k} {v}" for k, v in cats.most_common()) + ".  "
        f"{vacuous} passing cases expect an error and pass only because relate cannot parse the statement "
        "at all (counted as passes; they prove nothing about the construct yet).", "",
    ]
    causes: dict[str, list] = defaultdict(list)
    for o in outcomes:
        if not o.verdict.passed:
            causes[root_cause(o)].append(o)
    roots = ["## Gaps, by the number of cases they fail", "",
             "Each failing case is filed under the first missing piece it hits (the syntax a parse error "
             "points at, a missing function, a missing refusal, ...).  Building the top rows unblocks the most "
             "cases (a case may hit a second gap once the first is built).", "",
             "| gap | cases | constructs | smallest failing statement |", "|---|---:|---|---|"]
    for cause, outs in sorted(causes.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        smallest = min(outs, key=lambda o: (len(o.failing_text), o.verdict.scenario.id))
        cons = ", ".join(sorted({o.construct for o in outs}))
        stmt = " ".join(smallest.failing_text.split())
        roots.append(f"| {_md(cause)} | {len(outs)} | {cons} | `{_md(stmt[:110])}` |")
    table = ["## Constructs, by the number of cases they fail", "",
             "| construct | failing | cases | today |", "|---|---:|---:|---|"]
    for nfail, n, construct, failing in rows:
        today = "works" if not nfail else ", ".join(
            f"{k} {v}" for k, v in Counter(o.category for o in failing).most_common())
        vac = sum(o.vacuous for o in groups[construct])
        if vac:
            today += f"; {vac} pass only as parse errors"
        table.append(f"| {construct} | {nfail} | {n} | {today} |")
    lines = head + roots + [""] + CONTRACTS.splitlines() + [""] + table
    lines += ["", "## Each construct", ""]
    for nfail, n, construct, failing in rows:
        if not nfail:
            continue
        lines += [f"### {construct} ({nfail} of {n} failing)", ""]
        if construct in NOTES:
            lines += [NOTES[construct], ""]
        kinds = Counter(o.category for o in failing)
        lines.append("Today: " + ", ".join(f"{k} {v}" for k, v in kinds.most_common()) + ".")
        reasons = Counter(root_cause(o) for o in failing).most_common(4)
        for why, k in reasons:
            lines.append(f"- {k} x {_md(why)}")
        smallest = min(failing, key=lambda o: (len(o.failing_text), o.verdict.scenario.id))
        what = "statement (a setup step)" if smallest.category.startswith("setup") else "query"
        lines += ["", f"Smallest failing {what} (`{smallest.verdict.scenario.id}`, {smallest.category}):",
                  "", "```cypher", smallest.failing_text.strip(), "```", ""]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
