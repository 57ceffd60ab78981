"""The compiled backend's runtime: numba kernels every generated game shares.

- `playout_seed_of`: numpy's `SeedSequence([seed, index]).generate_state(1, uint64) >> 1`
  (the reference runner's `playout_seed`), so a compiled run derives the same seeds.
- `mt_seed` / `rand_below`: CPython's `random.Random(seed).randrange(k)` (MT19937 seeded
  by `init_by_array` over the seed's 32-bit words; `_randbelow_with_getrandbits`), so a
  compiled playout makes the same choices as `ludeme.analysis.playouts.play_one`.
- `apply_result`, `timeout`, `all_passed`: `ludeme.engine.state.State`'s end-of-game rules.
- `site_add`, `site_clear`, `site_move`: `ludeme.engine.stores.FlatSites`'s writes
  (`site_clear` is its remove too: Ludii empties a site whatever its count); their `_st`
  forms also keep each site's piece state, in games whose pieces have one.

All arithmetic is on int64 with 32-bit masks (numba's integer products wrap), and
every function is written so that it also runs as plain Python: tests check the
compiled kernels against `random`, numpy and the engine.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import intrinsic, overload

from .jitflag import jit_off

MASK32 = 0xFFFFFFFF


class KernelFull(IndexError):
    """A playout outgrew one of the kernels' fixed tables (the moves of a decision, the
    chance draws of one, the remembered values kept in order, a stack's height, pending or
    remembered values past the board's sites): the reference engine, which has no such
    bound, plays it instead (`ludeme.analysis.playouts.kernel_table`), and its rows are
    the same."""

# ---------------------------------------------------------------- borrowed arrays

def borrowed(arr):
    """`arr` without a count of its references: a playout kernel's working arrays, read and
    written in every inlined step, each alias of them counted up and down by an atomic
    instruction otherwise (half of a placement game's playout: Gomoku 49 -> 27 us, Yavalath
    11 -> 5.8 us, Tic-Tac-Toe 4.2 -> 2.6 us). The caller keeps `arr` itself alive while the
    borrowed one is used (`keep_alive` after its last use); as Python, `arr` itself."""
    return arr


@intrinsic
def _borrowed(typingctx, arr):
    def codegen(context, builder, sig, args):
        src = context.make_array(sig.args[0])(context, builder, value=args[0])
        out = context.make_array(sig.return_type)(context, builder)
        context.populate_array(out, data=src.data, shape=src.shape, strides=src.strides,
                               itemsize=src.itemsize, meminfo=None, parent=None)
        return out._getvalue()
    return arr(arr), codegen


@overload(borrowed)
def _borrowed_overload(arr):
    return lambda arr: _borrowed(arr)


@njit(cache=True)
def keep_alive(arrays):
    """Nothing: a use of `arrays` (a tuple) that keeps them alive until here."""
    return len(arrays)


# ---------------------------------------------------------------- numpy's SeedSequence

_INIT_A = 0x43B0D7E5
_MULT_A = 0x931E8875
_INIT_B = 0x8B51F9DD
_MULT_B = 0x58F38DED
_MIX_MULT_L = 0xCA01F9DD
_MIX_MULT_R = 0x4973F715
_POOL = 4


def int_words(n: int) -> np.ndarray:
    """A non-negative int as little-endian 32-bit words ([0] for 0), as numpy and CPython split it."""
    words = []
    while True:
        words.append(n & MASK32)
        n >>= 32
        if not n:
            break
    return np.array(words, dtype=np.int64)


@njit(cache=True, inline="always")
def _hashmix(value, hc):
    """numpy's hashmix: (the mixed value, the next hash constant)."""
    value = (int(value) ^ int(hc)) & MASK32     # int(): exact when run without numba
    hc = (int(hc) * _MULT_A) & MASK32
    value = (value * hc) & MASK32
    return value ^ (value >> 16), hc


@njit(cache=True, inline="always")
def _mix(x, y):
    r = (_MIX_MULT_L * int(x) - _MIX_MULT_R * int(y)) & MASK32
    return r ^ (r >> 16)


@njit(cache=True, inline="always")
def _mix_at(p0, p1, p2, p3, i, v):
    """The pool with word i mixed with v."""
    if i == 0:
        return _mix(p0, v), p1, p2, p3
    if i == 1:
        return p0, _mix(p1, v), p2, p3
    if i == 2:
        return p0, p1, _mix(p2, v), p3
    return p0, p1, p2, _mix(p3, v)


@njit(cache=True)
def playout_seed_of(seed_words, index):
    """The 63-bit seed of playout `index` of a run whose seed has these words.

    numpy's SeedSequence([seed, index]) with its pool of four words kept in
    registers (no arrays: this runs once per playout)."""
    n_seed = len(seed_words)
    n = n_seed + (2 if index >> 32 else 1)
    hc = _INIT_A
    p0 = p1 = p2 = p3 = 0
    for i in range(_POOL):
        if i < n_seed:
            e = seed_words[i]
        elif i == n_seed:
            e = index & MASK32
        elif i == n_seed + 1 and i < n:
            e = index >> 32
        else:
            e = 0
        v, hc = _hashmix(e, hc)
        if i == 0:
            p0 = v
        elif i == 1:
            p1 = v
        elif i == 2:
            p2 = v
        else:
            p3 = v
    for i_src in range(_POOL):
        src = p0 if i_src == 0 else p1 if i_src == 1 else p2 if i_src == 2 else p3
        for i_dst in range(_POOL):
            if i_src != i_dst:
                v, hc = _hashmix(src, hc)
                p0, p1, p2, p3 = _mix_at(p0, p1, p2, p3, i_dst, v)
    for i_src in range(_POOL, n):
        if i_src < n_seed:
            e = seed_words[i_src]
        elif i_src == n_seed:
            e = index & MASK32
        else:
            e = index >> 32
        for i_dst in range(_POOL):
            v, hc = _hashmix(e, hc)
            p0, p1, p2, p3 = _mix_at(p0, p1, p2, p3, i_dst, v)
    h = _INIT_B
    v = (p0 ^ h) & MASK32
    h = (h * _MULT_B) & MASK32
    v = (v * h) & MASK32
    low = v ^ (v >> 16)
    v = (p1 ^ h) & MASK32
    h = (h * _MULT_B) & MASK32
    v = (v * h) & MASK32
    high = v ^ (v >> 16)
    return (high << 31) | (low >> 1)


def wraps_quietly() -> None:
    """The kernels' integer arithmetic wraps, as numba compiles it (positions' hash keys,
    the generators' 32-bit words); run as Python (numba's JIT off), numpy warns of each
    wrap: not a fault, so not said."""
    import warnings
    warnings.filterwarnings("ignore", "overflow encountered in scalar", RuntimeWarning)


if jit_off():
    wraps_quietly()

# ---------------------------------------------------------------- CPython's random

_N = 624
_M = 397
MT_STATE_SIZE = _N + 2       # the words, the next index, the words generated (see mt_seed)
_MATRIX_A = 0x9908B0DF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF


def _init_genrand(s: int) -> np.ndarray:
    """MT19937's init_genrand(s): the same array before every init_by_array, so computed once."""
    mt = np.zeros(_N, dtype=np.int64)
    mt[0] = s
    for i in range(1, _N):
        mt[i] = (1812433253 * (int(mt[i - 1]) ^ (int(mt[i - 1]) >> 30)) + i) & MASK32
    return mt


_GENRAND_19650218 = _init_genrand(19650218)


@njit(cache=True)
def mt_seed(mt, seed):
    """Seed MT19937 state `mt` as `random.seed(seed)` (0 <= seed < 2**63).

    `mt` holds 626 int64: the 624 words, the index of the next word drawn, and how
    many words of the current block are generated (see `_genrand`)."""
    mt_seed_keys(mt, seed & MASK32, seed >> 32)


@njit(cache=True)
def chance_seed_keys(seed):
    """The low and high 32-bit words of `ludeme.engine.state.chance_seed(seed)` (the seed of
    a state's chance stream, a 64-bit number an int64 cannot hold)."""
    s = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(0x632BE59BD9B4E019)
    return np.int64(s & np.uint64(MASK32)), np.int64(s >> np.uint64(32))


