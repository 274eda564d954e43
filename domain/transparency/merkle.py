"""The Merkle tree of RFC 6962 / RFC 9162 (section 2.1): hashes, roots, proofs and their verification.

Hashes are 32-byte `bytes` throughout (SHA-256):

    leaf hash  = SHA-256(0x00 || leaf data)
    node hash  = SHA-256(0x01 || left || right)
    MTH({})    = SHA-256("")

A tree is split at the largest power of two smaller than its size (RFC 9162 2.1.1). A
*compact range* — the roots of the complete subtrees a tree of size n is made of, largest
first, one per set bit of n — is all that is needed to append a leaf (O(log n)) and to give
the root; proofs need the hash of any complete subtree, which the caller provides
(`Subtree`: `(height, index) -> hash` of leaves [index·2^height, (index+1)·2^height)).

The two verification functions are RFC 9162 2.1.3.2 and 2.1.4.2 step by step: another
program checks a Rollbook proof with any implementation of them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

HASH_SIZE = 32
EMPTY_ROOT = hashlib.sha256(b"").digest()

#: The hash of the complete subtree of `height` levels at `index` (its leaves index·2^height ...).
Subtree = Callable[[int, int], bytes]


def leaf_hash(data: bytes) -> bytes:
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    return hashlib.sha256(b"\x01" + left + right).digest()


def split(size: int) -> int:
    """The largest power of two smaller than `size` (>= 2): where RFC 9162 splits a tree."""
    return 1 << ((size - 1).bit_length() - 1)


def append(peaks: list[bytes], size: int, leaf: bytes) -> None:
    """Append a leaf hash to the compact range `peaks` of a tree of `size` leaves, in place."""
    node = leaf
    while size & 1:
        node = node_hash(peaks.pop(), node)
        size >>= 1
    peaks.append(node)


def append_hex(peaks: list[str], size: int, leaf: bytes) -> None:
    """`append` on a compact range kept as hex strings (as an aggregate's state keeps it)."""
    node = leaf
    while size & 1:
        node = node_hash(bytes.fromhex(peaks.pop()), node)
        size >>= 1
    peaks.append(node.hex())


def peaks_root(peaks: Sequence[bytes]) -> bytes:
    """The root of the tree whose compact range is `peaks`."""
    if not peaks:
        return EMPTY_ROOT
    root = peaks[-1]
    for peak in reversed(peaks[:-1]):
        root = node_hash(peak, root)
    return root


def compact_range(leaves: Sequence[bytes]) -> list[bytes]:
    peaks: list[bytes] = []
    for size, leaf in enumerate(leaves):
        append(peaks, size, leaf)
    return peaks


def root_of(leaves: Sequence[bytes]) -> bytes:
    """MTH of the leaf hashes `leaves`."""
    return peaks_root(compact_range(leaves))


def complete_root(hashes: Sequence[bytes]) -> bytes:
    """The root of a complete subtree whose bottom row (a power of two of hashes) is `hashes`."""
    row = list(hashes)
    while len(row) > 1:
        row = [node_hash(row[i], row[i + 1]) for i in range(0, len(row), 2)]
    return row[0]


def range_hash(start: int, end: int, subtree: Subtree) -> bytes:
    """MTH of the leaves [start, end), where `start` is a multiple of the tree's split (as in every
    range RFC 9162's proofs name): complete subtrees as they are, the rest split as the RFC splits."""
    size = end - start
    if size & (size - 1) == 0 and start % size == 0:
        return subtree(size.bit_length() - 1, start // size)
    k = split(size)
    return node_hash(range_hash(start, start + k, subtree), range_hash(start + k, end, subtree))


def peaks_at(size: int, subtree: Subtree) -> list[bytes]:
    """The compact range of the tree's first `size` leaves."""
    peaks, start = [], 0
    for height in range(size.bit_length() - 1, -1, -1):
        if size >> height & 1:
            peaks.append(subtree(height, start >> height))
            start += 1 << height
    return peaks


def inclusion_path(index: int, size: int, subtree: Subtree) -> list[bytes]:
    """PATH(index, D[0:size]) of RFC 9162 2.1.3.1, from the leaf up."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size} leaves")
    path, start, end = [], 0, size
    while end - start > 1:
        k = split(end - start)
        if index < start + k:
            path.append(range_hash(start + k, end, subtree))
            end = start + k
        else:
            path.append(range_hash(start, start + k, subtree))
            start += k
    return path[::-1]


def consistency_path(old_size: int, new_size: int, subtree: Subtree) -> list[bytes]:
    """PROOF(old_size, D[0:new_size]) of RFC 9162 2.1.4.1 (SUBPROOF with b = true), from the bottom up."""
    if not 0 <= old_size <= new_size:
        raise ValueError(f"no consistency proof from {old_size} to {new_size} leaves")
    if old_size in (0, new_size):
        return []
    path, start, end, m, whole = [], 0, new_size, old_size, True
    while end - start != m:
        k = split(end - start)
        if m <= k:
            path.append(range_hash(start + k, end, subtree))
            end = start + k
        else:
            path.append(range_hash(start, start + k, subtree))
            start, m, whole = start + k, m - k, False
    if not whole:
        path.append(range_hash(start, end, subtree))
    return path[::-1]


def _to_a_right_child(fn: int, sn: int) -> tuple[int, int]:
    """RFC 9162's "if LSB(fn) is not set, right-shift both fn and sn equally until either LSB(fn) is set
    or fn is 0" (a node that is the last of its level climbs to where it is a right child)."""
    while fn and not fn & 1:
        fn >>= 1
        sn >>= 1
    return fn, sn


def verify_inclusion(index: int, size: int, leaf: bytes, path: Sequence[bytes], root: bytes) -> bool:
    """RFC 9162 2.1.3.2: is `leaf` the hash at `index` of the tree of `size` leaves with `root`?"""
    if not 0 <= index < size:
        return False
    fn, sn, r = index, size - 1, leaf
    for p in path:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            fn, sn = _to_a_right_child(fn, sn)
        else:
            r = node_hash(r, p)
        fn >>= 1
        sn >>= 1
    return sn == 0 and r == root


def verify_consistency(old_size: int, new_size: int, old_root: bytes, new_root: bytes, path: Sequence[bytes]) -> bool:
    """RFC 9162 2.1.4.2: is the tree of `new_size` leaves with `new_root` an extension of the one
    of `old_size` leaves with `old_root`? An empty tree is extended by every tree (an empty proof);
    a tree is consistent with itself alone (an empty proof, the same root)."""
    if not 0 <= old_size <= new_size:
        return False
    if old_size == 0:
        return not path
    if old_size == new_size:
        return not path and old_root == new_root
    if not path:
        return False
    path = list(path)
    if old_size & (old_size - 1) == 0:
        path.insert(0, old_root)
    fn, sn = old_size - 1, new_size - 1
    while fn & 1:
        fn >>= 1
        sn >>= 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            fr = node_hash(c, fr)
            sr = node_hash(c, sr)
            fn, sn = _to_a_right_child(fn, sn)
        else:
            sr = node_hash(sr, c)
        fn >>= 1
        sn >>= 1
    return fr == old_root and sr == new_root and sn == 0
