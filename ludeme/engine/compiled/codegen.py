"""Typed ludemes to Python source for numba, specialised to one game.

`generate(game)` walks the game's typed rules (`game.typed`, with the compiler's
`game.env` for board tables) and writes one module: the game's tables as array
literals, `legal` (the phase's moves into (from, to, generator) buffers in the
reference engine's order), `effects` (one branch per move generator: its
side effects and actions), `end_rules` and the turn loop of `ludeme.engine.state.State`
specialised to the game (`LOOP` below). Each supported ludeme has an emitter
here, keyed by its class; a ludeme without one, or an argument an emitter does
not implement, raises `Unsupported`, and the game falls back to the reference
engine (`ludeme.engine.compiled.load_backend`).

Names in the generated code for the evaluation context: `frm` and `to` (Ludii's
`(from)` and `(to)`), `mover`, `nxt`, `prev`, `last_from`, `last_to`; the state's
arrays `who`, `what`, `count`.
"""

from __future__ import annotations

import numpy as np

from ludeme.model.ludemes import booleans as B
from ludeme.model.ludemes import game as G
from ludeme.model.ludemes import ints as I
from ludeme.model.ludemes import moves as M
from ludeme.model.ludemes import regions as R
from ludeme.model.ludemes import literals as L
from ludeme.engine.state import A_ADD, A_MOVE, A_PASS, A_REMOVE
from ludeme.model.ludemes.base import IntFn
from ludeme.engine.compiled import Unsupported
from ludeme.engine.compiled import rt


def _given(lud, *attrs) -> None:
    """Refuse (as Unsupported) arguments that an emitter does not implement."""
    for a in attrs:
        if a in lud._given:
            raise Unsupported(lud, f"with {lud._given[a][0]}:")