@njit(cache=True)
def mt_seed_keys(mt, key0, key1):
    """`mt_seed` of the seed key1 * 2**32 + key0 (words of 32 bits)."""
    mt[:_N] = _GENRAND_19650218
    nkey = 2 if key1 else 1
    i = 1
    j = 0
    for _ in range(max(_N, nkey)):
        key = key0 if j == 0 else key1
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525)) + key + j) & MASK32
        i += 1
        j += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
        if j >= nkey:
            j = 0
    for _ in range(_N - 1):
        mt[i] = ((mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941)) - i) & MASK32
        i += 1
        if i >= _N:
            mt[0] = mt[_N - 1]
            i = 1
    mt[0] = 0x80000000
    mt[_N] = _N
    mt[_N + 1] = _N


SEED_BLOCK = 64              # playouts whose generators `mt_seed_block` seeds together


_GENRAND_19650218_U32 = _GENRAND_19650218.astype(np.uint32)


@njit(cache=True)
def mt_seed_block(mts, seeds, count):
    """Column b of `mts` (626 rows of 32-bit words) seeded as `mt_seed(mts[:, b],
    seeds[b])`, b < count, for `rand_below` to draw from as it is.

    Seeding is one long chain of dependent multiplications per generator (most of a
    short playout's time); walking the chains side by side, word by word, lets the
    processor's vector units overlap them. The words are worked in 32 bits (every step of
    init_by_array is modulo 2**32), a row of the block at a time: twice as many chains in
    a vector register as in 64 bits, and half the time; in the block itself, where a copy
    into 64-bit words cost two fifths of the seeding."""
    lanes = mts.shape[1]
    if count > lanes:
        raise ValueError("mt_seed_block seeds at most as many generators as mts has columns")
    add_even = np.zeros(lanes, np.uint32)   # key[j] + j of init_by_array, j = t % nkey
    add_odd = np.zeros(lanes, np.uint32)
    for b in range(count):
        s = seeds[b]
        add_even[b] = np.uint32(s & MASK32)
        add_odd[b] = np.uint32((s >> 32) + 1 if s >> 32 else s & MASK32)
    for w in range(_N):
        mts[w, :] = _GENRAND_19650218_U32[w]
    m1 = np.uint32(1664525)
    m2 = np.uint32(1566083941)
    shift = np.uint32(30)
    i = 1
    for t in range(_N):
        add = add_even if t & 1 == 0 else add_odd
        prev, cur = mts[i - 1], mts[i]
        for b in range(lanes):
            x = prev[b]
            cur[b] = np.uint32((cur[b] ^ np.uint32(np.uint32(x ^ (x >> shift)) * m1)) + add[b])
        i += 1
        if i >= _N:
            mts[0, :] = mts[_N - 1, :]
            i = 1
    for _ in range(_N - 1):
        k = np.uint32(i)
        prev, cur = mts[i - 1], mts[i]
        for b in range(lanes):
            x = prev[b]
            cur[b] = np.uint32((cur[b] ^ np.uint32(np.uint32(x ^ (x >> shift)) * m2)) - k)
        i += 1
        if i >= _N:
            mts[0, :] = mts[_N - 1, :]
            i = 1
    for b in range(count):
        mts[0, b] = 0x80000000
        mts[_N, b] = _N
        mts[_N + 1, b] = _N


@njit(cache=True, inline="always")
def _generate_upto(mt, i):
    """Generate the words of the current block up to word i (MT19937's twist, word by word
    in its order: each new word reads only later old words and earlier new ones)."""
    while mt[_N + 1] <= i:
        kk = np.int64(mt[_N + 1])       # (of a block of 32-bit words: signed, to index back)
        if kk < _N - _M:
            y = (mt[kk] & _UPPER) | (mt[kk + 1] & _LOWER)
            mt[kk] = mt[kk + _M] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
        elif kk < _N - 1:
            y = (mt[kk] & _UPPER) | (mt[kk + 1] & _LOWER)
            mt[kk] = mt[kk + (_M - _N)] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
        else:
            y = (mt[_N - 1] & _UPPER) | (mt[0] & _LOWER)
            mt[_N - 1] = mt[_M - 1] ^ (y >> 1) ^ (_MATRIX_A if y & 1 else 0)
        mt[_N + 1] = kk + 1


@njit(cache=True, inline="always")
def _genrand(mt):
    """The next 32-bit word. The block of 624 words is regenerated lazily, so a playout
    that draws a few words does not pay for the whole block."""
    i = np.int64(mt[_N])
    if i >= _N:
        i = 0
        mt[_N + 1] = 0
    _generate_upto(mt, i)
    y = np.int64(mt[i])
    mt[_N] = i + 1
    y ^= y >> 11
    y ^= (y << 7) & 0x9D2C5680
    y ^= (y << 15) & 0xEFC60000
    y ^= y >> 18
    return y & MASK32


@njit(cache=True)
def mt_complete(mt):
    """Generate the rest of the current block (CPython's state holds whole blocks)."""
    _generate_upto(mt, _N - 1)


class KernelRandom:
    """A `random.Random`'s stream moved onto the kernels' generator: `randrange(k)` draws
    what the `random.Random` would, and so do the kernels given `mt` (a search agent's
    rollouts); `close()` puts the state back into the `random.Random`, which continues as
    if it had made every draw itself. One conversion per search, not per rollout."""

    def __init__(self, rng):
        self.rng = rng
        version, words, self._gauss = rng.getstate()
        self._version = version
        self.mt = np.empty(MT_STATE_SIZE, dtype=np.int64)
        self.mt[:_N + 1] = words
        self.mt[_N + 1] = _N

    def randrange(self, k: int) -> int:
        if k <= 0:
            raise ValueError("empty range for randrange()")
        return rand_below(self.mt, k)

    def close(self) -> None:
        mt_complete(self.mt)
        self.rng.setstate((self._version, tuple(self.mt[:_N + 1].tolist()), self._gauss))


# Inlined where it is called (numba's IR): a playout draws a dozen words, each a call into
# its generator's block otherwise; the same compile time for a game's kernels.
@njit(cache=True, inline="always")
def rand_below(mt, n):
    """`random.Random.randrange(n)` for 0 < n < 2**32."""
    k = 0
    m = n
    while m:
        k += 1
        m >>= 1
    r = _genrand(mt) >> (32 - k)
    while r >= n:
        r = _genrand(mt) >> (32 - k)
    return r


# ---------------------------------------------------------------- the state's scalars

MOVER, NEXT, PREV, NUM_TURN, NUM_MOVES, NUM_DECISIONS, OVER, WINNER, LAST_FROM, LAST_TO, \
    END_TYPE, NWINNERS, NLOSERS, LOSSES_DECIDED, NUM_START_MOVES, NUM_TURN_SAME, \
    LAST_MOVER, COUNTER, NUM_ACTIONS, LAST_TO_AFTER, LAST_FROM_AFTER = range(21)
NUM_SCALARS = 21

END_NONE, END_NATURAL, END_TURN_LIMIT, END_MOVE_LIMIT = range(4)
END_TYPE_NAMES = (None, "NaturalEnd", "TurnLimit", "MoveLimit")
WIN, LOSS, DRAW = 1, 2, 3


# ---------------------------------------------------------------- sites (FlatSites)
# The journal of the sites written: `count` ends with JOURNAL_TAIL more integers, after
# its sites (and heights): count[-1] the writes since the playout kernel last read it,
# count[-2 - i] the site of write i (after JOURNAL writes only their number: the kernel
# then reads every site). The kernel brings a state's figures (its key, empty sites,
# pieces) up to date from the sites written since the last state instead of reading every
# site; every write of `who`, `what`, `count` goes through the functions below, which
# note their sites (a game writing a site otherwise reads every site: codegen's
# INCREMENTAL).
JOURNAL = 62
JOURNAL_TAIL = JOURNAL + 1


@njit(cache=True, inline="always")
def journal(count, site):
    """Note a write of `site` in `count`'s journal."""
    e = count.shape[0] - 1
    n = count[e]
    if n < JOURNAL:
        count[e - 1 - n] = site
    count[e] = n + 1


@njit(cache=True)
def restore(dst, saved):
    """An array given back the values saved from it (a position restored after moves were
    generated on it as a copy: a (do ...)'s first moves applied), its journal included."""
    dst[:] = saved


@njit(cache=True, inline="always")
def site_clear(who, what, count, site):
    journal(count, site)
    who[site] = 0
    what[site] = 0
    count[site] = 0


