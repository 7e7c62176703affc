"""Checksums on every record: a snapshot, each journal line, each history block.

A snapshot and a journal line are JSON objects; each is written with its CRC-32 as its first field,
``{"sum":"1a2b3c4d",…}``, computed over the same object without that field. Readers that do not know the
field ignore it, so the record decodes as it always did. History blocks are compressed files: the
snapshot that refers to a block holds the CRC-32 of the block's bytes (``block_sums``).

Records written before checksums (snapshot format 3 and older, journal format 1) have none and are read
as they are; from snapshot format 4 and journal format 2 on, a record without its checksum is damaged.
"""

from __future__ import annotations

import zlib
from enum import Enum

_PREFIX = b'{"sum":"'
_HEAD = len(_PREFIX) + 8 + 2
"""``{"sum":"XXXXXXXX",``: what comes before the rest of the object."""
_OPEN_CRC = zlib.crc32(b"{")


class Sum(Enum):
    GOOD = "good"
    BAD = "bad"
    NONE = "none"
    """The record carries no checksum (written before checksums, or its checksum field itself is damaged)."""


def seal(data: bytes) -> bytes:
    """``data`` (an encoded JSON object with at least one field) with its checksum as its first field."""
    if not data.startswith(b"{") or data == b"{}":
        raise ValueError("only a JSON object with fields can carry a checksum")
    return b'%s%08x",%s' % (_PREFIX, zlib.crc32(data), data[1:])


def check(data: bytes | memoryview) -> Sum:
    """Whether ``data`` (one record, as read) carries a checksum and whether it matches."""
    view = memoryview(data)
    if len(view) < _HEAD or bytes(view[: len(_PREFIX)]) != _PREFIX:
        return Sum.NONE
    digits = bytes(view[len(_PREFIX) : len(_PREFIX) + 8])
    if bytes(view[_HEAD - 2 : _HEAD]) != b'",' or not all(c in b"0123456789abcdef" for c in digits):
        return Sum.BAD
    return Sum.GOOD if zlib.crc32(view[_HEAD:], _OPEN_CRC) == int(digits, 16) else Sum.BAD


def of_file(data: bytes) -> int:
    """The checksum of a whole file (a history block) as the snapshot referring to it stores it."""
    return zlib.crc32(data)
