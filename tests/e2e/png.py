"""A PNG screenshot (bytes, as Playwright takes them) -> its pixels, and the blobs of one colour.

Only what Chromium's screenshots use: 8-bit RGB or RGBA, not interlaced.  No image library is a
test dependency, so the five PNG row filters are undone here.
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Image:
    width: int
    height: int
    pixels: tuple[RGB, ...]  # row after row

    def at(self, x: int, y: int) -> RGB:
        return self.pixels[y * self.width + x]


def decode(data: bytes) -> Image:
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, header = 8, [], None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
    if header is None:
        raise ValueError("PNG without IHDR")
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {colour}, interlace {interlace}")
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = width * channels
    rows: list[bytearray] = []
    previous = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + predictor) & 0xFF
        rows.append(line)
        previous = line
    pixels = tuple((row[i], row[i + 1], row[i + 2]) for row in rows for i in range(0, stride, channels))
    return Image(width, height, pixels)


def hex_colour(text: str) -> RGB:
    text = text.strip().lstrip("#")
    return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)


def blobs(image: Image, colour: RGB, tolerance: int = 6, min_pixels: int = 40) -> list[int]:
    """Sizes of the 4-connected areas of `colour` (each channel within `tolerance`), biggest
    first, leaving out specks smaller than `min_pixels` (anti-aliased text, arrow tips)."""
    near = {i for i, p in enumerate(image.pixels) if all(abs(a - b) <= tolerance for a, b in zip(p, colour))}
    sizes = []
    while near:
        todo, size = [near.pop()], 0
        while todo:
            i = todo.pop()
            size += 1
            x = i % image.width
            for j in (i - image.width, i + image.width, i - 1 if x else -1, i + 1 if x + 1 < image.width else -1):
                if j in near:
                    near.remove(j)
                    todo.append(j)
        if size >= min_pixels:
            sizes.append(size)
    return sorted(sizes, reverse=True)