# Past every site: the end of the sites that gather counts in a game whose board keeps no
# layers of other site types after the containers (the `..._in` writes' `hand_to`).
NO_LAYERS = 1 << 62


@njit(cache=True, inline="always")
def site_add(who, what, count, hand_from, site, w, owner, k):
    """FlatSites.add without state/rotation/value (the games compiled here leave them 0)."""
    site_add_in(who, what, count, hand_from, NO_LAYERS, site, w, owner, k)


@njit(cache=True, inline="always")
def site_add_in(who, what, count, hand_from, hand_to, site, w, owner, k):
    """`site_add` where only the sites from `hand_from` to `hand_to` gather counts (a game
    whose board's layers of other site types follow the hands: FlatSites.count_to)."""
    journal(count, site)
    if what[site] != 0:
        count[site] = count[site] + k if hand_from <= site < hand_to else 1
        return
    what[site] = w
    who[site] = owner
    count[site] = k


@njit(cache=True, inline="always")
def site_move(who, what, count, hand_from, frm, to):
    """FlatSites.move: one piece from `frm` to `to`; nothing from an empty site (an effect
    before the move, or a capture made before, may have emptied it)."""
    site_move_in(who, what, count, hand_from, NO_LAYERS, frm, to)


@njit(cache=True, inline="always")
def site_move_in(who, what, count, hand_from, hand_to, frm, to):
    """`site_move` where only the sites from `hand_from` to `hand_to` gather counts (see
    `site_add_in`)."""
    if what[frm] == 0:
        return
    journal(count, frm)
    journal(count, to)
    w = what[frm]
    owner = who[frm]
    if count[frm] > 1:
        count[frm] -= 1
    else:
        site_clear(who, what, count, frm)
    if hand_from <= to < hand_to and what[to] == w:
        count[to] += 1
    else:
        what[to] = w
        who[to] = owner
        count[to] = 1


# The data hidden information is kept for (`ludemes.hidden`): the whole piece, then each
# datum named; a block of flags each in the kernels (codegen's HID).
HIDDEN_DATA = (None, "What", "Who", "State", "Count", "Rotation", "Value")
N_HIDDEN_DATA = len(HIDDEN_DATA)


def hidden_datum(data) -> int:
    """The index of a datum's block of hidden flags."""
    return HIDDEN_DATA.index(data)


@njit(cache=True)
def hidden_move(sc, base, total, width, what, frm, to):
    """The hidden flags after a piece moved from `frm` to `to` (`State._move_hidden`): the
    destination takes the origin's, for every datum and player; an origin left empty loses
    them."""
    emptied = what[frm] == 0
    for d in range(N_HIDDEN_DATA):
        a = base + (d * total + frm) * width
        b = base + (d * total + to) * width
        for p in range(width):
            v = sc[a + p]
            if emptied:
                sc[a + p] = 0
            sc[b + p] = v


@njit(cache=True, inline="always")
def site_move_counted(who, what, count, count_from, owner_of, frm, to):
    """FlatSites.move in a game that counts (Ludii's Count flag): sites from `count_from`
    gather pieces of one kind, and a piece landing elsewhere takes its kind's owner."""
    site_move_counted_in(who, what, count, count_from, NO_LAYERS, owner_of, frm, to)


@njit(cache=True, inline="always")
def site_move_counted_in(who, what, count, count_from, count_to, owner_of, frm, to):
    """`site_move_counted` where only the sites from `count_from` to `count_to` gather
    counts (see `site_add_in`)."""
    w = what[frm]
    if w == 0:
        return
    journal(count, frm)
    journal(count, to)
    if count[frm] > 1:
        count[frm] -= 1
    else:
        site_clear(who, what, count, frm)
    if count_from <= to < count_to and what[to] == w:
        count[to] += 1
    else:
        what[to] = w
        who[to] = owner_of[w]
        count[to] = 1


@njit(cache=True)
def site_move_n(who, what, count, owner_of, frm, to, n):
    """FlatSites.move_n: n pieces of a counted site (Ludii's ActionMoveN); the destination
    takes them when empty or holding the same kind. `owner_of`: each kind's owner in a game
    that counts (empty: the start's owner goes with them)."""
    journal(count, frm)
    journal(count, to)
    w = what[frm]
    owner = owner_of[w] if owner_of.shape[0] > 0 and w != 0 else who[frm]
    if count[frm] - n <= 0:
        site_clear(who, what, count, frm)
    else:
        count[frm] -= n
    if count[to] == 0:
        what[to] = w
        who[to] = owner
        count[to] = n
    elif what[to] == w:
        count[to] += n

# ---------------------------------------------------------------- sites (StackSites)
# A stacking game's kernels keep the same arrays, longer: `who[s]`, `what[s]` (s < TOTAL)
# stay the top piece of site s (what the emitters of a flat game read), `count[s]` Ludii's
# countCell on stacks (1 when the top piece has an owner); level l of site s is at
# `who/what[TOTAL + s * DEPTH + l]` (0 above the top), its height at `count[TOTAL + s]`.
# TOTAL and DEPTH follow from the arrays' lengths. Every write goes through these
# functions, which the generated module of a stacking game imports under the flat names
# (`site_add`, `site_clear`, `site_move`, `site_move_n`): each is the reference's
# `StackSites` write of the same action.

@njit(cache=True, inline="always")
def stack_shape(what, count):
    """(TOTAL, DEPTH) of a stacking game's arrays."""
    total = (count.shape[0] - JOURNAL_TAIL) // 2
    return total, (what.shape[0] - total) // total


@njit(cache=True)
def stack_sync(who, what, count, site):
    """The top-level views of a site from its levels."""
    journal(count, site)
    total, depth = stack_shape(what, count)
    n = count[total + site]
    if n > 0:
        i = total + site * depth + n - 1
        what[site] = what[i]
        who[site] = who[i]
        count[site] = 1 if who[i] != 0 else 0
    else:
        what[site] = 0
        who[site] = 0
        count[site] = 0


@njit(cache=True)
def stack_push(who, what, count, site, w, owner):
    total, depth = stack_shape(what, count)
    n = count[total + site]
    if n >= depth:
        raise KernelFull("a stack higher than the kernels hold")
    journal(count, site)
    what[total + site * depth + n] = w
    who[total + site * depth + n] = owner
    count[total + site] = n + 1


@njit(cache=True)
def stack_pop(who, what, count, site):
    """Take the top level of a non-empty stack (the views left as they were)."""
    total, depth = stack_shape(what, count)
    n = count[total + site] - 1
    journal(count, site)
    what[total + site * depth + n] = 0
    who[total + site * depth + n] = 0
    count[total + site] = n


@njit(cache=True)
def stack_add(who, what, count, hand_from, site, w, owner, k):
    """StackSites.add: `k` pieces pushed on the stack."""
    for _ in range(k):
        stack_push(who, what, count, site, w, owner)
    stack_sync(who, what, count, site)


@njit(cache=True)
def stack_remove(who, what, count, site):
    """StackSites.remove (Ludii's remove of the top piece)."""
    total, depth = stack_shape(what, count)
    if count[total + site] > 0:
        stack_pop(who, what, count, site)
        stack_sync(who, what, count, site)


@njit(cache=True)
def stack_move(who, what, count, hand_from, frm, to):
    """StackSites.move: the top piece of `frm` onto `to`."""
    total, depth = stack_shape(what, count)
    if count[total + frm] == 0:
        return
    w, owner = what[frm], who[frm]
    stack_pop(who, what, count, frm)
    stack_sync(who, what, count, frm)
    stack_push(who, what, count, to, w, owner)
    stack_sync(who, what, count, to)


@njit(cache=True)
def stack_move_n(who, what, count, owner_of, frm, to, n):
    """StackSites.move_n: the top `n` levels of `frm` onto `to`, in order."""
    total, depth = stack_shape(what, count)
    h = count[total + frm]
    n = min(n, h)
    if n <= 0:
        return
    for j in range(h - n, h):
        stack_push(who, what, count, to, what[total + frm * depth + j],
                   who[total + frm * depth + j])
    for _ in range(n):
        stack_pop(who, what, count, frm)
    stack_sync(who, what, count, frm)
    stack_sync(who, what, count, to)