class Source:
    """The generated module: tables (deduplicated) and functions."""

    def __init__(self, game):
        self.game = game
        self.env = game.env
        self.tables: dict[tuple, str] = {}
        self.table_lines: list[str] = []
        self.generators: list[tuple] = []     # gen id -> (effect lines, is_pass, consequents)
        self.any_mode = False                  # emitting "is there a move?" code
        self.helpers: list[str] = []           # extra kernels ((can Move ...) tests)
        self.helper_names: dict[str, str] = {}  # a helper's source -> its name
        self.player_bound = False              # `player` set (forEach NonMover's results)
        self.generator_kinds: list[int] = []   # gen id -> the engine's code of its action

    def table(self, values, dtype: str = "int64") -> str:
        """A module-level numpy array holding `values` (nested lists become 2-D/3-D)."""
        arr = np.asarray(values, dtype=dtype)
        key = (dtype, arr.shape, arr.tobytes())
        name = self.tables.get(key)
        if name is None:
            name = self.tables[key] = f"T{len(self.tables)}"
            self.table_lines.append(f"{name} = np.array({arr.tolist()!r}, dtype=np.{dtype})")
        return name

    # -- roles ---------------------------------------------------------------------
    def role_expr(self, role: str, lud) -> str:
        """A player id expression for a role word."""
        n = self.game.num_players
        if role == "Mover":
            return "mover"
        if role == "Next" and n == 2:
            return "nxt"
        if role == "Prev":
            return "prev"
        if role in ("Next", "Prev", "Mover") or "Team" in role:
            raise Unsupported(lud, f"with the role {role}")
        f = self.env.role_id(role, lud)
        probe = _Probe(n)
        ids = set()
        for p in range(1, n + 1):
            probe.s.mover = p
            ids.add(f(probe))
        if len(ids) != 1:
            raise Unsupported(lud, f"with the role {role}")
        return str(ids.pop())

    # -- integers -------------------------------------------------------------------
    def int_expr(self, lud) -> str:
        t = type(lud)
        if t is I.To:
            return "to"
        if t is I.From:
            return "frm"
        if t is I.Between:
            return "btw"
        if t is I.LastTo:
            _given(lud, "afterConsequence")
            return "last_to"
        if t is I.LastFrom:
            _given(lud, "afterConsequence")
            return "last_from"
        if t is I.MoverId:
            return "mover"
        if t is I.NextId:
            return "nxt"
        if t is I.PrevId:
            return "prev"
        if t in (I.Who, I.What):
            _given(lud, "level")
            at = self.int_expr(lud.at)
            arr = "who" if t is I.Who else "what"
            return f"({arr}[{at}] if {at} >= 0 else 0)"
        if t is L.IntConst:
            return str(int(lud.value))
        if t is L.RoleId:
            return self.role_expr(lud.role, lud)
        if t.__name__.startswith("Arith") and t.keyword in ("+", "-", "*"):
            a = self.int_expr(lud.a)
            if lud.b is None:
                return f"(-{a})" if t.keyword == "-" else a
            return f"({a} {t.keyword} {self.int_expr(lud.b)})"
        if t is I.CountSites:
            return self.count_in(lud, lud.in_, per_site="1", distinct=False)
        if t is I.CountPieces:
            _given(lud, "type", "who", "name")
            if lud.role != "All" and lud.in_ is None:
                return self.count_pieces_of(lud)
            if lud.role != "All" or lud.in_ is None:
                raise Unsupported(lud, f"of {lud.role} without in:" if lud.in_ is None
                                  else f"of {lud.role}")
            # All: every owner, neutral and shared pieces too (each site's count).
            return self.count_in(lud, lud.in_, per_site="count[site]", distinct=True)
        if t is I.CountGroups:
            return self.count_groups(lud)
        if t is I.Site:
            return "site"
        if t is I.CountCell:
            at = self.int_expr(lud.at)
            return f"(count[{at}] if 0 <= {at} < TOTAL else 0)"
        if t is I.HandSite:
            offsets = self.env.hand_offsets()
            tab = self.table([offsets.get(p, -1) for p in range(self.game.num_players + 2)])
            p = self.int_expr(lud.player)
            idx = self.int_expr(lud.index) if lud.index is not None else "0"
            return (f"({tab}[{p}] + {idx} if 0 <= {p} < {self.game.num_players + 2} "
                    f"and {tab}[{p}] >= 0 else -1)")
        if t is I.Ahead:
            _given(lud, "type")
            if lud.steps is not None and getattr(lud.steps, "value", None) != 1:
                raise Unsupported(lud, "with steps:")
            dirn = lud.dirn or "Adjacent"
            if not self.env.is_static_direction(dirn):
                raise Unsupported(lud, "in a direction set by the state")
            tables = self.env.step_tables(dirn, lud)
            if not tables:
                return self.int_expr(lud.site)
            tab = self.table(list(tables[0]))
            at = self.int_expr(lud.site)
            return (f"({tab}[{at}] if 0 <= {at} < {self.env.num_board_sites} and "
                    f"{tab}[{at}] >= 0 else {at})")
        raise Unsupported(lud)

    def player_expr(self, role: str, lud) -> str:
        """One player's id for a role, `(player)` of forEach Player/NonMover included."""
        if role == "Player" and not self.player_bound:
            raise Unsupported(lud, "with (player) outside forEach Player")
        return "player" if role == "Player" else self.role_expr(role, lud)

    def count_pieces_of(self, lud) -> str:
        """`(count Pieces <player>)`: the player's pieces in every container."""
        p = self.player_expr(lud.role, lud)

        def make(name):
            return "\n".join(["@njit(cache=True)", f"def {name}(who, count, p):",
                              "    total = 0", "    for site in range(TOTAL):",
                              "        if who[site] == p:", "            total += count[site]",
                              "    return total", ""])
        return f"{self.helper(make)}(who, count, {p})"

    # -- counts -----------------------------------------------------------------------
    def helper(self, make) -> str:
        """A new helper kernel's name; `make(name)` gives its source (helpers may nest)."""
        text = make("HELPER")
        name = self.helper_names.get(text)
        if name is None:
            name = self.helper_names[text] = f"helper_{len(self.helpers)}"
            self.helpers.append(text.replace("def HELPER(", f"def {name}("))
        return name

    def count_in(self, lud, region, per_site: str, distinct: bool) -> str:
        """A sum of `per_site` over a region's sites (a set, as Ludii's count Sites reads it,
        unless `distinct`: then as listed)."""
        loop, flt = self.from_region(region, dedupe=not distinct)
        body = [f"            if {flt}:" if flt else "            if True:",
                f"                total += {per_site}"]

        def make(name):
            return "\n".join(["@njit(cache=True)", f"def {name}(who, what, count, frm):",
                              "    total = 0", *loop, *body, "    return total", ""])
        return f"{self.helper(make)}(who, what, count, frm)"

    def reads_only_from(self, lud) -> bool:
        """True for a tree that reads nothing but `(from)` and the board's geometry."""
        if lud is None or isinstance(lud, (str, bool, int, float)):
            return True
        if isinstance(lud, (list, tuple)):
            return all(self.reads_only_from(x) for x in lud)
        t = type(lud)
        if t.__module__ == R.__name__ and t.__name__[5:] in R._STATIC.split():
            return True
        if t not in _FROM_ONLY:
            return False
        if t in (R.SitesDirection, M.Directions) and not self.env.is_static_direction(
                lud if t is M.Directions else lud.dirn or "Adjacent"):
            return False
        if t is R.SitesDirection and lud.stop is not None:
            return False
        return all(self.reads_only_from(getattr(lud, p.attr)) for p in t.params)

    def from_region(self, lud, dedupe: bool) -> tuple[list[str], str | None]:
        """Loop lines over a region's sites (as `site`, at indent 8) that depend on `(from)`
        only, or those less the empty sites; a filter on `site` or None."""
        flt = None
        if type(lud) is R.Difference and type(lud.b) is R.SitesEmpty and lud.b.container is None:
            flt = "what[site] != 0"      # sites off the board never: a board region here
            lud = lud.a
        if not self.reads_only_from(lud):
            raise Unsupported(lud, "as a region to count")
        n = self.env.num_board_sites
        f = self.env.compile(lud)
        probe = _Probe(self.game.num_players)
        per = []
        for frm in range(n):
            probe.from_ = frm
            sites = [x for x in f(probe)]
            if any(not 0 <= x < n for x in sites):
                raise Unsupported(lud, "off the board")
            per.append(list(dict.fromkeys(sites)) if dedupe else sites)
        t_sites, t_len = (self.table(a) for a in _padded(per))
        return [f"    if 0 <= frm < {n}:",
                f"        for j in range({t_len}[frm]):",
                f"            site = {t_sites}[frm, j]"], flt

    def count_groups(self, lud) -> str:
        """`(count Groups [dirs] [if:] [min:])`: a flood fill over the members."""
        _given(lud, "type")
        if lud.min is not None and type(lud.min) is not L.IntConst:
            raise Unsupported(lud, "with a computed min:")
        least = int(lud.min.value) if lud.min is not None else 0
        n = self.env.num_board_sites
        nb = self.env.step_targets(lud.dirn or "Adjacent", lud)
        t_nb, t_len = (self.table(a) for a in _padded([list(nb[s_]) for s_ in range(n)]))
        cond = self.bool_expr(lud.if_) if lud.if_ is not None else "what[to] != 0"

        def make(name):
            return "\n".join([
                "@njit(cache=True)", f"def {name}(who, what, count, sc, phase, frm):",
                CONTEXT.replace("    frm = -1\n", ""),
                f"    member = np.zeros({n}, np.bool_)",
                f"    for to in range({n}):",
                f"        member[to] = {cond}",
                f"    stack = np.empty({n}, np.int64)",
                "    groups = 0",
                f"    for s0 in range({n}):",
                "        if not member[s0]:",
                "            continue",
                "        member[s0] = False",
                "        stack[0] = s0",
                "        top = 1",
                "        size = 0",
                "        while top:",
                "            top -= 1",
                "            x = stack[top]",
                "            size += 1",
                f"            for j in range({t_len}[x]):",
                f"                y = {t_nb}[x, j]",
                "                if member[y]:",
                "                    member[y] = False",
                "                    stack[top] = y",
                "                    top += 1",
                f"        if size >= {least}:",
                "            groups += 1",
                "    return groups", ""])
        return f"{self.helper(make)}(who, what, count, sc, phase, frm)"

    # -- conditions ------------------------------------------------------------------
    def bool_expr(self, lud) -> str:
        t = type(lud)
        if t is B.IsEmpty:
            s = self.int_expr(lud.site)
            return f"({s} >= 0 and what[{s}] == 0)"
        if t is B.IsOccupied:
            s = self.int_expr(lud.site)
            return f"({s} >= 0 and what[{s}] != 0)"
        if t is B.IsEnemy:
            if self.env.teams:
                raise Unsupported(lud, "with teams")
            p = self.int_expr(lud.player)
            return f"({p} != 0 and {p} != mover)"
        if t is B.IsFriend:
            if self.env.teams:
                raise Unsupported(lud, "with teams")
            return f"({self.int_expr(lud.player)} == mover)"
        if t is B.IsMover:
            return f"(mover == {self.int_expr(lud.player)})"
        if t is B.IsPrev:
            return f"(prev == {self.role_expr(lud.role, lud)})"
        if t is B.IsIn:
            if len(lud.sites) != 1:
                raise Unsupported(lud, "with several sites")
            return self.region_contains(lud.region, self.int_expr(lud.sites[0]))
        if t is B.NoMoves:
            return f"no_moves(who, what, count, sc, phase, {self.role_expr(lud.role, lud)})"
        if t is B.CanMove:
            return self.can_move(lud)
        if t is L.BoolConst:
            return str(bool(lud.value))
        if t is B.IsLine:
            return self.is_line(lud)
        if t is B.AllSites:
            return self.all_sites(lud)
        if t.__name__.startswith("Compare") and t.__module__ == B.__name__:
            op = {"=": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}[t.keyword]
            return f"({self.int_expr(lud.a)} {op} {self.int_expr(lud.b)})"
        if t.keyword in ("and", "or") and issubclass(t, B._Logic):
            parts = [self.bool_expr(x) for x in list(lud.conds) + list(lud.more or [])]
            return "(" + f" {t.keyword} ".join(parts) + ")"
        if t.keyword == "not" and t.category is B.Bool:
            return f"(not {self.bool_expr(lud.cond)})"
        raise Unsupported(lud)

    def all_sites(self, lud) -> str:
        """`(all Sites <region> if:<cond>)`: a kernel that stops at the first site failing."""
        body: list[str] = []
        self.for_region(lud.region, body, "    ", [f"if not {self.bool_expr(lud.if_)}:",
                                                   "    return False"])

        def make(name):
            return "\n".join(["@njit(cache=True)",
                              f"def {name}(who, what, count, sc, phase, frm, to):",
                              CONTEXT.replace("    frm = -1\n    to = -1\n", ""),
                              *body, "    return True", ""])
        return f"{self.helper(make)}(who, what, count, sc, phase, frm, to)"

    def is_line(self, lud) -> str:
        _given(lud, "throughAny", "what", "whats", "who", "if_", "type")
        if not isinstance(lud.exact, bool) or type(lud.length) is not L.IntConst:
            raise Unsupported(lud, "with a computed length or exact:")
        length = self.int_expr(lud.length)
        radials = self.env.line_radials(lud.dirn or "Adjacent", lud)
        n = self.env.num_board_sites
        width = max((len(p) for p in radials), default=0) or 1
        depth = max((max(len(r), len(o or ())) for p in radials for r, o in p), default=0) or 1
        rays = np.full((n, width, depth), -1)
        opps = np.full((n, width, depth), -1)
        ray_len = np.zeros((n, width), dtype=np.int64)
        opp_len = np.full((n, width), -1)
        num = np.zeros(n, dtype=np.int64)
        for s, per in enumerate(radials):
            num[s] = len(per)
            for r, (ray, opp) in enumerate(per):
                ray_len[s, r] = len(ray)
                rays[s, r, :len(ray)] = ray
                if opp is not None:
                    opp_len[s, r] = len(opp)
                    opps[s, r, :len(opp)] = opp
        tabs = [self.table(x) for x in (rays, ray_len, opps, opp_len, num)]
        pivot = self.int_expr(lud.through) if lud.through is not None else "last_to"
        return (f"({pivot} >= 0 and {pivot} < {n} and is_line(what, {pivot}, "
                f"WHATS_SAME[what[{pivot}]], {length}, {lud.exact}, {lud.contiguous}, "
                f"{', '.join(tabs)}))")

    # -- regions ------------------------------------------------------------------------
    def region_contains(self, lud, site: str) -> str:
        """A membership test of `site` in a region."""
        t = type(lud)
        n = self.env.num_board_sites
        if t is R.SitesEmpty:
            _given(lud, "container")
            return f"(0 <= {site} < {n} and what[{site}] == 0)"
        mask, by_player = self.static_region(lud)
        if by_player:
            return f"(0 <= {site} < {mask.shape[1]} and {self.table(mask, 'bool_')}[mover, {site}])"
        return f"(0 <= {site} < {len(mask)} and {self.table(mask, 'bool_')}[{site}])"

    def region_sites(self, lud) -> tuple[str, str | None]:
        """(a sequence expression to iterate, a filter on `site` or None)."""
        t = type(lud)
        if t is R.SitesEmpty:
            _given(lud, "container")
            return f"range({self.env.num_board_sites})", "what[site] == 0"
        sites, by_player = self.static_sites(lud)
        if by_player:
            raise Unsupported(lud, "iterated")
        return (self.table(sites) if sites else "range(0)"), None

    def static_sites(self, lud):
        """The sites of a region that depends on nothing (or only on the mover)."""
        t = type(lud)
        probe = _Probe(self.game.num_players)
        if t.__name__.startswith("Sites") and t.__module__ == R.__name__ and \
                t.__name__[5:] in R._STATIC.split():
            return list(self.env.compile(lud)(probe)), False
        if t is R.SitesLiteralL and lud.items is None and lud.player is None \
                and lud.role in (None, "Mover") or (t is R.SitesLiteralL and lud.role
                                                   and lud.role.startswith("P")):
            f = self.env.compile(lud)
            per = []
            for p in range(self.game.num_players + 1):
                probe.s.mover = p
                per.append(list(f(probe)))
            if all(x == per[1] for x in per[1:]) and lud.role not in ("Mover",):
                return per[1], False
            return per, True
        raise Unsupported(lud)

    def static_region(self, lud):
        sites, by_player = self.static_sites(lud)
        total = self.env.total_sites
        if by_player:
            mask = np.zeros((len(sites), total), dtype=bool)
            for p, ss in enumerate(sites):
                mask[p, list(ss)] = True
            return mask, True
        mask = np.zeros(total, dtype=bool)
        mask[list(sites)] = True
        return mask, False

    # -- moves ------------------------------------------------------------------------
    def new_generator(self, effect_lines: list[str], is_pass: bool = False, lud=None,
                      kind: int = A_MOVE) -> int:
        """A move generator's id; its effects and its consequents (`then`) at apply time.
        `kind`: the engine's code of its main action (A_ADD, A_REMOVE, A_MOVE, A_PASS)."""
        then = self.then_lines(lud) if lud is not None else []
        self.generators.append((effect_lines, is_pass, then))
        self.generator_kinds.append(A_PASS if is_pass else kind)
        return len(self.generators) - 1

    def push(self, out: list[str], ind: str, frm: str, to: str, g: int, x: str = "-1") -> None:
        """Append a move to the buffers, or, in any-mode, report that there is one."""
        if self.any_mode:
            out.append(f"{ind}return True")
        else:
            out.append(f"{ind}k = push(mf, mt, mg, mx, k, {frm}, {to}, {g}, {x})")

    def then_lines(self, lud) -> list[str]:
        """A move's consequents, applied after its actions with (from)/(to) undefined."""
        then = lud.__dict__.get("_fields", {}).get("then")
        if then is None:
            return []
        _given(then, "applyAfterAllMoves")
        lines = ["frm = -1", "to = -1"]
        self.consequent(then.moves, lines, "")
        return lines

    def consequent(self, lud, lines: list[str], ind: str) -> None:
        t = type(lud)
        if t is M.MoveAgain:
            lines.append(f"{ind}sc[NEXT] = mover")
        elif t is M.MovesIf:
            lines.append(f"{ind}if {self.bool_expr(lud.cond)}:")
            self.consequent(lud.then_, lines, ind + "    ")
            if lud.else_ is not None:
                lines.append(f"{ind}else:")
                self.consequent(lud.else_, lines, ind + "    ")
        elif t is M.MovesAnd and lud.then is None:
            # Ludii evaluates them all, then applies them: the same here, as none of the
            # consequents compiled changes what their conditions read (the board, mover).
            for m in list(lud.moves) + list(lud.more or []):
                self.consequent(m, lines, ind)
        elif t is M.AddScore and lud.then is None:
            for p, v in zip(lud.players, lud.values):
                lines.append(f"{ind}sc[SCORE + {self.int_expr(p)}] += {self.int_expr(v)}")
        else:
            raise Unsupported(lud, "as a consequent")

    def can_move(self, lud) -> str:
        """`(can Move <moves>)`: a kernel that stops at the first move."""
        name = f"can_move_{len(self.helpers)}"
        self.helpers.append("")                 # reserve the name (helpers may nest)
        saved = self.any_mode
        self.any_mode = True
        body: list[str] = []
        self.moves(lud.moves, body, "    ")
        self.any_mode = saved
        self.helpers[int(name.rsplit("_", 1)[1])] = "\n".join([
            "@njit(cache=True)",
            f"def {name}(who, what, count, sc, phase, frm, to):",
            "    mover, nxt, prev = sc[MOVER], sc[NEXT], sc[PREV]",
            "    last_from, last_to = sc[LAST_FROM], sc[LAST_TO]",
            "    btw = -1", *body, "    return False", ""])
        return f"{name}(who, what, count, sc, phase, frm, to)"

    def moves(self, lud, out: list[str], ind: str) -> None:
        """Lines that append the moves of `lud` to the buffers (mf, mt, mg; k)."""
        t = type(lud)
        if t in (M.MovesOr, M.ForEachPiece) and lud.then is not None:
            raise Unsupported(lud, "with (then ...)")
        if t is M.MoveAdd:
            self.move_add(lud, out, ind)
        elif t is M.MoveStep:
            self.move_step(lud, out, ind)
        elif t is M.MovesOr:
            for m in list(lud.moves) + list(lud.more or []):
                self.moves(m, out, ind)
        elif t is M.MovesIf:
            out.append(f"{ind}if {self.bool_expr(lud.cond)}:")
            self.moves(lud.then_, out, ind + "    ")
            out.append(f"{ind}    pass")
            if lud.else_ is not None:
                out.append(f"{ind}else:")
                self.moves(lud.else_, out, ind + "    ")
                out.append(f"{ind}    pass")
        elif t is M.ForEachPiece:
            self.for_each_piece(lud, out, ind)
        elif t is M.MoveRemove:
            self.move_remove(lud, out, ind)
        elif t is M.MoveHop:
            self.move_hop(lud, out, ind)
        elif t is M.MoveFromTo:
            self.move_from_to(lud, out, ind)
        elif t is M.MovePass:
            g = self.new_generator([], is_pass=True, lud=lud)
            self.push(out, ind, "-1", "-1", g)
        else:
            raise Unsupported(lud)

    def move_add(self, lud, out, ind):
        _given(lud, "count", "stack")
        to = lud.to
        _given(to, "level", "apply", "type")
        if lud.piece is not None:
            raise Unsupported(lud, "with (piece ...)")
        first = {}
        for comp in self.game.components[1:]:
            first.setdefault(comp.owner, comp.index)
        n = self.game.num_players
        fallback = first.get(0, first.get(n + 1, 0))
        kinds = [first.get(p, fallback) for p in range(n + 1)]
        owners = [self.game.components[w].owner if w > 0 else 0 for w in kinds]
        kind_tab, owner_tab = self.table(kinds), self.table(owners)
        g = self.new_generator([f"site_add(who, what, count, HAND_FROM, to, {kind_tab}[mover], "
                                f"{owner_tab}[mover], 1)"], lud=lud, kind=A_ADD)
        seq, conds = self.to_sites(to)
        out.append(f"{ind}if {kind_tab}[mover] > 0:")
        out.append(f"{ind}    for to in {seq}:")
        out.append(f"{ind}        if to >= 0{conds}:")
        self.push(out, ind + "            ", "to", "to", g)

    def move_from_to(self, lud, out, ind):
        """`(move (from ...) (to ...))`: one piece from a site (with one) to another."""
        _given(lud, "count", "copy", "stack", "mover")
        fr, to = lud.from_, lud.to
        _given(fr, "level", "type", "if_")
        _given(to, "level", "type")
        effect = []
        if to.apply is not None:
            self.effect_lines(to.apply, effect)
        effect.append("site_move(who, what, count, HAND_FROM, frm, to)")
        g = self.new_generator(effect, lud=lud)
        f_seq, f_flt = ("(frm,)", None) if fr.site is None else self._sites_of(fr.site)
        t_seq, conds = self.to_sites(to)
        out.append(f"{ind}sf, st = frm, to")
        out.append(f"{ind}for ff in {f_seq}:")
        out.append(f"{ind}    frm = ff")
        f_ok = f" and {f_flt.replace('site', 'frm')}" if f_flt else ""
        out.append(f"{ind}    if frm >= 0 and what[frm] > 0{f_ok}:")
        out.append(f"{ind}        for to in {t_seq}:")
        out.append(f"{ind}            if to >= 0{conds}:")
        self.push(out, ind + "                ", "frm", "to", g)
        out.append(f"{ind}frm, to = sf, st")

    def to_sites(self, to) -> tuple[str, str]:
        """A `(to ...)`'s sites to iterate as `to`, and " and <its tests>" (or "")."""
        seq, flt = ("(to,)", None) if to.site is None else self._sites_of(to.site)
        cond = self.bool_expr(to.if_) if to.if_ is not None else None
        conds = " and ".join(c for c in (flt and flt.replace("site", "to"), cond) if c)
        return seq, f" and {conds}" if conds else ""

    def _sites_of(self, site_lud):
        if isinstance(site_lud, IntFn):
            return f"({self.int_expr(site_lud)},)", None
        return self.region_sites(site_lud)

    def move_step(self, lud, out, ind):
        _given(lud, "stack")
        if lud.from_ is not None:
            raise Unsupported(lud, "with (from ...)")
        to = lud.to
        _given(to, "level", "site", "type")
        dirn = lud.dirn or "Adjacent"
        env = self.env
        ncomp = len(self.game.components)
        n = env.num_board_sites
        if env.is_static_direction(dirn):
            table = env.step_targets(dirn, lud)
            per_what = [table] * ncomp
        else:
            if hasattr(dirn, "direction_keys"):
                raise Unsupported(lud, f"with ({dirn.keyword} ...) as its directions")
            words = [dirn] if isinstance(dirn, str) else list(dirn.dirs)
            if any(w in ("SameDirection", "OppositeDirection") for w in words):
                raise Unsupported(lud, "with SameDirection/OppositeDirection")
            keys = env.direction_keys(dirn, lud)
            step_to = env.board.trajectories.targets
            per_what = []
            probe = _Probe(self.game.num_players)
            for w in range(ncomp):
                probe.s.what = [w] * n
                per_what.append([tuple(dict.fromkeys(t for key in keys(probe, f)
                                                     for t in step_to(f, key)))
                                 for f in range(n)])
        targets, lens = _padded([[list(ts) for ts in tab] for tab in per_what])
        ttab, ltab = self.table(targets), self.table(lens)
        effect = []
        if to.apply is not None:
            self.effect_lines(to.apply, effect)
        effect.append("site_move(who, what, count, HAND_FROM, frm, to)")
        g = self.new_generator(effect, lud=lud)
        cond = self.bool_expr(to.if_) if to.if_ is not None else "True"
        out.append(f"{ind}if 0 <= frm < {n}:")
        out.append(f"{ind}    w = what[frm]")
        out.append(f"{ind}    for j in range({ltab}[w, frm]):")
        out.append(f"{ind}        to = {ttab}[w, frm, j]")
        out.append(f"{ind}        if {cond}:")
        self.push(out, ind + "            ", "frm", "to", g)

    def effect_lines(self, ap, lines: list[str]) -> None:
        """An `(apply [if:] <effect>)` evaluated before the move's own action."""
        if ap.effect is None:
            raise Unsupported(ap, "without an effect")
        body = []
        self.effect_body(ap.effect, body)
        if ap.if_ is not None:
            lines.append(f"if {self.bool_expr(ap.if_)}:")
            lines.extend("    " + x for x in body)
        else:
            lines.extend(body)

    def effect_body(self, eff, body: list[str]) -> None:
        """An effect's writes, made when the move is applied (the state is the one it was
        generated in, so they are those the reference engine records at generation)."""
        if type(eff) is M.MovesIf:
            body.append(f"if {self.bool_expr(eff.cond)}:")
            inner: list[str] = []
            self.effect_body(eff.then_, inner)
            body.extend("    " + x for x in inner or ["pass"])
            if eff.else_ is not None:
                body.append("else:")
                inner = []
                self.effect_body(eff.else_, inner)
                body.extend("    " + x for x in inner or ["pass"])
        elif type(eff) is M.RemoveEffect:
            _given(eff, "level", "at", "count", "type", "then")
            if not isinstance(eff.where, IntFn):
                raise Unsupported(eff, "of a region")
            s = self.int_expr(eff.where)
            body.append(f"rs = {s}")
            body.append("if rs >= 0 and what[rs] > 0:")
            body.append("    site_remove(who, what, count, HAND_FROM, rs)")
        else:
            raise Unsupported(eff)

    def for_each_piece(self, lud, out, ind):
        _given(lud, "on", "top", "role", "container")
        comps = self.game.components
        names = set(lud.names or ())
        n = self.env.num_board_sites
        out.append(f"{ind}for frm in range({n}):")
        out.append(f"{ind}    wf = what[frm]")
        out.append(f"{ind}    if wf == 0 or not (OWNER[wf] == mover or (OWNER[wf] == 0 and "
                   f"who[frm] == mover)):")
        out.append(f"{ind}        continue")
        if lud.moves is not None:
            allowed = [w for w in range(1, len(comps)) if _named(comps[w].name, names)]
            out.append(f"{ind}    if {self.table([w in allowed for w in range(len(comps))], 'bool_')}"
                       f"[wf]:")
            self.moves(lud.moves, out, ind + "        ")
            out.append(f"{ind}        pass")
            return
        by_generator: dict[int, list[int]] = {}
        for idx, piece in self.env.piece_items:
            if piece.generator is None:
                continue
            if not _named(comps[idx].name, names):
                continue
            by_generator.setdefault(id(piece.generator), [piece.generator]).append(idx)
        for gen, *whats in by_generator.values():
            test = " or ".join(f"wf == {w}" for w in whats)
            out.append(f"{ind}    if {test}:")
            self.moves(gen, out, ind + "        ")
            out.append(f"{ind}        pass")

    # -- more moves --------------------------------------------------------------------
    def move_remove(self, lud, out, ind):
        _given(lud, "level", "at", "count", "type")
        g = self.new_generator(["site_remove(who, what, count, HAND_FROM, frm)"], lud=lud,
                               kind=A_REMOVE)
        if isinstance(lud.where, IntFn):
            out.append(f"{ind}site = {self.int_expr(lud.where)}")
            out.append(f"{ind}if site >= 0 and what[site] > 0:")
            self.push(out, ind + "    ", "site", "site", g)
            return
        body = []
        self.push(body, "", "site", "site", g)
        self.for_region(lud.where, out, ind, ["if site >= 0 and what[site] > 0:"]
                        + ["    " + x for x in body])

    def is_static_region(self, lud) -> bool:
        """True for regions that read nothing of the state (their sites can be listed now)."""
        t = type(lud)
        if t in (R.SitesPhase, L.SitesLiteral) or (t.__module__ == R.__name__ and
                                                   t.__name__[5:] in R._STATIC.split()):
            return True
        if t in (R.Union, R.Intersection):
            return all(self.is_static_region(r) for r in list(lud.regions) + list(lud.more or []))
        return False

    def for_region(self, lud, out, ind, body: list[str]) -> None:
        """A loop over a region's sites (as `site`), in the reference engine's order."""
        t = type(lud)
        n = self.env.num_board_sites
        if self.is_static_region(lud):
            sites = list(self.env.compile(lud)(_Probe(self.game.num_players)))
            if not sites:
                return
            out.append(f"{ind}for site in {self.table(sites)}:")
            out.extend(f"{ind}    {x}" for x in body)
        elif t is R.SitesEmpty:
            _given(lud, "container")
            out.append(f"{ind}for site in range({n}):")
            out.append(f"{ind}    if what[site] == 0:")
            out.extend(f"{ind}        {x}" for x in body)
        elif t is R.SitesAround:
            self.sites_around(lud, out, ind, body)
        elif t is R.SitesOccupied:
            _given(lud, "type", "component", "components", "top")
            if lud.container not in (None, "Board", 0):
                raise Unsupported(lud, f"in the container {lud.container}")
            if lud.by not in ("Mover", "Next", "Prev", "Player") and \
                    not (lud.by[:1] == "P" and lud.by[1:].isdigit()):
                raise Unsupported(lud, f"by {lud.by}")
            span = n if lud.container is not None else "TOTAL"
            out.append(f"{ind}occupier = {self.player_expr(lud.by, lud)}")
            out.append(f"{ind}for site in range({span}):")
            out.append(f"{ind}    if who[site] == occupier:")
            out.extend(f"{ind}        {x}" for x in body)
        elif t is R.SitesHand:
            if lud.player is None and lud.role in (None, "Shared"):
                raise Unsupported(lud, "without a player, or for Shared")
            who = self.int_expr(lud.player) if lud.player is not None else \
                self.player_expr(lud.role, lud)
            ranges = self.env.hand_ranges()
            np_ = self.game.num_players
            first = self.table([ranges[p][0] if ranges.get(p) else 0 for p in range(np_ + 2)])
            size = self.table([len(ranges.get(p, ())) for p in range(np_ + 2)])
            out.append(f"{ind}hand_of = {who}")
            out.append(f"{ind}if 0 <= hand_of < {np_ + 2}:")
            out.append(f"{ind}    for site in range({first}[hand_of], {first}[hand_of] + "
                       f"{size}[hand_of]):")
            out.extend(f"{ind}        {x}" for x in body)
        else:
            raise Unsupported(lud, "as a region to list")

    def sites_around(self, lud, out, ind, body):
        _given(lud, "if_", "includeSelf", "type")
        if not isinstance(lud.where, IntFn):
            raise Unsupported(lud, "around a region")
        dist = 1
        if lud.distance is not None:
            if type(lud.distance) is not L.IntConst:
                raise Unsupported(lud, "with a computed distance")
            dist = int(lud.distance.value)
        key = lud.dirn or "Adjacent"
        radials = self.env.board.radials.get(key)
        if radials is None:
            raise lud.fail(f"no radials in direction {key} on this board")
        n = self.env.num_board_sites
        width = max((len(radials[s]) for s in range(n)), default=0) or 1
        around = np.full((n, width), -1)
        for s in range(n):
            for r, rad in enumerate(radials[s]):
                if dist < len(rad.sites):
                    around[s, r] = rad.sites[dist]
        kind = {None: "True", "Empty": "what[site] == 0", "NotEmpty": "what[site] != 0",
                "Own": "(what[site] != 0 and OWNER[what[site]] == mover)",
                "NotOwn": "not (what[site] != 0 and OWNER[what[site]] == mover)",
                "Enemy": "(what[site] != 0 and OWNER[what[site]] != 0 and "
                         "OWNER[what[site]] != mover)",
                "NotEnemy": "not (what[site] != 0 and OWNER[what[site]] != 0 and "
                            "OWNER[what[site]] != mover)"}[lud.kind_]
        tab = self.table(around)
        out.append(f"{ind}ctr = {self.int_expr(lud.where)}")
        out.append(f"{ind}if 0 <= ctr < {n}:")
        out.append(f"{ind}    seen = np.zeros(TOTAL, np.bool_)")
        out.append(f"{ind}    for r in range({width}):")
        out.append(f"{ind}        site = {tab}[ctr, r]")
        out.append(f"{ind}        if site >= 0 and site != ctr and not seen[site] and {kind}:")
        out.append(f"{ind}            seen[site] = True")
        out.extend(f"{ind}            {x}" for x in body)

    def move_hop(self, lud, out, ind):
        """`(move Hop ...)` over one hurdle to the site just beyond (no range, before, after)."""
        _given(lud, "stack")
        env = self.env
        n = env.num_board_sites
        frm_expr = "frm"
        if lud.from_ is not None:
            _given(lud.from_, "level", "if_", "type")
            if lud.from_.site is not None:
                if not isinstance(lud.from_.site, IntFn):
                    raise Unsupported(lud, "from a region")
                frm_expr = self.int_expr(lud.from_.site)
        b = lud.between
        if b is not None and any(x in b._given for x in ("before", "range", "after")):
            return self.move_hop_range(lud, frm_expr, out, ind)
        hurdle = "True"
        between_effect: list[str] = []
        if b is not None:
            _given(b, "before", "range", "after", "trail")
            hurdle = self.bool_expr(b.if_) if b.if_ is not None else "False"
            if b.apply is not None:
                self.effect_lines(b.apply, between_effect)
        to = lud.to
        _given(to, "level", "site", "type", "apply")
        go = self.bool_expr(to.if_) if to.if_ is not None else "True"
        dirn = lud.dirn or "Adjacent"
        dirs = env.direction_keys(dirn, lud)
        radials = env.board.radials
        probe = _Probe(self.game.num_players)

        def lines_of(keys, s):
            return [r.sites for k in keys for r in (radials[k][s] if k in radials else ())]
        effect = [x.replace("btw", "x") for x in between_effect] if between_effect else []
        effect.append("site_move(who, what, count, HAND_FROM, frm, to)")
        g = self.new_generator(effect, lud=lud)
        if env.is_static_direction(dirn):
            per = [lines_of(dirs(probe, s), s) for s in range(n)]
            width = max((len(x) for x in per), default=0) or 1
            over, land = np.full((n, width), -1), np.full((n, width), -1)
            for s, ls in enumerate(per):
                for r, steps in enumerate(ls):
                    if len(steps) >= 2:
                        over[s, r] = steps[1]
                        land[s, r] = steps[2] if len(steps) >= 3 else -1
            t_over, t_land = self.table(over), self.table(land)
            out.append(f"{ind}hf = {frm_expr}")
            out.append(f"{ind}sf, st, sb = frm, to, btw")
            out.append(f"{ind}if 0 <= hf < {n}:")
            out.append(f"{ind}    frm = hf")
            out.append(f"{ind}    for r in range({width}):")
            out.append(f"{ind}        btw = {t_over}[hf, r]")
            out.append(f"{ind}        if btw >= 0 and {hurdle}:")
            out.append(f"{ind}            to = {t_land}[hf, r]")
            out.append(f"{ind}            if to >= 0 and {go}:")
            self.push(out, ind + "                ", "hf", "to", g, "btw")
            out.append(f"{ind}frm, to, btw = sf, st, sb")
            return
        if hasattr(dirn, "direction_keys"):
            raise Unsupported(lud, f"with ({dirn.keyword} ...) as its directions")
        words = [dirn] if isinstance(dirn, str) else list(dirn.dirs)
        if words not in (["SameDirection"], ["OppositeDirection"]):
            raise Unsupported(lud, f"with the directions {' '.join(words)}")
        # The direction depends only on the last move: a table over (last from, last to).
        keys = list(env.board.directions)
        key_of = np.full((n + 1, n + 1), -1)
        probe.s.what = [1] * n      # a piece at the start (an empty one has no directions)
        for a in range(-1, n):
            for bb in range(-1, n):
                probe.s.last_from, probe.s.last_to = a, bb
                got = dirs(probe, 0)
                if got:
                    key_of[a + 1, bb + 1] = keys.index(got[0])
        width = max((len(lines_of([k], s)) for k in keys for s in range(n)), default=0) or 1
        over = np.full((len(keys), n, width), -1)
        land = np.full((len(keys), n, width), -1)
        for d, k in enumerate(keys):
            for s in range(n):
                for r, steps in enumerate(lines_of([k], s)):
                    if len(steps) >= 2:
                        over[d, s, r] = steps[1]
                        land[d, s, r] = steps[2] if len(steps) >= 3 else -1
        t_key, t_over, t_land = self.table(key_of), self.table(over), self.table(land)
        out.append(f"{ind}hf = {frm_expr}")
        out.append(f"{ind}sf, st, sb = frm, to, btw")
        out.append(f"{ind}hd = {t_key}[last_from + 1, last_to + 1] if 0 <= hf < {n} "
                   f"and what[hf] != 0 else -1")
        out.append(f"{ind}if hd >= 0:")
        out.append(f"{ind}    frm = hf")
        out.append(f"{ind}    for r in range({width}):")
        out.append(f"{ind}        btw = {t_over}[hd, hf, r]")
        out.append(f"{ind}        if btw >= 0 and {hurdle}:")
        out.append(f"{ind}            to = {t_land}[hd, hf, r]")
        out.append(f"{ind}            if to >= 0 and {go}:")
        self.push(out, ind + "                ", "hf", "to", g, "btw")
        out.append(f"{ind}frm, to, btw = sf, st, sb")

    def move_hop_range(self, lud, frm_expr, out, ind):
        """`(move Hop ...)` with a range of hurdles, before: or after: (MoveHop.compile's walk)."""
        env = self.env
        n = env.num_board_sites
        b = lud.between
        _given(b, "trail", "apply")
        dirn = lud.dirn or "Adjacent"
        if not env.is_static_direction(dirn):
            raise Unsupported(lud, "with a range of hurdles in a direction set by the state")
        to = lud.to
        _given(to, "level", "site", "type")
        if to.apply is not None and to.apply.if_ is not None:
            raise Unsupported(to.apply, "with if:")
        rng_ = b.range
        if rng_ is None:
            lo = hi = "1"
        elif type(rng_) is M.Exact:
            lo = hi = self.int_expr(rng_.n)
        elif type(rng_) is M.RangeL:
            lo = self.int_expr(rng_.lo)
            hi = self.int_expr(rng_.hi) if rng_.hi is not None else lo
        elif type(rng_) is M.MaxL:
            lo, hi = "1", self.int_expr(rng_.n)
        else:
            raise Unsupported(rng_)
        before = self.int_expr(b.before) if b.before is not None else "0"
        after = self.int_expr(b.after) if b.after is not None else "0"
        hurdle = self.bool_expr(b.if_) if b.if_ is not None else "False"
        go = self.bool_expr(to.if_) if to.if_ is not None else "True"
        keys = env.direction_keys(dirn, lud)
        radials = env.board.radials
        step_to = env.board.trajectories.targets
        lines = [[r.sites for k in keys(None, s_) for r in (radials[k][s_] if k in radials else ())]
                 for s_ in range(n)]
        steps = [list(dict.fromkeys(t for k in keys(None, s_) for t in step_to(s_, k)))
                 for s_ in range(n)]
        t_lines, t_llen = _padded([[list(r) for r in x] for x in lines])
        L3, LL, NL = self.table(t_lines), self.table(t_llen), self.table([len(x) for x in lines])
        ST, NS = (self.table(a) for a in _padded(steps))
        effect = []
        if to.apply is not None:
            self.effect_lines(to.apply, effect)
        effect.append("site_move(who, what, count, HAND_FROM, frm, to)")
        g = self.new_generator(effect, lud=lud)
        i2, i3, i4 = ind + "    ", ind + "        ", ind + "            "
        out += [f"{ind}hf = {frm_expr}", f"{ind}sf, st, sb = frm, to, btw",
                f"{ind}if 0 <= hf < {n}:",
                f"{i2}frm = hf",
                f"{i2}min_len = {lo}", f"{i2}max_len = {hi}",
                f"{i2}before = {before}", f"{i2}after = {after}",
                f"{i2}if min_len == 0:",
                f"{i3}for j in range({NS}[hf]):",
                f"{i4}to = {ST}[hf, j]",
                f"{i4}if {go}:"]
        self.push(out, i4 + "    ", "hf", "to", g)
        out += [f"{i2}if max_len > 0:",
                f"{i3}for r in range({NL}[hf]):",
                f"{i4}ln = {LL}[hf, r]",
                f"{i4}for to_idx in range(1, ln):"]
        i5 = i4 + "    "
        i6, i7, i8, i9 = i5 + "    ", i5 + "        ", i5 + "            ", i5 + "                "
        out += [f"{i5}btw = {L3}[hf, r, to_idx]",
                f"{i5}if {hurdle}:",
                f"{i6}length = 1", f"{i6}h = to_idx + 1", f"{i6}wrong = False",
                f"{i6}while h < ln and length < max_len:",
                f"{i7}btw = {L3}[hf, r, h]",
                f"{i7}if not {hurdle}:",
                f"{i8}wrong = True", f"{i8}break",
                f"{i7}length += 1", f"{i7}h += 1",
                f"{i6}if length < min_len or (wrong and length == max_len):",
                f"{i7}break",
                f"{i6}for from_min in range(length - min_len, -1, -1):",
                f"{i7}a = h - from_min",
                f"{i7}while a < ln:",
                f"{i8}to = {L3}[hf, r, a]",
                f"{i8}if not {go}:",
                f"{i9}break"]
        self.push(out, i8, "hf", "to", g)
        out += [f"{i8}if (a - h + 1) > (after - from_min):",
                f"{i9}break",
                f"{i8}a += 1",
                f"{i6}break",
                f"{i5}to = {L3}[hf, r, to_idx]",
                f"{i5}if to_idx > before or not {go}:",
                f"{i6}break",
                f"{ind}frm, to, btw = sf, st, sb"]

    # -- end rules -----------------------------------------------------------------
    def end_rule(self, lud, out: list[str], ind: str = "    ") -> None:
        if type(lud) is G.EndForEachNonMover:
            # Ludii collects the results of every other player, then applies them; the
            # conditions compiled read nothing that a result changes.
            out.append(f"{ind}mover0 = mover")
            out.append(f"{ind}for player in range(1, NP + 1):")
            out.append(f"{ind}    if player != mover0:")
            self.player_bound = True
            self.end_result(lud.if_, lud.result, out, ind + "        ")
            self.player_bound = False
            return
        if type(lud) is not G.EndIf or lud.result is None or lud.rules:
            raise Unsupported(lud)
        self.end_result(lud.cond, lud.result, out, ind)

    def end_result(self, cond, res, out: list[str], ind: str) -> None:
        """`(result ...)` when `cond` (None: always) holds."""
        if res.role == "All":
            who = "0"
        elif "Team" in res.role:
            raise Unsupported(res, "for a team")
        else:
            who = self.player_expr(res.role, res)
        kind = {"Win": rt.WIN, "Loss": rt.LOSS}.get(res.kind_, rt.DRAW)
        n = self.game.num_players
        out.append(f"{ind}if {self.bool_expr(cond) if cond is not None else 'True'}:")
        out.append(f"{ind}    rw = {who}")
        out.append(f"{ind}    if rw == 0 or rw == {n + 1} or active[rw]:")
        out.append(f"{ind}        apply_result(sc, rk, active, {n}, rw, {kind})")
        out.append(f"{ind}        mover, nxt, prev = sc[MOVER], sc[NEXT], sc[PREV]")


