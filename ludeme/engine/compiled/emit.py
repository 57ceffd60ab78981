"""The compiled forms of ludemes, registered beside their classes: one place per ludeme.

A family module of `ludeme.model.ludemes` registers, next to a ludeme's class, the
function that writes its compiled form (Python source for numba):

    @emits(Who, What, kind="int", refuses=("level",))
    def _who_what(src, lud):
        ...
        return "(who[...] if ... else 0)"

`src` is the module being generated (`ludeme.engine.compiled.codegen.Source`: its
tables, helper kernels, move generators and the dispatch to the other emitters,
`src.int_expr(x)`, `src.bool_expr(x)`, `src.moves(x, out, ind)`, ...). Emitters are
looked up by the exact class of the ludeme (`type(lud)`): a subclass may mean something
else, so it registers its own. An argument listed in `refuses` that the description
gave refuses the ludeme (`Unsupported`, "with <argument>:") before the emitter runs;
an item may also be (argument, message) for a message of its own. A ludeme with no
emitter of the kind asked for is `Unsupported` too, and the game falls back to the
reference engine.

This module knows no ludeme: it is the engine's side of the registry (the model
imports it, never the reverse). It stays light, as every family module imports it.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

from .unsupported import Unsupported

# The levels a stacking game's move reports (Move.level_from, level_to), by the stacks
# before it, as each generator declares (`Source.new_generator`): none (0, 0); the top
# piece of a board site leaving ((height - 1, 0) at the origin, (0, 0) off the board); a
# piece landing on the destination's top (its height, twice); the top x levels (the
# move's extra) of the origin landing on the destination ((height - x, the destination's
# height)); the level given by the move's extra, x (a piece taken from a level: (x, 0); a
# piece removed from a level: (x, x); 0 for x below 0); the top levels of both sites (a
# selection: (height - 1, the destination's height - 1), 0 for an empty stack); the two
# levels given by the extra, (lf + 1) * LEVEL_PAIR + lt + 1 (a piece moved from a level to
# a level: (lf, lt), 0 for one below 0). `CompiledGame.legal_of` reads them.
LV_NONE, LV_TOP, LV_ADD, LV_SUB, LV_GIVEN, LV_AT, LV_TOPS, LV_PAIR = range(8)
LEVEL_PAIR = 1 << 16
# A move made inside (forEach Die ...) keeps the die's tag (`ludemes.dice`) and its own extra
# together: tag + TAGGED * (extra + 1) (`Source.push`; its generator's effect splits them).
TAGGED = 1 << 32

# The kinds of compiled form: what an emitter of the kind gives (its arguments after `src`
# and the ludeme), and what a ludeme without one is refused as ("": `(keyword kind)` alone).
KINDS = {
    "int": ("an integer expression", ""),
    "bool": ("a condition", ""),
    "array": ("an expression giving a 1-D int64 array: an int array's values, in the "
              "reference's order, repeats kept", ""),
    "moves": ("(out, ind): the lines that push its moves into the move buffers", ""),
    "consequent": ("(lines, ind): its lines as a part of a `(then ...)`", "as a consequent"),
    "then": ("(lines): the lines of a move's consequents", ""),
    "effect": ("(body): its writes when its move is applied", ""),
    "apply": ("(lines): an effect before a move's own action", ""),
    "range": ("(least, most) integer expressions", ""),
    "one_move": ("a condition: as an effect, it makes one move where the condition holds "
                 "and none elsewhere (a ludeme that may make more has no such form)",
                 "as an effect making one move at most"),
    "end": ("(out, ind): an end rule's lines", ""),
    "start": ("(out, ind): a start rule drawn for each new game, after the fixed start "
              "position", ""),
    "contains": ("(site): a test that `site` belongs to the region", ""),
    "sites": ("(a sequence to iterate, a filter given a variable's name, or None)", ""),
    "for_region": ("(out, ind, body): a loop over the region's sites as `site`",
                   "as a region to list"),
    "static_sites": ("(sites, by mover): the region's sites listed now, once or per mover",
                     ""),
    "static": ("True when the region reads nothing of the state (listed now, a table)", ""),
    "from_only": ("True when it reads nothing but `(from)` and the board (tabulated per "
                  "`(from)`, as a region counted)", ""),
    "filtered": ("(another region, a filter on `site`) or None: the region as a simpler one "
                 "and a test", ""),
    "adds_to_empty": ("True when, as a phase's moves, it is one placement on the empty board "
                      "sites and nothing that reads the moves listed (a random playout may "
                      "draw the c-th empty site instead of listing them)", ""),
}


class Emitter(NamedTuple):
    fn: Callable
    refuses: tuple          # argument names, or (argument, message) pairs


EMITTERS: dict[str, dict[type, Emitter]] = {kind: {} for kind in KINDS}

# Ludemes with no compiled form, and why (the coverage table's reason; default "no
# emitter yet").
WHY_NOT: dict[type, str] = {}

# Ludemes compiled as a part of another ludeme's form (e.g. `(to ...)` in a move): the
# ludemes that read them.
PART_OF: dict[type, str] = {}


def emits(*classes: type, kind: str, refuses: tuple = ()):
    """Decorator: `fn` writes the compiled form (of this kind) of these ludeme classes."""
    if kind not in KINDS:
        raise ValueError(f"unknown kind of compiled form {kind!r}: one of {', '.join(KINDS)}")

    def deco(fn):
        for cls in classes:
            was = EMITTERS[kind].get(cls)
            if was is not None and was.fn is not fn:
                # two forms of one ludeme: the later would silently replace the earlier
                raise ValueError(f"{cls.__name__} has a compiled form of kind {kind!r} "
                                 f"already ({was.fn.__module__}.{was.fn.__name__})")
            EMITTERS[kind][cls] = Emitter(fn, tuple(refuses))
        return fn
    return deco


def no_compiled_form(*classes: type, why: str) -> None:
    """Say why these ludemes have no compiled form (shown in the coverage table)."""
    for cls in classes:
        WHY_NOT[cls] = why


def part_of(*classes: type, parent: str) -> None:
    """These ludemes are compiled by the emitters of `parent` (shown in the coverage table)."""
    for cls in classes:
        PART_OF[cls] = parent


def refuse(lud, *attrs) -> None:
    """Refuse (as Unsupported) arguments that an emitter does not implement: each an
    argument (its attribute, or its name as written: `in` for `in_`), or (argument,
    message)."""
    for a in attrs:
        a, why = a if isinstance(a, tuple) else (a, None)
        # an argument by its attribute (`if_`) or by the name the description writes (`in`)
        a = next((p.attr for p in getattr(type(lud), "params", ()) if p.name == a
                  and p.attr != a and p.attr in lud._given), a)
        if a in lud._given:
            raise Unsupported(lud, why or f"with {lud._given[a][0]}:")


def effect_as_consequent(effect):
    """The consequent form of a ludeme whose effect form (`effect(src, lud, body)`) is
    applied the same way after a move: its lines at the consequent's indent."""
    def consequent(src, lud, lines, ind):
        body: list[str] = []
        effect(src, lud, body)
        lines.extend(ind + x for x in body)
    return consequent