@njit(cache=True)
def stack_at(arr, count, site, level):
    """`arr` (`who` or `what`) at a level of a site's stack (-1: the top), 0 where there is
    none (StackSites.level)."""
    total, depth = stack_shape(arr, count)
    if site < 0:
        return 0
    n = count[total + site]
    i = n - 1 if level == -1 else level
    return arr[total + site * depth + i] if 0 <= i < n else 0


@njit(cache=True)
def stack_pieces(who, what, count, site, p, named):
    """The levels of a site's stack holding a piece of player p (any owner if p < 0) of a
    kind `named` marks (any kind if it is empty), as the reference counts pieces on stacks
    (none where the top is empty)."""
    total, depth = stack_shape(what, count)
    if what[site] == 0:
        return 0
    n = 0
    for i in range(total + site * depth, total + site * depth + count[total + site]):
        if (p < 0 or who[i] == p) and (named.shape[0] == 0 or named[what[i]]):
            n += 1
    return n


@njit(cache=True)
def stack_pieces_of(who, what, count, site, owners, named):
    """`stack_pieces` of the players `owners` marks (a mask by player id)."""
    total, depth = stack_shape(what, count)
    if what[site] == 0:
        return 0
    n = 0
    for i in range(total + site * depth, total + site * depth + count[total + site]):
        if 0 <= who[i] < owners.shape[0] and owners[who[i]] and \
                (named.shape[0] == 0 or named[what[i]]):
            n += 1
    return n


@njit(cache=True)
def stack_move_stack(who, what, count, frm, to):
    """StackSites.move_stack: the whole stack of `frm` onto `to`."""
    total, depth = stack_shape(what, count)
    stack_move_n(who, what, count, what[:0], frm, to, count[total + frm])


@njit(cache=True)
def note_decision(sc, i, level, passed):
    """A decision's level reported for its destination (`sc[i]`), which decision it is
    (`sc[i + 1]`) and whether it is a pass (`sc[i + 2]`): what `(last LevelTo)` and `(was
    Pass)` read."""
    sc[i] = level
    sc[i + 1] = sc[NUM_DECISIONS]
    sc[i + 2] = passed


@njit(cache=True)
def not_board_site(site, first):
    """True for a site of a (from ...) or (to ...) naming another site type than the
    board's, which are hands' cells; a board site (below `first`) fails, as the reference."""
    if 0 <= site < first:
        raise ValueError("a site of another type than the board's read on the board")
    return True


@njit(cache=True)
def layer_place(site, base, size, hands_from, hands_to):
    """The place in the sites of a site of a layer of the board the game puts pieces on (its
    element 0 at `base`, `size` elements): a cell numbered as a hand's site is the hand's
    (`hands_from` to `hands_to`), any other index the layer's element; -1 off the layer."""
    if hands_from <= site < hands_to:
        return site
    return base + site if 0 <= site < size else -1


@njit(cache=True)
def layer_at(arr, site, base, size, hands_from, hands_to):
    """`arr` (who or what) at a site of a layer of the board the game puts pieces on
    (`layer_place`); 0 off the layer."""
    p = layer_place(site, base, size, hands_from, hands_to)
    return arr[p] if p >= 0 else 0


@njit(cache=True)
def layer_test(what, site, base, size, hands_from, hands_to, empty):
    """A site of a layer of the board the game puts pieces on is empty (`empty`), or
    occupied (`layer_place`); neither off the layer."""
    p = layer_place(site, base, size, hands_from, hands_to)
    return p >= 0 and (what[p] == 0) == empty


@njit(cache=True)
def stack_holds(what, count, site, w):
    """Some level of a site's stack holds a piece of kind `w`."""
    total, depth = stack_shape(what, count)
    for i in range(total + site * depth, total + site * depth + count[total + site]):
        if what[i] == w:
            return True
    return False


@njit(cache=True)
def stack_level_of(what, count, site, w, from_top, limit):
    """The level of a site's stack holding a piece of kind `w` (the highest, or the lowest
    when not `from_top`); -1 where none does, for a kind of 0 or less, or a site off the
    first `limit` (the board's)."""
    if site < 0 or site >= limit or w <= 0:
        return -1
    total, depth = stack_shape(what, count)
    n = count[total + site]
    for k in range(n):
        level = n - 1 - k if from_top else k
        if what[total + site * depth + level] == w:
            return level
    return -1


@njit(cache=True)
def stack_insert(who, what, count, site, level, w, owner):
    """One piece inserted at a level of a site's stack, those from there up one higher;
    at -1 or past the top, pushed on it (StackSites.add with a level, of one piece)."""
    total, depth = stack_shape(what, count)
    n = count[total + site]
    if level < 0 or level >= n:
        stack_push(who, what, count, site, w, owner)
    else:
        if n >= depth:
            raise KernelFull("a stack higher than the kernels hold")
        journal(count, site)
        base = total + site * depth
        for j in range(n, level, -1):
            what[base + j] = what[base + j - 1]
            who[base + j] = who[base + j - 1]
        what[base + level] = w
        who[base + level] = owner
        count[total + site] = n + 1
    stack_sync(who, what, count, site)


@njit(cache=True)
def stack_set_top(who, what, count, site, owner, w):
    """StackSites.set_piece of the top level (its state kept); none on an empty site."""
    total, depth = stack_shape(what, count)
    n = count[total + site]
    if n > 0:
        journal(count, site)
        what[total + site * depth + n - 1] = w
        who[total + site * depth + n - 1] = owner
        stack_sync(who, what, count, site)


@njit(cache=True)
def stack_insert_n(who, what, count, site, level, w, owner, k):
    """StackSites.add of `k` pieces at a level (each inserted there)."""
    for _ in range(k):
        stack_insert(who, what, count, site, level, w, owner)


@njit(cache=True)
def stack_take(who, what, count, site, level):
    """Take the piece at a level of a site's stack (-1: the top), those above one lower
    (StackSites.remove with a level); none past the stack."""
    total, depth = stack_shape(what, count)
    n = count[total + site]
    i = n - 1 if level == -1 else level
    if not 0 <= i < n:
        return
    journal(count, site)
    base = total + site * depth
    for j in range(i, n - 1):
        what[base + j] = what[base + j + 1]
        who[base + j] = who[base + j + 1]
    what[base + n - 1] = 0
    who[base + n - 1] = 0
    count[total + site] = n - 1
    stack_sync(who, what, count, site)


@njit(cache=True)
def stack_move_level(who, what, count, frm, level, to, level_to):
    """StackSites.move with levels: the piece at `level` of `frm` (-1: the top; none past
    the stack) onto the top of `to`, or inserted at `level_to` (-1 or past the top: on it)."""
    total, depth = stack_shape(what, count)
    n = count[total + frm]
    i = n - 1 if level == -1 else level
    if not 0 <= i < n:
        return
    w, owner = what[total + frm * depth + i], who[total + frm * depth + i]
    stack_take(who, what, count, frm, i)
    stack_insert(who, what, count, to, level_to, w, owner)



# The stacks' writes in a game whose pieces have a state (`st`, the states' block: the top
# level's state of each site (`st[s]`, s < TOTAL, what `(state at:)` reads), then each
# level's (`st[TOTAL + s * DEPTH + l]`), then what each level index was left with (Ludii's
# ChunkStack: `StackSites.residue`, `st[TOTAL * (1 + DEPTH) + s * DEPTH + l]`, read only
# above the stack). Each is `StackSites`'s write of the same action, states included.

@njit(cache=True, inline="always")
def _lv(total, depth, site, i):
    return total + site * depth + i


@njit(cache=True, inline="always")
def _left(total, depth, site, i):
    return total * (1 + depth) + site * depth + i


# In a stacking game whose pieces have values too, each level's word keeps both, as Ludii's
# ChunkStack keeps them together (they move and are left behind together): the value
# times 2**32 plus the state's low 32 bits (`_word`); then the top level's value of each
# site follows the block (`st[_vtop + s]`, what `(value Piece at:)` reads). `st` is then
# TOTAL longer than the states' block (`_vtop`).

@njit(cache=True, inline="always")
def _vtop(st, total, depth):
    """Where `st` keeps the top levels' values, or -1 when its levels keep no values."""
    base = total * (1 + 2 * depth)
    return base if st.shape[0] == base + total else -1