# Ludemes that read nothing but (from) and the board (see Source.reads_only_from).
_FROM_ONLY = (I.From, L.IntConst, I.ColumnOf, I.RowOf, R.SitesRow, R.SitesColumn,
              R.SitesDirection, R.Union, R.Intersection, R.Difference, M.Directions)


def _padded(rows) -> tuple[np.ndarray, np.ndarray]:
    """Ragged rows of sites (a list of lists, or of lists of lists) as one array padded with
    -1, and the array of the innermost lengths."""
    if any(row and isinstance(row[0], (list, tuple)) for row in rows):
        inner = [_padded([list(r) for r in row]) for row in rows]
        width = max((len(row) for row in rows), default=0) or 1
        depth = max((a.shape[1] for a, _ in inner), default=0) or 1
        out = np.full((len(rows), width, depth), -1)
        lens = np.zeros((len(rows), width), dtype=np.int64)
        for i, (a, ln) in enumerate(inner):
            out[i, :a.shape[0], :a.shape[1]] = a
            lens[i, :len(ln)] = ln
        return out, lens
    width = max((len(r) for r in rows), default=0) or 1
    out = np.full((len(rows), width), -1)
    for i, r in enumerate(rows):
        out[i, :len(r)] = list(r)
    return out, np.array([len(r) for r in rows], dtype=np.int64)


