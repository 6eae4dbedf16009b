"""The priority rules: who wins a group, and in which order watchers are tried.

Kept apart from the engine because these two functions *are* the arbitration policy; the
engine only decides when to ask them. Rules, in the order they apply:

1. An ancestor beats its own descendant.
2. A dying branch (a node or any ancestor being removed) loses to a living one.
3. Optional loses to non-optional; a task is optional when it or any ancestor was emitted
   optional (an optional arm swing stays optional all the way down to its servos).
4. Otherwise compare priorities where the two ancestor chains split: root priorities for
   different roots, local priorities for siblings of one parent.
5. Ties go to the incumbent, so equal tasks never flap.
"""

from __future__ import annotations

from functools import cmp_to_key

from director.task import Node


def _split(a: list[Node], b: list[Node]) -> tuple[Node, Node]:
    """The first differing pair of two leaf-first chains, compared from the root."""
    i = len(a) - 1
    j = len(b) - 1
    while a[i] is b[j]:
        i -= 1
        j -= 1
    return a[i], b[j]


def _flags(chain: list[Node]) -> tuple[bool, bool]:
    dying = optional = False
    for node in chain:
        dying = dying or node.dead
        optional = optional or node.optional
    return dying, optional


def beats(challenger: Node, incumbent: Node) -> bool:
    """Whether ``challenger`` takes the group ``incumbent`` holds (rules 1-5)."""
    if challenger is incumbent:
        return False
    c_chain = challenger.chain()
    i_chain = incumbent.chain()
    if any(n is incumbent for n in c_chain):
        return False
    if any(n is challenger for n in i_chain):
        return True
    c_dying, c_optional = _flags(c_chain)
    i_dying, i_optional = _flags(i_chain)
    if c_dying != i_dying:
        return i_dying
    if c_optional != i_optional:
        return i_optional
    c, i = _split(c_chain, i_chain)
    return c.priority > i.priority


def precedes(a: Node, b: Node) -> int:
    """Order for trying watchers: -1 if ``a`` goes first. Ties: the earliest emitted first."""
    if a is b:
        return 0
    a_chain = a.chain()
    b_chain = b.chain()
    if any(n is a for n in b_chain):
        return -1
    if any(n is b for n in a_chain):
        return 1
    a_dying, a_optional = _flags(a_chain)
    b_dying, b_optional = _flags(b_chain)
    if a_dying != b_dying:
        return 1 if a_dying else -1
    if a_optional != b_optional:
        return 1 if a_optional else -1
    x, y = _split(a_chain, b_chain)
    if x.priority != y.priority:
        return -1 if x.priority > y.priority else 1
    return -1 if a.serial < b.serial else 1


#: Sort key: watchers in the order they are tried (`precedes`).
by_precedence = cmp_to_key(precedes)