@njit(cache=True, inline="always")
def _word_state(word, packed):
    if not packed:
        return word
    low = word & 0xFFFFFFFF
    return low - (1 << 32) if low >= (1 << 31) else low


@njit(cache=True, inline="always")
def _word_value(word, packed):
    return word >> 32 if packed else 0


@njit(cache=True, inline="always")
def _word(state, value):
    return value * (1 << 32) + (state & 0xFFFFFFFF)


@njit(cache=True)
def _sync_state(st, what, count, site):
    total, depth = stack_shape(what, count)
    n = count[total + site]
    word = st[_lv(total, depth, site, n - 1)] if n > 0 else 0
    v = _vtop(st, total, depth)
    st[site] = _word_state(word, v >= 0)
    if v >= 0:
        st[v + site] = _word_value(word, True)


@njit(cache=True)
def _push_st(who, what, count, st, site, w, owner, state, own):
    """A piece pushed on a stack, with its own state (`own`) or the one its level was left
    with (a piece added, or a top piece moved, by what and owner alone)."""
    total, depth = stack_shape(what, count)
    n = count[total + site]
    stack_push(who, what, count, site, w, owner)
    st[_lv(total, depth, site, n)] = state if own else st[_left(total, depth, site, n)]
    stack_sync(who, what, count, site)
    _sync_state(st, what, count, site)


@njit(cache=True)
def _pop_top_st(who, what, count, st, site):
    """StackSites._pop_top: the level left with no data."""
    total, depth = stack_shape(what, count)
    n = count[total + site]
    stack_pop(who, what, count, site)
    st[_lv(total, depth, site, n - 1)] = 0
    st[_left(total, depth, site, n - 1)] = 0
    stack_sync(who, what, count, site)
    _sync_state(st, what, count, site)


@njit(cache=True)
def _pop_level_st(who, what, count, st, site, i):
    """StackSites._pop_level: level i taken out (its state returned), the old top's data
    left one above the new top."""
    total, depth = stack_shape(what, count)
    n = count[total + site]
    state = st[_lv(total, depth, site, i)]
    top = st[_lv(total, depth, site, n - 1)]
    for j in range(i, n - 1):
        st[_lv(total, depth, site, j)] = st[_lv(total, depth, site, j + 1)]
    st[_lv(total, depth, site, n - 1)] = 0
    st[_left(total, depth, site, n - 1)] = top
    stack_take(who, what, count, site, i)
    _sync_state(st, what, count, site)
    return state


@njit(cache=True)
def _insert_st(who, what, count, st, site, level, w, owner, state):
    """A piece inserted at a level below the top (its own state), those above one higher."""
    total, depth = stack_shape(what, count)
    n = count[total + site]
    for j in range(n, level, -1):
        st[_lv(total, depth, site, j)] = st[_lv(total, depth, site, j - 1)]
    st[_lv(total, depth, site, level)] = state
    stack_insert(who, what, count, site, level, w, owner)
    _sync_state(st, what, count, site)


@njit(cache=True)
def stack_add_st(who, what, count, st, hand_from, site, w, owner, k):
    for _ in range(k):
        _push_st(who, what, count, st, site, w, owner, 0, False)


@njit(cache=True)
def stack_remove_st(who, what, count, st, site):
    total, depth = stack_shape(what, count)
    if count[total + site] > 0:
        _pop_top_st(who, what, count, st, site)


@njit(cache=True)
def stack_move_level_st(who, what, count, st, frm, level, to, level_to):
    """StackSites.move: the top piece (level -1) takes the data its new level was left with
    when it lands on the top; a piece taken from a level, or inserted, keeps its own."""
    total, depth = stack_shape(what, count)
    n = count[total + frm]
    i = n - 1 if level == -1 else level
    if not 0 <= i < n:
        return
    w, owner = what[_lv(total, depth, frm, i)], who[_lv(total, depth, frm, i)]
    if level == -1:
        state = st[_lv(total, depth, frm, i)]
        _pop_top_st(who, what, count, st, frm)
    else:
        state = _pop_level_st(who, what, count, st, frm, i)
    m = count[total + to]
    if level_to == -1 or level_to > m:
        _push_st(who, what, count, st, to, w, owner, state, level != -1)
    else:
        _insert_st(who, what, count, st, to, max(0, level_to), w, owner, state)


@njit(cache=True)
def stack_move_st(who, what, count, st, hand_from, frm, to):
    stack_move_level_st(who, what, count, st, frm, -1, to, -1)


@njit(cache=True)
def stack_take_st(who, what, count, st, site, level):
    """StackSites.remove by level (-1: the top)."""
    total, depth = stack_shape(what, count)
    n = count[total + site]
    i = n - 1 if level == -1 else level
    if not 0 <= i < n:
        return
    if level == -1:
        _pop_top_st(who, what, count, st, site)
    else:
        _pop_level_st(who, what, count, st, site, i)


@njit(cache=True)
def stack_insert_st(who, what, count, st, site, level, w, owner):
    """StackSites.add of one piece at a level (on the top: the data its level was left
    with; inserted: none)."""
    total, depth = stack_shape(what, count)
    n = count[total + site]
    if level < 0 or level >= n:
        _push_st(who, what, count, st, site, w, owner, 0, False)
    else:
        _insert_st(who, what, count, st, site, level, w, owner, 0)


@njit(cache=True)
def stack_insert_n_st(who, what, count, st, site, level, w, owner, k):
    for _ in range(k):
        stack_insert_st(who, what, count, st, site, level, w, owner)


@njit(cache=True)
def stack_move_n_st(who, what, count, st, owner_of, frm, to, n):
    """StackSites.move_n: the top levels move with their states; the levels' residue stays."""
    total, depth = stack_shape(what, count)
    h, m = count[total + frm], count[total + to]
    n = min(n, h)
    if n <= 0 or frm == to:         # (the same stack, as it was)
        return
    for j in range(n):
        st[_lv(total, depth, to, m + j)] = st[_lv(total, depth, frm, h - n + j)]
        st[_lv(total, depth, frm, h - n + j)] = 0
    stack_move_n(who, what, count, owner_of, frm, to, n)
    _sync_state(st, what, count, frm)
    _sync_state(st, what, count, to)


@njit(cache=True)
def stack_move_stack_st(who, what, count, st, frm, to):
    total, depth = stack_shape(what, count)
    stack_move_n_st(who, what, count, st, what[:0], frm, to, count[total + frm])


@njit(cache=True)
def stack_set_state_st(who, what, count, st, site, level, v):
    """StackSites.set_field of the state: the top's (-1) or a level's; none past the stack."""
    total, depth = stack_shape(what, count)
    n = count[total + site]
    i = n - 1 if level == -1 else level
    if 0 <= i < n:
        j = _lv(total, depth, site, i)
        st[j] = _word(v, st[j] >> 32) if _vtop(st, total, depth) >= 0 else v
        _sync_state(st, what, count, site)


@njit(cache=True)
def stack_set_value_st(who, what, count, st, site, level, v):
    """StackSites.set_field of the value (in a game whose levels keep values): the top's
    (-1) or a level's; none past the stack."""
    total, depth = stack_shape(what, count)
    n = count[total + site]
    i = n - 1 if level == -1 else level
    if 0 <= i < n:
        j = _lv(total, depth, site, i)
        st[j] = _word(_word_state(st[j], True), v)
        _sync_state(st, what, count, site)


@njit(cache=True)
def stack_state_at(st, what, count, site, level):
    """The state at a level of a site's stack (-1: the top), 0 where there is none."""
    total, depth = stack_shape(what, count)
    if site < 0:
        return 0
    n = count[total + site]
    i = n - 1 if level == -1 else level
    if not 0 <= i < n:
        return 0
    return _word_state(st[_lv(total, depth, site, i)], _vtop(st, total, depth) >= 0)


@njit(cache=True)
def stack_value_at(st, what, count, site, level):
    """The value at a level of a site's stack (-1: the top), -1 where there is none (in a
    game whose levels keep values)."""
    total, depth = stack_shape(what, count)
    if site < 0:
        return -1
    n = count[total + site]
    i = n - 1 if level == -1 else level
    if not 0 <= i < n:
        return -1
    return _word_value(st[_lv(total, depth, site, i)], True)


