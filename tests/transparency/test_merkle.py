"""The Merkle tree (issue 34): RFC 6962 / CT test vectors, an independent implementation as oracle,
and the consistency proof's property over any history."""

from hypothesis import example, given, settings
from hypothesis import strategies as st

from rollbook.domain.transparency import merkle

# The leaves and answers of the RFC 6962 reference implementation's tests (certificate-transparency,
# transparency-dev/merkle testonly): leaf data, the root at each size, proofs by (index or size, size).
LEAVES = [bytes.fromhex(h) for h in ("", "00", "10", "2021", "3031", "40414243", "5051525354555657",
                                     "606162636465666768696a6b6c6d6e6f")]
ROOTS = [
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
INCLUSION = [  # (leaf index, tree size, path)
    (0, 1, []),
    (0, 8, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]),
    (5, 8, ["bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
    (2, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
    (1, 5, ["6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"]),
]
CONSISTENCY = [  # (old size, new size, path)
    (1, 1, []),
    (1, 8, ["96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4"]),
    (6, 8, ["0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7"]),
    (2, 5, ["5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b"]),
]


def tree(data):
    """Leaf hashes and the subtree function proofs read them through (what the tiles give a store)."""
    leaves = [merkle.leaf_hash(d) for d in data]
    return leaves, lambda height, index: merkle.complete_root(leaves[index << height:(index + 1) << height])


def hexes(hashes):
    return [h.hex() for h in hashes]


def test_the_roots_of_the_rfc_6962_test_vectors():
    leaves, subtree = tree(LEAVES)
    assert merkle.root_of([]).hex() == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert [merkle.root_of(leaves[:n]).hex() for n in range(1, 9)] == ROOTS
    assert [merkle.range_hash(0, n, subtree).hex() for n in range(1, 9)] == ROOTS
    # The compact range appends one leaf at a time, and a prefix's peaks are read off the subtrees.
    assert [merkle.peaks_root(merkle.peaks_at(n, subtree)).hex() for n in range(1, 9)] == ROOTS


def test_the_inclusion_proofs_of_the_test_vectors_are_made_and_verified():
    leaves, subtree = tree(LEAVES)
    for index, size, path in INCLUSION:
        assert hexes(merkle.inclusion_path(index, size, subtree)) == path
        root = bytes.fromhex(ROOTS[size - 1])
        assert merkle.verify_inclusion(index, size, leaves[index], [bytes.fromhex(p) for p in path], root)
        assert not merkle.verify_inclusion(index, size, leaves[(index + 1) % 8], [bytes.fromhex(p) for p in path], root)
        if path:
            bent = [bytes.fromhex(p) for p in path]
            bent[-1] = bytes(32)
            assert not merkle.verify_inclusion(index, size, leaves[index], bent, root)


def test_the_consistency_proofs_of_the_test_vectors_are_made_and_verified():
    _, subtree = tree(LEAVES)
    for old, new, path in CONSISTENCY:
        assert hexes(merkle.consistency_path(old, new, subtree)) == path
        old_root, new_root = bytes.fromhex(ROOTS[old - 1]), bytes.fromhex(ROOTS[new - 1])
        assert merkle.verify_consistency(old, new, old_root, new_root, [bytes.fromhex(p) for p in path])
        if old != new:
            assert not merkle.verify_consistency(old, new, bytes.fromhex(ROOTS[0 if old > 1 else 1]), new_root,
                                                 [bytes.fromhex(p) for p in path])


def test_pymerkle_an_independent_tree_agrees_on_every_root_and_inclusion_path():
    from pymerkle import InmemoryTree

    data = [bytes([n % 256, n // 256]) * (n % 5) for n in range(70)]
    oracle = InmemoryTree(algorithm="sha256")
    for d in data:
        oracle.append_entry(d)
    leaves, subtree = tree(data)
    for size in range(1, len(data) + 1):
        assert merkle.root_of(leaves[:size]) == oracle.get_root(size)
        for index in {0, size // 2, size - 1}:
            # pymerkle's path begins with the leaf itself, then RFC 9162's, in the same order.
            theirs = oracle.prove_inclusion(index + 1, size).serialize()["path"]
            assert hexes(merkle.inclusion_path(index, size, subtree)) == theirs[1:]


histories = st.lists(st.binary(max_size=8), min_size=1, max_size=80)


@settings(max_examples=150, deadline=None)
@given(histories, st.data())
@example([b"a", b"b", b"c"], None)
def test_for_any_history_and_two_sizes_the_consistency_proof_holds_and_fails_on_any_change(data, draw):
    leaves, subtree = tree(data)
    if draw is None:  # the @example: sizes 1 and 3, the first leaf changed
        old, new, changed = 1, 3, 0
    else:
        new = draw.draw(st.integers(1, len(data)))
        old = draw.draw(st.integers(1, new))
        changed = draw.draw(st.integers(0, new - 1))
    path = merkle.consistency_path(old, new, subtree)
    old_root, new_root = merkle.root_of(leaves[:old]), merkle.root_of(leaves[:new])
    assert merkle.verify_consistency(old, new, old_root, new_root, path)
    # Any leaf changed (in the old tree or after it) and the new tree no longer extends the old.
    edited = list(data)
    edited[changed] = edited[changed] + b"!"
    edited_leaves, _ = tree(edited)
    if changed < old:
        assert not merkle.verify_consistency(old, new, old_root, merkle.root_of(edited_leaves[:new]), path)
        assert not merkle.verify_consistency(old, new, merkle.root_of(edited_leaves[:old]), new_root, path)
    elif old < new:
        other = merkle.consistency_path(old, new, tree(edited)[1])
        assert merkle.verify_consistency(old, new, old_root, merkle.root_of(edited_leaves[:new]), other)
        assert not merkle.verify_consistency(old, new, old_root, merkle.root_of(edited_leaves[:new]), path)
    # Two leaves of the old tree swapped (the order changed) and the old root is another.
    if old >= 2 and data[0] != data[old - 1]:
        swapped = [data[old - 1], *data[1:old - 1], data[0], *data[old:new]]
        swapped_leaves, _ = tree(swapped)
        assert not merkle.verify_consistency(old, new, merkle.root_of(swapped_leaves[:old]), new_root, path)


@settings(max_examples=100, deadline=None)
@given(histories, st.data())
def test_every_leaf_of_any_history_is_proven_in_and_nothing_else(data, draw):
    leaves, subtree = tree(data)
    size = draw.draw(st.integers(1, len(data)))
    index = draw.draw(st.integers(0, size - 1))
    root = merkle.root_of(leaves[:size])
    path = merkle.inclusion_path(index, size, subtree)
    assert merkle.verify_inclusion(index, size, leaves[index], path, root)
    assert not merkle.verify_inclusion(index, size, merkle.leaf_hash(data[index] + b"!"), path, root)
    assert not merkle.verify_inclusion(index, size, leaves[index], path, merkle.root_of(leaves[:size - 1] + [bytes(32)]))
    assert len(path) <= max(1, size - 1).bit_length()