def _named(name: str, names: set) -> bool:
    """forEach Piece's name filter, as the reference: the name without its trailing number."""
    return not names or name.rstrip("0123456789") in names


class _Probe:
    """A context for rules that read only the mover (static regions, step tables)."""

    def __init__(self, num_players: int):
        from ludeme.engine.state import UNDEFINED
        self.s = type("S", (), {})()
        self.s.mover = 1
        self.s.what = []
        self.s.last_from = self.s.last_to = UNDEFINED
        self.from_ = self.to = self.site = self.player = UNDEFINED


# The evaluation context every generated kernel starts from (see the module docstring).
CONTEXT = """    mover, nxt, prev = sc[MOVER], sc[NEXT], sc[PREV]
    last_from, last_to = sc[LAST_FROM], sc[LAST_TO]
    frm = -1
    to = -1
    btw = -1"""


def check_game(game) -> None:
    """Refuse (Unsupported) what the compiled turn loop does not model."""
    if getattr(game, "typed", None) is None:
        raise Unsupported(None, "a game built without typed rules")
    if game.stacking:
        raise Unsupported(None, "stacking games")
    if game.uses_chance:
        raise Unsupported(None, "games with chance")
    if game.teams:
        raise Unsupported(None, "games with teams")
    if game.requires_visited:
        raise Unsupported(None, "visited sites")
    if getattr(game, "swap_rule", False):
        raise Unsupported(None, "the swap rule")
    if getattr(game, "repetition", None):
        raise Unsupported(None, "(no Repeat ...)")
    if getattr(game, "sequence_capture", False):
        raise Unsupported(None, "removals at the end of the turn")
    if getattr(game, "counting", False) and not getattr(game, "ludii_owners", None):
        raise Unsupported(None, "counted pieces on the board")
    if getattr(game, "records_start", False):
        raise Unsupported(None, "the start position read by (sites Start ...)")
    start = game.new_initial_state(0)
    if any(start.scores) or any(start.sites.state):
        raise Unsupported(None, "start rules setting scores or piece states")


