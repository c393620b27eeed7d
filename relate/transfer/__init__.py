"""Moving a graph out of relate and back: export and bulk import (`relate export`, `relate import`).

- `script`: a graph -> a Cypher script (Neo4j 5 DDL first, batched `UNWIND` creates) that
  cypher-shell and relate both run;
- `csv_export`: a graph -> CSV files in neo4j-admin's header format, plus `schema.cypher`;
- `bulk`: such CSV files -> a new store, built straight from the rows (no Cypher per row);
- `cells`, `csv_text`, `headers`, `cypher_values`, `schema_file`: the value, field, header, literal
  and schema texts those share.

Ids travel as the property `_relate_id` (`headers.RELATE_ID`): Neo4j keeps it as a property;
`relate import` turns it back into the node's and relationship's id.  Errors are
`E.Transfer.*`: a value a format cannot carry names the entity and the key, a bad file its path
and line.
"""