def refuse_stacks(src, lud) -> None:
    """Refuse (Unsupported) a compiled form that reads only the top pieces where, in a
    stacking game, the reference reads every level."""
    if src.game.stacking:
        raise Unsupported(lud, "in a stacking game")


def lookup(kind: str, lud) -> Emitter | None:
    """The emitter of this kind for the ludeme's class, or None."""
    return EMITTERS[kind].get(type(lud))


def emit(kind: str, src, lud, *args):
    """The ludeme's compiled form of this kind (its emitter's result); Unsupported when it has
    none, or when the description gives an argument the emitter refuses."""
    e = EMITTERS[kind].get(type(lud))
    if e is None:
        raise Unsupported(lud, KINDS[kind][1])
    refuse(lud, *e.refuses)
    spent = getattr(src, "emitted", None)
    if spent is not None:
        # Rules that nest tests of moves inside the moves they test ((can Move ...) in a
        # (do ... ifAfterwards:) of moves that hold another) are written again at each depth:
        # past MAX_EMITTED forms the game stays on the reference engine rather than keep
        # the user waiting (a count, so the same game is refused on any machine).
        src.emitted = spent + 1
        if spent >= MAX_EMITTED:
            raise Unsupported(None, f"rules whose compiled form is this large (over "
                                    f"{MAX_EMITTED:,} forms written, as tests of moves nest "
                                    "moves that test moves)")
    return e.fn(src, lud, *args)


# The most compiled forms one game's kernels may be written from (`emit`).
MAX_EMITTED = 30_000


def forms(cls: type) -> dict[str, tuple]:
    """The kinds of compiled form a class has, each with the arguments it refuses."""
    return {kind: tuple(a[0] if isinstance(a, tuple) else a for a in table[cls].refuses)
            for kind, table in EMITTERS.items() if cls in table}


def reads_params_only_from(src, lud) -> bool:
    """A `from_only` emitter for ludemes that read nothing themselves: their arguments decide."""
    return all(src.reads_only_from(getattr(lud, p.attr)) for p in type(lud).params)


def always(src, lud) -> bool:
    """A `static` or `from_only` emitter for ludemes that always are."""
    return True