def _phases(rules) -> list[tuple]:
    """(play moves, end rules, [(role, cond, target)]) per phase, as the compiler orders them."""
    if not rules.phases:
        return [(rules.play.moves, [], [])]
    names = [ph.name for ph in rules.phases]
    out = []
    for i, ph in enumerate(rules.phases):
        nexts = []
        for nx in ph.next or []:
            if nx.phase is None:
                target = i + 1 if i + 1 < len(names) else -1
            else:
                target = names.index(nx.phase)
            if target >= 0:
                nexts.append((nx, target))
        out.append((ph.play.moves, list(ph.end.rules) if ph.end is not None else [], nexts))
    return out


def _by_phase(blocks: list[list[str]], ind: str = "    ") -> list[str]:
    """`if ph == i:` branches (blocks that are empty are left out)."""
    out = []
    for i, lines in enumerate(blocks):
        if lines:
            out.append(f"{ind}if ph == {i}:")
            out.extend(lines)
    return out


def generate(game) -> str:
    """The numba module of one game (raises Unsupported)."""
    check_game(game)
    src = Source(game)
    rules = game.typed.rules
    n = game.num_players
    phases = _phases(rules)
    play, play_any, phase_end, nexts = [], [], [], []
    for moves, ends, nxs in phases:
        lines: list[str] = []
        src.moves(moves, lines, "        ")
        play.append(lines + ["        pass"])
        src.any_mode = True
        lines = []
        src.moves(moves, lines, "        ")
        play_any.append(lines + ["        pass"])
        src.any_mode = False
        lines = ["        sc[LOSSES_DECIDED] = 0"] if ends else []
        for r in ends:
            src.end_rule(r, lines, "        ")
        phase_end.append(lines)
        lines = []
        for nx, target in nxs:
            cond = src.bool_expr(nx.cond) if nx.cond is not None else "True"
            lines += [f"            if not done:",
                      f"                nw = {src.role_expr(nx.role, nx)}",
                      f"                if (nw == {n + 1} or nw == pid) and {cond}:",
                      f"                    phase[pid] = {target}",
                      f"                    done = True"]
        nexts.append(["    " + x for x in lines])
    end = []
    for r in (rules.end.rules if rules.end is not None else []):
        src.end_rule(r, end, "        ")
    effects, consequents = [], []
    for g, (lines, _, then) in enumerate(src.generators):
        effects.append(f"    {'if' if g == 0 else 'elif'} g == {g}:")
        effects.extend("        " + x for x in lines or ["pass"])
        if then:
            consequents.append(f"    if g == {g}:")
            consequents.extend("        " + x for x in then)
    pass_gens = [g for g, (_, p, _) in enumerate(src.generators) if p]
    s0 = game.new_initial_state(0)
    comps = game.components
    same = np.zeros((len(comps), len(comps)), dtype=bool)
    for w in range(len(comps)):      # as the reference: an empty pivot counts empty sites
        same[w, w] = True
    n_sites = game.containers[0].num_sites
    # Ludii checks the all-pass draw wherever end rules are evaluated: the game's, or the
    # mover's phase's; the kernel checks it always or never.
    phase_ends = [bool(p.end) for p in game.phases]
    if game.requires_all_pass and not game.end and any(phase_ends) and not all(phase_ends):
        raise Unsupported(None, "the all-pass draw after only some phases' end rules")
    all_pass = bool(game.requires_all_pass and (game.end or all(phase_ends)))
    text = LOOP.format(
        tables="\n".join(src.table_lines),
        helpers="\n\n".join(src.helpers),
        n_players=n,
        n_sites=n_sites,
        total=game.total_sites,
        hand_from=n_sites,
        max_turns=game.max_turns,
        max_moves=game.max_moves,
        requires_all_pass=all_pass,
        owner=[c.owner for c in comps],
        whats_same=same.astype(int).tolist(),
        init_who=list(s0.who), init_what=list(s0.what), init_count=list(s0.count),
        init_phase=list(game.initial_phase),
        num_start_moves=s0.num_start_moves,
        init_mover=s0.mover, init_next=s0.next,
        max_buffer=max(64, 8 * game.total_sites * 8),
        play="\n".join(_by_phase(play)),
        play_any="\n".join(_by_phase(play_any)),
        phase_end="\n".join(_by_phase(phase_end)) or "    pass",
        game_end="\n".join(["    if not sc[OVER]:", "        sc[LOSSES_DECIDED] = 0", *end])
        if end else "    pass",
        next_phases="\n".join(_by_phase(nexts, "        ")) or "        pass",
        effects="\n".join(effects) or "    pass",
        consequents="\n".join(consequents) or "    pass",
        pass_gens=tuple(pass_gens) + (-1,),
        gen_kinds=[(k,) for k in src.generator_kinds],
        context=CONTEXT,
        # The decisions' history is read only by the all-pass draw.
        history=game.max_moves + game.max_turns * game.num_players + 2 if all_pass else 1,
    )
    if getattr(game, "counting", False):    # every site counts (FlatSites.count_from = 0)
        text = text.replace("site_move(who, what, count, HAND_FROM,",
                            f"site_move_counted(who, what, count, 0, "
                            f"np.array({list(game.ludii_owners)!r}, dtype=np.int64),")
        text = text.replace("site_add(who, what, count, HAND_FROM,", "site_add(who, what, count, 0,")
    return text


