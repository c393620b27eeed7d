"""The version-list primitives of `storage/history.py`: a timeline insert never replaces a newer
value (the XTDB tutorial's case), splits the version it lands in, and a range end keeps what came
before it."""
from __future__ import annotations

from relate.storage.history import ABSENT, Creators, TxRecord, Version, holding, range_end, timeline_insert

Y = {year: (year - 1970) * 365 for year in range(2019, 2027)}  # coarse "years" as ints


def live(versions):
    return sorted((x.value, x.vf, x.vt) for x in versions if x.tt is None)


def test_a_back_dated_insert_ends_at_the_next_later_version():
    versions = [Version("V", Y[2024], None, 100, None)]
    timeline_insert(versions, Y[2022], "X", 200)
    assert live(versions) == [("V", Y[2024], None), ("X", Y[2022], Y[2024])]
    assert versions[0].tt is None  # V is untouched


def test_an_insert_inside_a_version_splits_it():
    versions = [Version("V", Y[2020], None, 100, None)]
    timeline_insert(versions, Y[2022], "X", 200)
    assert live(versions) == [("V", Y[2020], Y[2022]), ("X", Y[2022], None)]
    assert versions[0].tt == 200  # the old belief is closed, still readable as recorded before 200
    assert holding(versions, Y[2023], 150).value == "V"
    assert holding(versions, Y[2023], None).value == "X"


def test_the_same_value_again_changes_nothing_and_a_tombstone_marks_absence():
    versions = [Version("V", Y[2020], None, 100, None)]
    assert timeline_insert(versions, Y[2022], "V", 200) is None and len(versions) == 1
    timeline_insert(versions, Y[2022], ABSENT, 300)
    assert holding(versions, Y[2023], None).value is ABSENT
    assert timeline_insert([], Y[2022], ABSENT, 300) is None  # nothing to hide


def test_the_fast_path_agrees_with_the_scan():
    for last in (False, True):
        versions = [Version("A", Y[2020], None, 100, None)]
        for i, year in enumerate((2021, 2022, 2023)):
            timeline_insert(versions, Y[year], f"v{i}", 200 + i, last)
        assert live(versions) == [("A", Y[2020], Y[2021]), ("v0", Y[2021], Y[2022]),
                                  ("v1", Y[2022], Y[2023]), ("v2", Y[2023], None)]


def test_a_range_end_keeps_what_came_before():
    exist = [Version(True, Y[2020], None, 100, None)]
    range_end(exist, Y[2022], 200)
    assert live(exist) == [(True, Y[2020], Y[2022])]
    exist = [Version(True, Y[2022], None, 100, None)]
    range_end(exist, Y[2021], 200)
    assert live(exist) == []  # deleted before it began: valid at no time


def test_creators_find_the_transaction_of_an_id():
    c = Creators(top=3)  # ids 0..2 came from a store written before history
    a, b = TxRecord(1, 10, None, None), TxRecord(2, 20, None, None)
    assert c.note(5, a) == 3 and c.note(5, b) == 5 and c.note(9, b) == 5
    assert [c.of(i).seq for i in range(9)] == [0, 0, 0, 1, 1, 2, 2, 2, 2]
