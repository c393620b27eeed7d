"""The strict openCypher TCK runner: `run.py` (command), `test_tck.py` (pytest), `runner.py`."""
