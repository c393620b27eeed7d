"""The checks `build_order.py` runs, one rule family per module; each function raises the user
error of its rule or returns.

- `clause_order.py`: RETURN only at the end, what a query may end with (`InvalidClauseComposition`);
- `union.py`: the parts of a UNION (`DifferentColumnsInUnion`, `InvalidClauseComposition`);
- `create_patterns.py`: relationships CREATE and MERGE can make (`NoSingleRelationshipType`,
  `RequiresDirectedRelationship`, `CreatingVarLength`) and names they may not rebind;
- `shortest_paths.py`: the shortestPath shapes the matcher walks (`UnsupportedClause`);
- `variables.py`: names read before they are bound, names bound twice (`UndefinedVariable`,
  `VariableAlreadyBound`);
- `operand_types.py`: operands whose static type can never fit (`InvalidArgumentType`);
- `functions.py`: function calls (`UnknownFunction`, `InvalidNumberOfArguments`,
  `InvalidAggregation`, `InvalidArgumentExpression`, argument types);
- `in_transactions.py`: where `CALL { } IN TRANSACTIONS` may stand (`InvalidClauseComposition`;
  run by the scoping pass, first);
- `load_csv.py`: LOAD CSV's source type and FIELDTERMINATOR (`InvalidArgumentType`,
  `InvalidFieldTerminator`);
- `procedures.py`: CALL against the registry (`ProcedureNotFound`, `InvalidArgumentPassingMode`,
  `InvalidNumberOfArguments`, argument types, `YIELD *`, unknown outputs).

Several of these errors carry no position: they are reported as they were when the planner raised
them, and a position added now would change what users see.
"""