# The same writes in a game whose pieces have a state (`st`, the state per site): a piece
# takes its state with it, a piece landing on an empty site (or a count landing anew) starts
# it afresh, and a site emptied loses it; a site keeps it when only its count changes.
# In a game without stacks `st` holds the sites' values after their states (twice as long
# as `what`; `_vi`): a value goes with its piece and a site emptied loses it as a state does,
# but a piece added keeps the value its site had (Ludii's ActionAdd, `FlatSites.add`).
# In a game whose pieces turn, the sites' rotations come after the values (three times as
# long as `what`; `_ri`): a rotation goes with its piece as a state does, and a piece added
# to an empty site starts with none (`FlatSites.add`).


# ------------------------------------------------ a piece's index stored as its owner
# A board where Ludii stores a piece's index as its `who` (`Game.who_is_index`,
# `ludeme.engine.stores.IndexWhoSites`): the flat writes, then a board site written takes
# its piece's index as its `who`; a hand keeps its owner, a piece landing there its kind's
# owner (`owner_of`). The kernels of such a game bind these under the flat names
# (`codegen.INDEX_WRITES`); a move of several pieces at once is not
# written for them.

@njit(cache=True, inline="always")
def _index_who(who, what, hand_from, site):
    if site < hand_from:
        who[site] = what[site]


@njit(cache=True)
def index_add(who, what, count, hand_from, site, w, owner, k):
    site_add(who, what, count, hand_from, site, w, owner, k)
    _index_who(who, what, hand_from, site)


@njit(cache=True)
def index_move_counted(who, what, count, count_from, owner_of, frm, to):
    """FlatSites.move with its `owner_of` (`count_from`: the first hand's site)."""
    site_move_counted(who, what, count, count_from, owner_of, frm, to)
    _index_who(who, what, count_from, to)


@njit(cache=True)
def _vi(what, st, site):
    """Where `st` keeps the value of a site, or -1 when it keeps no values."""
    return what.shape[0] + site if st.shape[0] >= 2 * what.shape[0] else -1


@njit(cache=True)
def _ri(what, st, site):
    """Where `st` keeps the rotation of a site, or -1 when it keeps no rotations."""
    return 2 * what.shape[0] + site if st.shape[0] == 3 * what.shape[0] else -1


@njit(cache=True)
def _st_clear(what, st, site):
    """A site emptied: its state, value and rotation go."""
    st[site] = 0
    v, r = _vi(what, st, site), _ri(what, st, site)
    if v >= 0:
        st[v] = 0
    if r >= 0:
        st[r] = 0


@njit(cache=True)
def site_clear_st(who, what, count, st, site):
    site_clear(who, what, count, site)
    _st_clear(what, st, site)


@njit(cache=True)
def site_add_st(who, what, count, st, hand_from, site, w, owner, k):
    if what[site] == 0:
        st[site] = 0
        r = _ri(what, st, site)
        if r >= 0:
            st[r] = 0
    site_add(who, what, count, hand_from, site, w, owner, k)


@njit(cache=True)
def _st_carry(what, st, frm, to, emptied, landed):
    """A piece moved from `frm` to `to`: its state, value and rotation land with it where
    it `landed` (not on pieces of its kind counted there), and go from an `emptied` start."""
    carried = st[frm]
    vf, vt = _vi(what, st, frm), _vi(what, st, to)
    rf, rt_ = _ri(what, st, frm), _ri(what, st, to)
    carried_v = st[vf] if vf >= 0 else 0
    carried_r = st[rf] if rf >= 0 else 0
    if emptied:
        _st_clear(what, st, frm)
    if landed:
        st[to] = carried
        if vt >= 0:
            st[vt] = carried_v
        if rt_ >= 0:
            st[rt_] = carried_r


@njit(cache=True)
def site_move_st(who, what, count, st, hand_from, frm, to):
    moving = what[frm] != 0
    landed = moving and not (to >= hand_from and what[to] == what[frm])
    site_move(who, what, count, hand_from, frm, to)
    _st_carry(what, st, frm, to, moving and what[frm] == 0, landed)


@njit(cache=True)
def site_move_counted_st(who, what, count, st, count_from, owner_of, frm, to):
    if what[frm] == 0:
        return
    landed = not (to >= count_from and what[to] == what[frm])
    site_move_counted(who, what, count, count_from, owner_of, frm, to)
    _st_carry(what, st, frm, to, what[frm] == 0, landed)


@njit(cache=True)
def site_move_n_st(who, what, count, st, owner_of, frm, to, n):
    """FlatSites.move_n: an empty destination is cleared first (its state goes)."""
    fresh = count[to] == 0
    site_move_n(who, what, count, owner_of, frm, to, n)
    if what[frm] == 0:
        _st_clear(what, st, frm)
    if fresh:
        _st_clear(what, st, to)

# ---------------------------------------------------------------- end of game

@njit(cache=True)
def _num_active(active, n):
    k = 0
    for p in range(1, n + 1):
        if active[p]:
            k += 1
    return k


@njit(cache=True)
def _end_with_rank_one(sc, rk, active, n):
    for p in range(n + 1):
        active[p] = 0
    sc[OVER] = 1
    sc[END_TYPE] = END_NATURAL
    sc[WINNER] = 0
    for p in range(1, n + 1):
        if rk[p] == 1.0:
            sc[WINNER] = p
            break


@njit(cache=True)
def _next_draw_rank(sc, active, n):
    return (_num_active(active, n) + 1) / 2.0 + sc[NWINNERS]


@njit(cache=True)
def apply_team_win(sc, rk, active, n, team, team_of):
    """State._apply_team_result of a Win (`team_of[p]`: player p's team, -1 for none): the
    team's members rank together at the first free rank; if one team is left, its members
    rank after them and the game ends."""
    members = 0
    for p in range(1, n + 1):
        if team_of[p] == team:
            active[p] = 0
            sc[NWINNERS] += 1
            members += 1
    rank = 1
    while rank < n + 1:
        held = False
        for p in range(1, n + 1):
            if rk[p] == rank:
                held = True
        if not held:
            break
        rank += 1
    for p in range(1, n + 1):
        if team_of[p] == team:
            rk[p] = float(rank)
    left = -2               # the one team of the active players, -3 when several
    for p in range(1, n + 1):
        if active[p]:
            if left == -2:
                left = team_of[p]
            elif left != team_of[p]:
                left = -3
    if left == -2:
        _end_with_rank_one(sc, rk, active, n)
    elif left != -3:
        for p in range(1, n + 1):
            if team_of[p] == left:
                rk[p] = float(rank + members)
                active[p] = 0
        _end_with_rank_one(sc, rk, active, n)


@njit(cache=True)
def apply_result(sc, rk, active, n, who, kind):
    """State._apply_result for a game without teams."""
    if kind == WIN:
        if who == 0:
            for p in range(1, n + 1):
                if rk[p] == 0.0:
                    sc[NWINNERS] += 1
                    rk[p] = 1.0
            for p in range(n + 1):
                active[p] = 0
            sc[OVER] = 1
            sc[END_TYPE] = END_NATURAL
            sc[WINNER] = 0
            return
        active[who] = 0
        rank = float(sc[NWINNERS] + 1)
        sc[NWINNERS] += 1
        rk[who] = rank
        left = _num_active(active, n)
        if left == 1:
            for p in range(1, n + 1):
                if active[p]:
                    rk[p] = rank + 1.0
            sc[NLOSERS] += 1
            _end_with_rank_one(sc, rk, active, n)
        elif left == 0:
            _end_with_rank_one(sc, rk, active, n)
    elif kind == LOSS:
        if who == 0:
            for p in range(1, n + 1):
                if rk[p] == 0.0:
                    rk[p] = float(n)
            for p in range(n + 1):
                active[p] = 0
            sc[OVER] = 1
            sc[END_TYPE] = END_NATURAL
            sc[WINNER] = 0
            return
        if not active[who]:
            return
        active[who] = 0
        if sc[NEXT] == who and n != 1 and _num_active(active, n) > 0:
            nxt = who
            while not active[nxt]:
                nxt = nxt % n + 1
            sc[NEXT] = nxt
        if n > 1:
            rank = float(n - sc[NLOSERS])
            prev_loss_rank = rank + 1.0 + 0.5 * (sc[LOSSES_DECIDED] - 1.0)
            rank = prev_loss_rank - 0.5
            rk[who] = rank
            sc[NLOSERS] += 1
            for p in range(n + 1):
                if rk[p] == prev_loss_rank:
                    rk[p] = rank
            left = _num_active(active, n)
            if left == 0:
                _end_with_rank_one(sc, rk, active, n)
            elif left == 1:
                last = 0
                for p in range(1, n + 1):
                    if active[p]:
                        last = p
                rk[last] = float(sc[NWINNERS] + 1)
                low = rk[1]
                for p in range(2, n + 1):
                    low = min(low, rk[p])
                sc[NWINNERS] += 1
                active[last] = 0
                sc[OVER] = 1
                sc[END_TYPE] = END_NATURAL
                for p in range(1, n + 1):
                    if rk[p] == low:
                        sc[WINNER] = p
                        break
        else:
            for p in range(n + 1):
                active[p] = 0
            sc[OVER] = 1
            sc[END_TYPE] = END_NATURAL
            sc[WINNER] = 0
        sc[LOSSES_DECIDED] += 1
    else:
        if n > 1:
            score = _next_draw_rank(sc, active, n)
            for p in range(1, n + 1):
                if rk[p] == 0.0:
                    rk[p] = score
        _end_with_rank_one(sc, rk, active, n)


