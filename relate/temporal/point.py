"""Spatial points: a map -> Point; distance; bounding boxes; `point({x: 1.0, y: 2.0, crs: 'cartesian'})`.

Four coordinate reference systems, as the reference dialect names them: `cartesian` (SRID 7203),
`cartesian-3d` (9157), `wgs-84` (4326, longitude and latitude in degrees) and `wgs-84-3d` (4979,
plus a height in metres).  Coordinates are floats.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..errors import E
from .zones import bad

CRS_BY_NAME = {"cartesian": 7203, "cartesian-3d": 9157, "wgs-84": 4326, "wgs-84-3d": 4979}
CRS_BY_SRID = {v: k for k, v in CRS_BY_NAME.items()}
EARTH_RADIUS_METERS = 6378140.0


@dataclass(frozen=True, slots=True)
class Point:
    srid: int
    coords: tuple[float, ...]

    @property
    def crs(self) -> str:
        return CRS_BY_SRID[self.srid]

    @property
    def geographic(self) -> bool:
        return self.srid in (4326, 4979)

    @classmethod
    def cartesian(cls, x: float, y: float, z: float | None = None) -> "Point":
        """`point({x, y[, z]})`: SRID 7203, or 9157 with a `z`."""
        return from_map({"x": x, "y": y} if z is None else {"x": x, "y": y, "z": z})

    @classmethod
    def wgs84(cls, longitude: float, latitude: float, height: float | None = None) -> "Point":
        """`point({longitude, latitude[, height]})`: SRID 4326, or 4979 with a `height`."""
        m = {"longitude": longitude, "latitude": latitude}
        return from_map(m if height is None else dict(m, height=height))

    # the coordinates by name: x, y, z for every point (z is None in two dimensions); longitude,
    # latitude and height are the same numbers under their WGS-84 names
    @property
    def x(self) -> float:
        return self.coords[0]

    @property
    def y(self) -> float:
        return self.coords[1]

    @property
    def z(self) -> float | None:
        return self.coords[2] if len(self.coords) > 2 else None

    @property
    def longitude(self) -> float:
        return self._geo(0)

    @property
    def latitude(self) -> float:
        return self._geo(1)

    @property
    def height(self) -> float | None:
        return self._geo(2) if len(self.coords) > 2 else self._geo(None)

    def _geo(self, i: int | None):
        if not self.geographic:
            raise AttributeError(f"a {self.crs} point has x and y, not longitude, latitude or height")
        return None if i is None else self.coords[i]

    def __str__(self) -> str:
        names = ("longitude", "latitude", "height") if self.geographic else ("x", "y", "z")
        body = ", ".join(f"{n}: {_num(c)}" for n, c in zip(names, self.coords))
        return f"point({{{body}, crs: '{self.crs}'}})"


def _num(c: float) -> str:
    if math.isnan(c):
        return "NaN"
    if math.isinf(c):
        return "Infinity" if c > 0 else "-Infinity"
    return repr(c)


def _coord(name: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise E.Type.InvalidArgumentValue(f"point coordinate `{name}` must be a number")
    return float(value)


def from_map(mapping: dict) -> Point | None:
    """`point({x, y[, z]})`, `point({longitude, latitude[, height]})`, with `crs` or `srid`."""
    m = {k.lower(): v for k, v in mapping.items()}
    if any(v is None for v in m.values()):
        return None
    unknown = set(m) - {"x", "y", "z", "longitude", "latitude", "height", "crs", "srid"}
    if unknown:
        raise bad(f"unknown point field `{sorted(unknown)[0]}`")
    geographic = "longitude" in m or "latitude" in m
    if geographic:
        if "longitude" not in m or "latitude" not in m or {"x", "y", "z"} & set(m):
            raise bad("a geographic point needs `longitude` and `latitude` (and no `x`, `y`, `z`)")
        coords = [_coord("longitude", m["longitude"]), _coord("latitude", m["latitude"])]
        if "height" in m:
            coords.append(_coord("height", m["height"]))
    else:
        if "x" not in m or "y" not in m or "height" in m:
            raise bad("a point needs `x` and `y`, or `longitude` and `latitude`")
        coords = [_coord("x", m["x"]), _coord("y", m["y"])]
        if "z" in m:
            coords.append(_coord("z", m["z"]))
    if "crs" in m and "srid" in m:
        raise bad("give a point either `crs` or `srid`, not both")
    if "crs" in m:
        name = m["crs"]
        if not isinstance(name, str) or name.lower() not in CRS_BY_NAME:
            raise bad(f"unknown coordinate reference system `{name}`")
        srid = CRS_BY_NAME[name.lower()]
    elif "srid" in m:
        srid = m["srid"]
        if srid not in CRS_BY_SRID or isinstance(srid, bool):
            raise bad(f"unknown SRID `{srid}`")
    else:
        srid = (4326 if len(coords) == 2 else 4979) if geographic else (
            7203 if len(coords) == 2 else 9157)
    dims = 3 if srid in (9157, 4979) else 2
    if dims != len(coords):
        raise bad(f"`{CRS_BY_SRID[srid]}` points have {dims} coordinates, got {len(coords)}")
    if srid in (4326, 4979) and not -90.0 <= coords[1] <= 90.0:
        raise bad(f"latitude must be between -90 and 90, got {coords[1]!r}")
    return Point(srid, tuple(coords))


def component(p: Point, name: str) -> object:
    """`p.x`, `p.longitude`, `p.crs`, `p.srid`, ... (geographic names only on WGS-84 points)."""
    key = name.lower()
    if key == "crs":
        return p.crs
    if key == "srid":
        return p.srid
    names = ("longitude", "latitude", "height") if p.geographic else ()
    axes = ("x", "y", "z")
    if key in axes and axes.index(key) < len(p.coords):
        return p.coords[axes.index(key)]
    if key in names and names.index(key) < len(p.coords):
        return p.coords[names.index(key)]
    raise bad(f"a {p.crs} point has no component `{name}`")


def distance(a: Point | None, b: Point | None) -> float | None:
    """Euclidean distance for Cartesian points, great-circle metres (haversine, with the height
    difference for 3D) for WGS-84; null for points in different systems."""
    if a is None or b is None or a.srid != b.srid:
        return None
    if not a.geographic:
        return math.sqrt(sum((x - y) ** 2 for x, y in zip(a.coords, b.coords)))
    lon1, lat1, lon2, lat2 = map(math.radians, (a.coords[0], a.coords[1], b.coords[0], b.coords[1]))
    h = (math.sin((lat2 - lat1) / 2) ** 2
         + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2)
    flat = 2 * EARTH_RADIUS_METERS * math.asin(min(1.0, math.sqrt(h)))
    if len(a.coords) == 3:
        return math.sqrt(flat ** 2 + (a.coords[2] - b.coords[2]) ** 2)
    return flat


def within_bbox(p: Point | None, lower_left: Point | None, upper_right: Point | None) -> bool | None:
    """Whether `p` lies in the box; a WGS-84 box whose left edge is east of its right edge
    crosses the 180th meridian.  Null for nulls or mixed systems."""
    if p is None or lower_left is None or upper_right is None:
        return None
    if not p.srid == lower_left.srid == upper_right.srid:
        return None
    for i, (c, lo, hi) in enumerate(zip(p.coords, lower_left.coords, upper_right.coords)):
        if i == 0 and p.geographic and lo > hi:
            if not (c >= lo or c <= hi):
                return False
        elif not lo <= c <= hi:
            return False
    return True


def order_key(p: Point) -> tuple:
    return (p.srid,) + tuple((math.isnan(c), c if not math.isnan(c) else 0.0) for c in p.coords)
