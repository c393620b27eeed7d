"""One module per engine under test; each exposes `Engine` with the same few methods.

    load(graph)                 the whole graph through the engine's normal loading path
    query(name, params)         a READ_QUERIES query -> rows as tuples in RETURN order
    write_one(rows)             one CREATE statement per row (Q8_one)
    write_unwind(rows)          all rows in one statement (Q8_unwind)
    write_other(id, title)      one :Post node (writes between reads, Q*_w; optional)
    write_update(id, age)       one :Person's age set (writes between reads, Q*_wu; optional)
    count_range(lo, hi)         how many :Person have lo <= id < hi (checks the writes)
    close()
Durable engines also have `path` (the store on disk) and `reopen()`.  `supports` lists the read
queries the engine can express; the others are reported as unsupported, not timed.
"""