@njit(cache=True)
def _next_win_rank(rk, n):
    """State._next_win_rank (Ludii's Context.computeNextWinRank)."""
    low = 0.0
    while True:
        m = -1.0
        for p in range(1, n + 1):
            if rk[p] > low and (m < 0.0 or rk[p] < m):
                m = rk[p]
        if m < 0.0:
            return low + 1.0
        k = 0
        for p in range(1, n + 1):
            if rk[p] == m:
                k += 1
        if int(m - (k - 1) * 0.5) > low + 1.0:
            return low + 1.0
        low += k


@njit(cache=True)
def rank_by_score(sc, rk, active, n, score_at, misere=False):
    """State._rank_by_score: everyone stops; ranks by score (sc[score_at + p]), highest
    first (lowest first when misere), ties sharing the average of the ranks they span."""
    left = np.ones(n + 1, np.bool_)
    left[0] = False
    remaining = n
    while remaining > 0:
        best = 0
        found = False
        for p in range(1, n + 1):
            if left[p] and (not found or (sc[score_at + p] < best if misere
                                          else sc[score_at + p] > best)):
                best = sc[score_at + p]
                found = True
        tied = 0
        for p in range(1, n + 1):
            if left[p] and sc[score_at + p] == best:
                tied += 1
        rank = (_next_win_rank(rk, n) * 2.0 + tied - 1.0) / 2.0
        for p in range(1, n + 1):
            if left[p] and sc[score_at + p] == best:
                rk[p] = rank
                left[p] = False
                remaining -= 1
    _end_with_rank_one(sc, rk, active, n)


@njit(cache=True)
def timeout(sc, rk, active, n, max_turns):
    """State._timeout: undecided players share the remaining ranks."""
    winner = 0
    if n > 1:
        score = _next_draw_rank(sc, active, n)
        for p in range(1, n + 1):
            if rk[p] == 0.0:
                rk[p] = score
            elif rk[p] == 1.0:
                winner = p
    for p in range(n + 1):
        active[p] = 0
    sc[OVER] = 1
    sc[END_TYPE] = END_TURN_LIMIT if sc[NUM_TURN] >= max_turns * n else END_MOVE_LIMIT
    sc[WINNER] = winner


@njit(cache=True)
def all_passed(hist_mover, hist_pass, length, n, start_moves):
    """State._all_passed over the history's first `length` decisions."""
    if length == 0 or not hist_pass[length - 1]:
        return False
    i = length - 1
    turns = 0
    while turns < n:
        if i < 0:
            return start_moves == 0   # before them only the start rules' placements
        p = hist_mover[i]
        j = i
        while j - 1 >= 0 and hist_mover[j - 1] == p:
            j -= 1
        if i != j or not hist_pass[i]:
            return False
        turns += 1
        i = j - 1
    return True


@njit(cache=True, inline="always")
def is_line(what, pivot, whats, length, exact, contiguous, rays, ray_len, opps, opp_len,
            num_rays):
    """`(is Line ...)` without if: as ludeme.model.ludemes.booleans.IsLine walks it.

    `whats[w]` marks the piece kinds that count; `opp_len[pivot, r]` is -1 where a radial
    has no opposite. Inlined: the call's constants (the length, exact, contiguous) fold
    into the walk, and the kinds' row is not counted as a new array; an eighth of
    Tic-Tac-Toe's kernel was the call."""
    if not whats[what[pivot]]:
        return False
    for r in range(num_rays[pivot]):
        count = 1
        found = False
        for j in range(ray_len[pivot, r]):
            if whats[what[rays[pivot, r, j]]]:
                count += 1
                if not exact and count == length:
                    found = True
                    break
            elif contiguous:
                break
        if found:
            return True
        if opp_len[pivot, r] >= 0:
            total = count
            for j in range(opp_len[pivot, r]):
                if whats[what[opps[pivot, r, j]]]:
                    total += 1
                    if not exact and total == length:
                        found = True
                        break
                elif contiguous:
                    break
            if found or total == length:
                return True
        elif count == length:
            return True
    return False


@njit(cache=True)
def stack_holds_kind(what, count, site, whats):
    """Some level of a site's stack holds a piece of a kind `whats` marks."""
    total, depth = stack_shape(what, count)
    for i in range(total + site * depth, total + site * depth + count[total + site]):
        if whats[what[i]]:
            return True
    return False


@njit(cache=True)
def is_line_stacked(what, count, pivot, whats, length, exact, rays, ray_len, opps, opp_len,
                    num_rays):
    """`(is Line ...)` in a stacking game, as ludeme.model.ludemes.booleans.IsLine's
    `line_on_stacks` walks it: a site counts when any level of its stack holds one of the
    kinds; a gap ends a line; a length of 1 is a line whatever the pivot holds."""
    if length == 1:
        return True
    if not stack_holds_kind(what, count, pivot, whats):
        return False
    for r in range(num_rays[pivot]):
        n, found = _stacked_run(what, count, rays[pivot, r], ray_len[pivot, r], whats, 1,
                                length, exact)
        if not found and opp_len[pivot, r] >= 0:    # on along the opposite ray
            n, found = _stacked_run(what, count, opps[pivot, r], opp_len[pivot, r], whats, n,
                                    length, exact)
        if found or n == length:
            return True
    return False


@njit(cache=True)
def _stacked_run(what, count, sites, ln, whats, n, length, exact):
    """`is_line_stacked` along one side: the count on from `n` while the sites' stacks hold
    one of the kinds, and whether it reached `length` (not exact)."""
    for j in range(ln):
        if not stack_holds_kind(what, count, sites[j], whats):
            break
        n += 1
        if not exact and n == length:
            return n, True
    return n, False


@njit(cache=True)
def is_line_by_level(what, count, pivot, whats, length, exact, rays, ray_len, opps, opp_len,
                     num_rays):
    """`(is Line ... byLevel:True)` as ludeme.model.ludemes.stacks.line_by_level walks it:
    down the pivot's stack, then along each radial at the pivot's top level, one level
    lower and one higher a site (`whats[w]` marks the kinds that count)."""
    total, depth = stack_shape(what, count)
    n = count[total + pivot]
    if length == 1:
        return True
    if n >= length:
        c = 1
        for i in range(length - 1):
            if not whats[stack_at(what, count, pivot, n - 2 - i)]:
                break
            c += 1
            if not exact and c == length:
                return True
        if c == length:
            return True
    origin = n - 1
    for r in range(num_rays[pivot]):
        for shift in (0, -1, 1):
            c = 1
            for j in range(ray_len[pivot, r]):
                site = rays[pivot, r, j]
                lv = origin + shift * (j + 1)
                if lv < 0 or count[total + site] <= lv \
                        or not whats[what[total + site * depth + lv]]:
                    break
                c += 1
                if not exact and c == length:
                    return True
            if opp_len[pivot, r] >= 0:
                t = c
                for j in range(opp_len[pivot, r]):
                    site = opps[pivot, r, j]
                    lv = origin - shift * (j + 1)
                    if lv < 0 or count[total + site] <= lv \
                            or not whats[what[total + site * depth + lv]]:
                        break
                    t += 1
                    if not exact and t == length:
                        return True
                # as Ludii: the descending line checks only its own side here
                if (c if shift == -1 else t) == length:
                    return True
            elif c == length:
                return True
    return False