LOOP = '''\
"""Generated by ludeme.engine.compiled.codegen: do not edit."""
import numpy as np
from numba import njit
from ludeme.engine.compiled.rt import (apply_result, timeout, all_passed, is_line, site_add,
                                site_remove, site_move, site_move_counted, mt_seed_block,
                                rand_below,
                                playout_seed_of, MT_STATE_SIZE, SEED_BLOCK,
                                MOVER, NEXT, PREV, NUM_TURN, NUM_MOVES, NUM_DECISIONS, OVER,
                                WINNER, LAST_FROM, LAST_TO, END_TYPE, NWINNERS, NLOSERS,
                                LOSSES_DECIDED, NUM_START_MOVES, NUM_TURN_SAME, LAST_MOVER,
                                COUNTER, NUM_SCALARS)

NP = {n_players}
SCORE = NUM_SCALARS           # sc[SCORE + p]: player p's score
SC_SIZE = NUM_SCALARS + NP + 1
N_SITES = {n_sites}
TOTAL = {total}
HAND_FROM = {hand_from}
MAX_TURNS = {max_turns}
MAX_MOVES = {max_moves}
OWNER = np.array({owner!r}, dtype=np.int64)
WHATS_SAME = np.array({whats_same!r}, dtype=np.bool_)
INIT_WHO = np.array({init_who!r}, dtype=np.int64)
INIT_WHAT = np.array({init_what!r}, dtype=np.int64)
INIT_COUNT = np.array({init_count!r}, dtype=np.int64)
INIT_PHASE = np.array({init_phase!r}, dtype=np.int64)
PASS_GENS = {pass_gens!r}
GEN_KINDS = {gen_kinds!r}
HISTORY = {history}
MAX_BUFFER = {max_buffer}
{tables}


@njit(cache=True, inline="always")
def push(mf, mt, mg, mx, k, f, t, g, x):
    if k >= mf.shape[0]:
        raise IndexError("more legal moves than the move buffer holds")
    mf[k] = f
    mt[k] = t
    mg[k] = g
    mx[k] = x
    return k + 1


@njit(cache=True)
def legal_any(who, what, count, sc, phase):
    """True when the mover has a legal move (stops at the first)."""
{context}
    ph = phase[mover]
{play_any}
    return False


@njit(cache=True)
def no_moves(who, what, count, sc, phase, p):
    """`(no Moves p)`: p, moving now, would have no legal move."""
    pv, mv, nx = sc[PREV], sc[MOVER], sc[NEXT]
    sc[PREV] = mv
    sc[MOVER] = p
    sc[NEXT] = mv
    found = legal_any(who, what, count, sc, phase)
    sc[PREV] = pv
    sc[MOVER] = mv
    sc[NEXT] = nx
    return not found


{helpers}


@njit(cache=True, inline="always")
def legal(who, what, count, sc, phase, mf, mt, mg, mx):
{context}
    k = 0
    ph = phase[mover]
{play}
    return k


@njit(cache=True, inline="always")
def effects(who, what, count, sc, phase, frm, to, g, x):
    mover, nxt, prev = sc[MOVER], sc[NEXT], sc[PREV]
{effects}


@njit(cache=True, inline="always")
def consequents(who, what, count, sc, phase, g):
    mover, nxt, prev = sc[MOVER], sc[NEXT], sc[PREV]
    last_from, last_to = sc[LAST_FROM], sc[LAST_TO]
    btw = -1
{consequents}


@njit(cache=True, inline="always")
def end_rules(who, what, count, sc, rk, active, phase):
{context}
    ph = phase[mover]
{phase_end}
{game_end}


@njit(cache=True, inline="always")
def next_phases(who, what, count, sc, phase):
{context}
    for pid in range(1, NP + 1):
        ph = phase[pid]
        done = False
{next_phases}


@njit(cache=True, inline="always")
def step(who, what, count, sc, rk, active, phase, hist_mover, hist_pass, frm, to, g, x):
    """Apply the decision (frm, to) of generator g (-1: a forced pass): State.apply."""
    mover = sc[MOVER]
    is_pass = g in PASS_GENS
    if g >= 0:
        effects(who, what, count, sc, phase, frm, to, g, x)
    sc[LAST_FROM] = frm
    sc[LAST_TO] = to
    sc[LAST_MOVER] = mover
    if g >= 0:
        consequents(who, what, count, sc, phase, g)
    if {requires_all_pass}:
        hist_mover[sc[NUM_DECISIONS]] = mover
        hist_pass[sc[NUM_DECISIONS]] = is_pass
    sc[NUM_MOVES] += 1
    sc[NUM_DECISIONS] += 1
    end_rules(who, what, count, sc, rk, active, phase)
    if {requires_all_pass} and not sc[OVER] and all_passed(hist_mover, hist_pass,
                                                             sc[NUM_DECISIONS], NP,
                                                             sc[NUM_START_MOVES]):
        apply_result(sc, rk, active, NP, 0, 3)
    if not sc[OVER] and (sc[NUM_TURN] >= MAX_TURNS * NP
                         or sc[NUM_MOVES] - sc[NUM_START_MOVES] >= MAX_MOVES):
        timeout(sc, rk, active, NP, MAX_TURNS)
    sc[COUNTER] += 1
    if sc[OVER]:
        sc[PREV] = mover
    else:
        next_phases(who, what, count, sc, phase)
        sc[PREV] = mover
        sc[MOVER] = sc[NEXT]
        if sc[PREV] == sc[MOVER]:
            sc[NUM_TURN_SAME] += 1
        else:
            sc[NUM_TURN_SAME] = 0
            sc[NUM_TURN] += 1
        nx = sc[MOVER] % NP + 1
        while not active[nx]:
            nx = nx % NP + 1
        sc[NEXT] = nx


@njit(cache=True, inline="always")
def reset(who, what, count, sc, rk, active, phase):
    """The position after the start rules (State after Game.new_initial_state)."""
    who[:] = INIT_WHO
    what[:] = INIT_WHAT
    count[:] = INIT_COUNT
    sc[:] = 0
    sc[MOVER] = {init_mover}
    sc[NEXT] = {init_next}
    sc[NUM_TURN] = 1
    sc[NUM_MOVES] = {num_start_moves}
    sc[NUM_START_MOVES] = {num_start_moves}
    sc[LAST_FROM] = -1
    sc[LAST_TO] = -1
    sc[COUNTER] = -1
    rk[:] = 0.0
    active[:] = 1
    active[0] = 0
    phase[:] = INIT_PHASE


@njit(cache=True, inline="always")
def legal_or_pass(who, what, count, sc, phase, mf, mt, mg, mx):
    """The legal moves into the buffers, or a forced pass (-1, -1) when there are none."""
    k = legal(who, what, count, sc, phase, mf, mt, mg, mx)
    if k == 0:
        mf[0] = -1
        mt[0] = -1
        mg[0] = -1
        mx[0] = -1
        k = 1
    return k


@njit(cache=True)
def rollout(who, what, count, sc, rk, active, phase, hist_mover, hist_pass, rng, limit,
            mf, mt, mg, mx):
    """Uniformly random moves (drawn as `random.Random.randrange` from the generator `rng`)
    until the end or `limit` moves: a search agent's rollout. The moves played."""
    played = 0
    while played < limit and not sc[OVER]:
        k = legal_or_pass(who, what, count, sc, phase, mf, mt, mg, mx)
        c = rand_below(rng, k)
        step(who, what, count, sc, rk, active, phase, hist_mover, hist_pass, mf[c], mt[c],
             mg[c], mx[c])
        played += 1
    return played


# The turn's kernels are inlined (numba IR) into the playout loop: a call passes every
# array and counts its references, which cost Tic-Tac-Toe 15% of its playout.
@njit(cache=True)
def playouts(seed_words, first, n, out_i, out_f, rk_out):
    """Playouts first..first+n-1 of a run: integer and float columns of their rows."""
    who = np.empty(TOTAL, np.int64)
    what = np.empty(TOTAL, np.int64)
    count = np.empty(TOTAL, np.int64)
    sc = np.zeros(SC_SIZE, np.int64)
    rk = np.zeros(NP + 1, np.float64)
    active = np.zeros(NP + 1, np.int8)
    phase = np.zeros(NP + 1, np.int64)
    covered = np.zeros(N_SITES, np.bool_)
    mf = np.empty(MAX_BUFFER, np.int64)
    mt = np.empty(MAX_BUFFER, np.int64)
    mg = np.empty(MAX_BUFFER, np.int64)
    mx = np.empty(MAX_BUFFER, np.int64)
    hist_mover = np.empty(HISTORY, np.int64)
    hist_pass = np.empty(HISTORY, np.bool_)
    rngs = np.zeros((MT_STATE_SIZE, SEED_BLOCK), np.int64)
    seeds = np.zeros(SEED_BLOCK, np.int64)
    for r in range(n):
        index = first + r
        b = r % SEED_BLOCK
        if b == 0:
            block = min(SEED_BLOCK, n - r)
            for j in range(block):
                seeds[j] = playout_seed_of(seed_words, index + j)
            mt_seed_block(rngs, seeds, block)
        seed = seeds[b]
        rng = rngs[:, b]
        reset(who, what, count, sc, rk, active, phase)
        empty_sum = 0
        pieces_sum = 0
        uncovered = 0
        for s in range(N_SITES):
            covered[s] = what[s] != 0
            if what[s] == 0:
                empty_sum += 1
                uncovered += 1
            pieces_sum += count[s]
        decisions = 0
        legal_sum = 0
        multi_sum = 0
        multi_count = 0
        while not sc[OVER]:
            k = legal_or_pass(who, what, count, sc, phase, mf, mt, mg, mx)
            decisions += 1
            legal_sum += k
            if k > 1:
                multi_sum += k
                multi_count += 1
            c = rand_below(rng, k)
            step(who, what, count, sc, rk, active, phase, hist_mover, hist_pass, mf[c], mt[c],
                 mg[c], mx[c])
            for s in range(N_SITES):
                if what[s] == 0:
                    empty_sum += 1
                elif not covered[s]:
                    covered[s] = True
                    uncovered -= 1
                pieces_sum += count[s]
        states = decisions + 1
        out_i[r, 0] = index
        out_i[r, 1] = seed
        out_i[r, 2] = sc[WINNER]
        out_i[r, 3] = sc[END_TYPE]
        out_i[r, 4] = sc[NUM_TURN]
        out_i[r, 5] = sc[NUM_DECISIONS]
        out_i[r, 6] = multi_count
        out_f[r, 0] = legal_sum / decisions if decisions else 0.0
        out_f[r, 1] = multi_count / decisions if decisions else 0.0
        out_f[r, 2] = multi_sum / multi_count if multi_count else 0.0
        out_f[r, 3] = (N_SITES - uncovered) / N_SITES
        out_f[r, 4] = pieces_sum / states
        out_f[r, 5] = 1.0 - empty_sum / states / N_SITES
        for p in range(NP + 1):
            rk_out[r, p] = rk[p]
'''