# ---------------------------------------------------------------- per-playout series
# The kernels' forms of `ludeme.engine.figures`' per-state figures that read a whole list:
# Ludii's aggregates, repeated positions, the steps a move goes.

HASH_MASK = (1 << 62) - 1
HASH_PRIME = 1099511628211          # FNV's 64-bit prime; the fold spreads high bits down


@njit(cache=True, inline="always")
def popcount(x):
    """The bits set in a non-negative integer."""
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True, inline="always")
def hash_one(h, value):
    """`h` with the integer `value` folded in (an order-sensitive 62-bit hash)."""
    h = ((h ^ value) * HASH_PRIME) & HASH_MASK
    return h ^ (h >> 29)


@njit(cache=True, inline="always")
def site_word(who, what, count):
    """One site's owner, piece and count as one integer for `hash_one` (distinct for
    owners and pieces within +-515)."""
    return (count * 1031 + what) * 1031 + who


@njit(cache=True, inline="always")
def hash_into(h, values):
    """`h` with the integers of `values` folded in, in order."""
    for i in range(values.shape[0]):
        h = hash_one(h, values[i])
    return h


@njit(cache=True, inline="always")
def repeats(keys, n, scratch):
    """Whether a value occurs twice among keys[:n] (`scratch`: a table of twice as many
    slots, or one is made)."""
    if n <= 16:             # a short playout: compared pairwise, nothing sorted
        for i in range(n):
            for j in range(i):
                if keys[i] == keys[j]:
                    return True
        return False
    # An open-addressing table of the indices (plus one) of the keys met, at least twice
    # as many slots as keys: a pass over them where sorting them cost a long playout (say
    # Gomoku's) an eighth of its time
    size = 64
    while size < 2 * n:
        size *= 2
    table = scratch[:size] if scratch.shape[0] >= size else np.empty(size, np.int64)
    table[:] = 0
    mask = size - 1
    for i in range(n):
        key = keys[i]
        slot = ((key * np.int64(-7046029254386353131)) >> 40) & mask
        while table[slot] != 0:
            if keys[table[slot] - 1] == key:
                return True
            slot = (slot + 1) & mask
        table[slot] = i + 1
    return False


@njit(cache=True)
def grown(buf, n):
    """`buf`, or a copy twice as long holding its first n values, when n reaches its end."""
    if n < buf.shape[0]:
        return buf
    out = np.empty(2 * buf.shape[0], buf.dtype)
    out[:n] = buf[:n]
    return out


@njit(cache=True)
def step_distance(start, nxt, frm, to, queue, seen, stamp):
    """The fewest steps from `frm` to `to` along the step table (site s steps to
    nxt[start[s]:start[s+1]]), 0 when none joins them; `seen` holds `stamp` where visited."""
    seen[frm] = stamp
    queue[0] = frm
    head, tail, level_end, level = 0, 1, 1, 0
    while head < tail:
        s = queue[head]
        head += 1
        if s == to:
            return level
        for e in range(start[s], start[s + 1]):
            t = nxt[e]
            if seen[t] != stamp:
                seen[t] = stamp
                queue[tail] = t
                tail += 1
        if head == level_end:
            level += 1
            level_end = tail
    return 0


N_AGGREGATES = 11


@njit(cache=True, inline="always")
def sorted_at(values, n, k, scratch):
    """The k-th of values[:n] in ascending order (`scratch`: at least n long), by Hoare's
    selection: numba's sort costs a playout more than its rules."""
    s = scratch[:n]
    s[:] = values[:n]
    lo, hi = 0, n - 1
    while lo < hi:
        pivot = s[(lo + hi) // 2]
        i, j = lo, hi
        while i <= j:
            while s[i] < pivot:
                i += 1
            while s[j] > pivot:
                j -= 1
            if i <= j:
                s[i], s[j] = s[j], s[i]
                i += 1
                j -= 1
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            break
    return s[k]


@njit(cache=True, inline="always")
def aggregates_into(values, n, out, r, col, scratch):
    """`ludeme.engine.figures.aggregates` of values[:n] into out[r, col:col+11], in
    `figures.AGGREGATES`' order, with Ludii 1.3.12's quirks as it keeps them (`scratch`: as
    long as `values`, for sorting them). Two passes over the values, each sum in the
    reference's order (so the same bits): what needs no mean, then what does, skipped for
    a series that is zero throughout (a game without scores, say)."""
    if n == 0:
        for j in range(N_AGGREGATES):
            out[r, col + j] = 0.0
        return
    total = 0.0 + values[0]
    hi = values[0]
    lo = values[0]
    rises = falls = False
    signs = 0
    changes = 0
    direction = 0
    up = 0.0
    down = 0.0
    if n > 1:
        up = values[1] - values[0]
        down = up
    for i in range(1, n):
        v = values[i]
        total += v
        hi = max(hi, v)
        lo = min(lo, v)
        step = v - values[i - 1]
        d = 1 if step > 0 else (-1 if step < 0 else 0)
        rises |= d > 0
        falls |= d < 0
        signs += d
        if d != 0 and d != direction:
            changes += 1
        direction = d
        up = max(up, step)
        down = min(down, step)
    mean = total / n
    out[r, col] = mean
    out[r, col + 2] = max(0.0, hi)
    out[r, col + 3] = min(0.0, lo)
    if n <= 1:
        for j in (1, 4, 5, 6, 7, 8, 9, 10):
            out[r, col + j] = 0.0
        return
    # The median without selection where the series never turns (a placement game's
    # pieces, sites occupied and moves: most series of short games), where selection,
    # its branches taken at random, cost a fifteenth of Tic-Tac-Toe's playout. The values
    # are counts or ratios of counts: one that equals the k-th is the same number.
    if not falls:
        out[r, col + 1] = values[n // 2]
    elif not rises:
        out[r, col + 1] = values[n - 1 - n // 2]
    else:
        out[r, col + 1] = sorted_at(values, n, n // 2, scratch)
    var = 0.0
    slope = 0.0
    if hi != 0.0 or lo != 0.0:      # (zero throughout: no deviation, no slope)
        xbar = (n - 1) / 2
        sxx = 0.0
        sxy = 0.0
        for i in range(n):
            dev = values[i] - mean
            var += dev ** 2
            sxx += (i - xbar) ** 2
            sxy += (i - xbar) * dev
        slope = sxy / sxx
    out[r, col + 4] = var / n
    out[r, col + 5] = (values[n - 1] - values[0]) / (n - 1)
    out[r, col + 6] = signs / (n - 1)
    out[r, col + 7] = slope
    out[r, col + 8] = changes * (1 // (n - 1))
    out[r, col + 9] = max(0.0, up)
    out[r, col + 10] = min(0.0, down)


# The rows of a playout's series, in `figures.SERIES`' order (their aggregates' columns).
S_PIECES, S_OCCUPIED, S_LEGAL, S_MULTI, S_DISTANCE, S_SCORE = range(6)
N_SERIES = 6


@njit(cache=True)
def grown_rows(buf, n):
    """`buf`, or a copy with rows twice as long holding their first n values, when n
    reaches their end."""
    if n < buf.shape[1]:
        return buf
    out = np.empty((buf.shape[0], 2 * buf.shape[1]), buf.dtype)
    out[:, :n] = buf[:, :n]
    return out


@njit(cache=True)
def series_figures(out_f, r, keys, series, states, decisions, multi_count, n_dist,
                   sorted_i, sorted_f):
    """Columns 7 on of playout r's row: whether a position (`keys[0]`) and a situation
    (`keys[1]`) came back, and Ludii's aggregates of each series (a row of `series` each,
    `figures.SERIES`' order, from column 9). Called once per playout and compiled once per
    install: inlined into each game's playout kernel, these loops cost numba 10 to 15 s per
    game; the call passes few arrays, since each costs a count of its references."""
    out_f[r, 7] = 1.0 if repeats(keys[0], states, sorted_i) else 0.0
    out_f[r, 8] = 1.0 if repeats(keys[1], states, sorted_i) else 0.0
    lengths = (states, states, decisions, multi_count, n_dist, states)
    for row in range(N_SERIES):
        aggregates_into(series[row], lengths[row], out_f, r, 9 + row * N_AGGREGATES, sorted_f)
