"""Capture effects along lines (Ludii's Custodial, Intervene) and piece flips (Flip).

Each effect is evaluated when its move is generated or when a consequent runs,
as in Ludii: it returns the moves of its inner effect (by default a removal),
one per captured site, so a consequent applies all of them.
"""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from ludeme.engine.state import A_FLIP, A_REMOVE, A_REMOVE_LATER, A_REMOVE_LEVEL, A_SET_FIELD, Move
from ludeme.engine.stores import TOP
from .base import Bool, DirWord, IntFn, LitBool, LitInt, Moves, Other, P, Region, SiteType, lazy_moves, ludeme
from ludeme.engine.compiled.emit import effect_as_consequent, emit, emits, refuse
from ludeme.engine.compiled.unsupported import Unsupported
from .effects import applied_actions
from .moves import Directions, _then, moves_as_actions

_LONG = 1000        # Ludii's default limit of a sandwich (IntConstant(1000))


def _check_board_type(lud, env, spec=None):
    """Refuse a site type other than the board's (graph elements of another type)."""
    where = spec if spec is not None else lud
    t = getattr(where, "type", None)
    if t is not None and t != env.board.site_type:
        raise where.fail(f"({lud.keyword} ...) on {t} sites of a board of "
                         f"{env.board.site_type} sites is not supported yet")


def _radials_fn(env, lud, dirn):
    """c, site -> the radials (tuples of sites, the start first) in directions `dirn`
    (a table per site when the directions do not depend on the position)."""
    dirn = dirn or "Adjacent"
    dirs = env.direction_keys(dirn, lud)
    radials = env.board.radials

    def lines(c, frm):
        return [r.sites for k in dirs(c, frm) for r in (radials[k][frm] if k in radials else ())]
    if env.is_static_direction(dirn):
        table = tuple(tuple(lines(None, s)) for s in range(env.num_board_sites))
        return lambda c, frm: table[frm]
    return lines


def start_site(env, lud):
    """c -> the site an effect starts from: its `(from <site>)` (of the board's site type,
    no level or condition: Ludii's capture effects read only the site), else (from)."""
    if lud.from_ is not None:
        _check_board_type(lud, env, lud.from_)
        lud.from_.refuse("level", "if_", why=f"Ludii's {type(lud).__name__} reads only the site")
    return env.site_fn(lud.from_)


def add_then(moves, then) -> list:
    """The moves, each given the effect's consequents after its own (Ludii adds the
    effect's then to every move it returns)."""
    if then:
        for m in moves:
            m.then = tuple(m.then) + then
    return moves


def _is_player_fn(c, who: int, friend: bool) -> bool:
    """Ludii's IsFriend / IsEnemy on a player id (used where a default reads a site id)."""
    s = c.s
    if friend:
        return who == s.mover or s.mover == c.g.num_players + 1
    return who != 0 and who != s.mover


def _remove_at(field):
    """The default effect of a capture: remove the piece at `c.<field>` (Ludii's Remove)."""
    def remove(c):
        site = getattr(c, field)
        if site < 0 or c.s.what[site] <= 0:
            return []
        return [Move(site, site, 0, [(A_REMOVE, site)])]
    return remove


@ludeme("custodial")
class Custodial(Moves):
    """`(custodial [(from <site>)] [<directions>] [(between [(max N)] [if:] [(apply ...)])]
    [(to if:<cond>)] [(then ...)])`: as Ludii's Custodial, along each radial from the
    site, a run of targets (between if:, at most N of them, default 1000) closed by a
    site where the to condition holds: the between effect (by default a removal) applies
    to every target of the run. Example (a Seega capture):

        (custodial (from (last To)) Orthogonal
            (between (max 1) if:(is Enemy (who at:(between))) (apply (remove (between))))
            (to if:(is Friend (who at:(to)))))
    """
    concepts = ("CustodialCapture if between.apply has RemoveEffect",
                "CustodialCapture if between.apply has FromToEffect",
                "CustodialCapture if not between.apply", "-dirn")   # Ludii: no direction concept


    params = (P("from_", "FromSpec", opt=True), P("dirn", (DirWord, "Directions"), opt=True),
              P("between", "BetweenSpec", opt=True), P("to", "ToSpec", opt=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        start = start_site(env, self)
        lines = _radials_fn(env, self, self.dirn)
        b = self.between
        if b is not None:
            b.refuse("before", "after", "trail", why="Ludii's Custodial reads only a range, "
                     "a condition and an effect")
            if b.apply is not None and b.apply.if_ is not None:
                raise b.apply.fail("(apply if:...) in (custodial ...) is not supported yet")
        limit = b.range.bounds(env)[1] if b is not None and b.range is not None \
            else (lambda c: _LONG)
        # Ludii's defaults read the site ids themselves as players (IsEnemy(Between),
        # IsFriend(To)), kept as they are.
        target = env.compile(b.if_) if b is not None and b.if_ is not None else \
            (lambda c: _is_player_fn(c, c.between, False))
        if self.to is not None:
            self.to.refuse("site", "level", "apply", why="Ludii's Custodial reads only "
                           "the to condition")
        friend = env.compile(self.to.if_) if self.to is not None and self.to.if_ is not None \
            else (lambda c: _is_player_fn(c, c.to, True))
        effect = env.compile(b.apply.effect) if b is not None and b.apply is not None \
            and b.apply.effect is not None else _remove_at("between")
        then = _then(env, self)

        def custodial(c):
            frm = start(c)
            if frm < 0:
                return []
            saved = (c.to, c.between)
            out = []
            n_max = limit(c)
            for steps in lines(c, frm):
                n = len(steps)
                if n_max == 1:          # Ludii's shortSandwich
                    if n < 3:
                        continue
                    c.between = steps[1]
                    if not target(c):
                        continue
                    c.to = steps[2]
                    if not friend(c):
                        continue
                    c.between = steps[1]
                    out.extend(effect(c))
                    continue
                pos = 1                 # Ludii's longSandwich
                while pos < n and pos <= n_max:
                    c.between = steps[pos]
                    if not target(c):
                        break
                    pos += 1
                if pos == 1:
                    continue
                c.to = steps[pos] if pos < n else -1
                if not friend(c):
                    continue
                for i in range(1, pos):
                    c.between = steps[i]
                    out.extend(effect(c))
            c.to, c.between = saved
            return add_then(out, then)
        return custodial


@ludeme("flips")
class Flips(Other):
    """`(flips <a> <b>)` on a piece: flipping it turns state a into b and b into a, as
    Ludii's Flips. Example: `(piece "Disc" Neutral (flips 1 2))`."""
    concepts = ()

    params = (P("a", LitInt), P("b", LitInt))

    def compile(self, env):
        return self.a, self.b


def flip_value(pair, state: int) -> int:
    """Ludii's Flips.flipValue: a <-> b, any other state unchanged."""
    a, b = pair
    return b if state == a else a if state == b else state


@ludeme("flip")
class Flip(Moves):
    """`(flip [<site>] [(then ...)])`: turn the piece at the site (the destination by
    default) to its other side, as declared by its piece's `(flips a b)`; nothing for a
    piece without flips. Example: `(flip (between))`."""
    concepts = ("Flip",)

    params = (P("type", SiteType, opt=True), P("loc", IntFn, opt=True),
              P("then", "Then", opt=True))

    def compile(self, env):
        _check_board_type(self, env)
        loc = env.compile(self.loc) if self.loc is not None else (lambda c: c.to)
        table = env.flips_table()
        then = _then(env, self)
        n = env.total_sites

        def flip(c):
            site = loc(c)
            if not 0 <= site < n:
                return []
            s = c.s
            pair = table[s.what[site]]
            if pair is None:
                return []
            new = flip_value(pair, s.piece_state(site))
            return [Move(site, site, 0, [(A_SET_FIELD, "state", site, TOP, new)], then)]
        return flip


@ludeme("sites", "State")
class SitesState(Region):
    """`(sites State <int>)`: the board sites whose piece (or empty site) has that state,
    in increasing order, as Ludii's SitesState. Example: `(count Sites in:(sites State 1))`."""
    concepts = ()

    params = (P("type", SiteType, opt=True), P("value", IntFn))

    def compile(self, env):
        _check_board_type(self, env)
        value = env.compile(self.value)
        n = env.num_board_sites

        def sites(c):
            v = value(c)
            state = c.s.piece_state
            return [site for site in range(n) if state(site) == v]
        return sites


# Logical operators on moves (Ludii's operators/logical) -------------------------

@ludeme("allCombinations")
class AllCombinations(Moves):
    """`(allCombinations <moves> <moves> [(then ...)])`: every pair of a move of the first
    list and a move of the second, as one move doing both, each with its own consequents
    (Ludii's AllCombinations).
    Example: `(allCombinations (add (to (site))) (flip (between)))`."""
    concepts = ()

    params = (P("a", Moves), P("b", Moves), P("then", "Then", opt=True))

    def compile(self, env):
        first, second = env.compile(self.a), env.compile(self.b)
        then = _then(env, self)

        def combinations(c):
            lb = second(c)
            return [Move(m1.frm, m1.to, 0, moves_as_actions((m1, m2)), then)
                    for m1 in first(c) for m2 in lb]
        return combinations


@ludeme("append")
class Append(Moves):
    """`(append <moves> [(then ...)])`: all the moves of the list joined into one decision
    (none when the list is empty), as Ludii's Append: its from and to are those of the
    first move. Example: `(append (custodial ...) (then (set Score ...)))`."""
    concepts = ()

    params = (P("list", Moves), P("then", "Then", opt=True))

    def compile(self, env):
        gen = env.compile(self.list)
        then = _then(env, self)

        def append(c):
            moves = gen(c)
            if not moves:
                return []
            first = moves[0]
            return [Move(first.frm, first.to, 0, moves_as_actions(moves), then)]
        return append


# Threats (Ludii's IsThreatened) -------------------------------------------------

# Ludii keeps one flag per thread while it looks for a threat: nested threat tests then
# fail, and a (do ... ifAfterwards:(not (is Threatened ...))) keeps every move unchecked.
_PROBING = [0]


def probing() -> bool:
    """True while a threat is being looked for (Ludii's IsThreatened.autoFail)."""
    return _PROBING[0] > 0


def _probe(step: int) -> None:
    """Enter (+1) or leave (-1) a threat search. The rules' closures go through this
    module-level function, never the list itself: a worker process unpickles them by value
    (cloudpickle), each with its own copy of a list it names, while a module's function is
    unpickled by reference, so every closure and `probing` share one count there too."""
    _PROBING[0] += step


@ludeme("is", "Threatened")
class IsThreatened(Bool):
    """`(is Threatened [<what>] [at:<site> | [in:]<sites>] [<moves>])`: as Ludii's IsThreatened.
    With a piece: on a copy of the position with that piece at the site (where the piece
    stands by default), some enemy of its owner has a move (its phase's moves, or the
    moves given) ending on the site. Without one: some piece standing on the sites (every
    occupied board site by default) is threatened so by an enemy of its owner, each enemy
    probed as the mover with the owner as the previous and the next player; false when the
    next player is no player. Examples: `(not (is Threatened (id "King" Mover)))`,
    `(all Sites (sites Occupied by:Mover) if:(is Threatened at:(site)))`."""
    concepts = ("Threat", "CopyContext")

    params = (P("what", IntFn, opt=True), P("type", SiteType, opt=True),
              P("at", IntFn, opt=True, named=True), P("sites", Region, opt=True),
              P("in", Region, opt=True, named=True), P("moves", Moves, opt=True))

    def compile(self, env):
        _check_board_type(self, env)
        given_sites = self.in_ if self.in_ is not None else self.sites   # in: is Ludii 1.3's
        if self.in_ is not None and self.sites is not None:
            raise self.fail("(is Threatened ...) takes its sites once")
        if self.at is not None and given_sites is not None:
            raise self.fail("(is Threatened ...) takes a site or sites, not both")
        components = env.components
        nboard = env.num_board_sites
        specific = env.compile(self.moves) if self.moves is not None else None
        reaches = _threat_probe(env, specific)
        if self.what is None:
            return self._any_piece(env, given_sites, reaches)
        what = env.compile(self.what)
        if self.at is not None:
            at = env.compile(self.at)
            region = lambda c, w: (at(c),)  # noqa: E731
        elif given_sites is not None:
            sites = env.compile(given_sites)
            region = lambda c, w: sites(c)  # noqa: E731
        else:       # Ludii's Where: the first board site holding the piece
            def region(c, w):
                whats = c.s.what
                return next(((s,) for s in range(nboard) if whats[s] == w), ())

        def threatened(c):
            w = what(c)
            if w < 1 or probing():
                return False
            owner = components[w].owner
            for site in region(c, w):
                if site < 0:
                    continue
                probe = c.s.clone()
                probe.prev = owner
                if probe.what[site] == 0:
                    probe.set_site(site, w, owner)
                elif (probe.what[site], probe.who[site]) != (w, owner):
                    probe.do_action((A_FLIP, site, owner, w))   # Ludii keeps its state
                if reaches(probe, owner, site):
                    return True
            return False
        return threatened

    def _any_piece(self, env, given_sites, reaches):
        """Ludii's IsThreatened without a piece: each piece on the sites in turn."""
        n = env.num_players
        owners = [comp.owner for comp in env.components]
        if self.at is not None:
            at = env.compile(self.at)
            region = lambda c: (at(c),)  # noqa: E731
        elif given_sites is not None:
            region = env.compile(given_sites)
        else:       # Ludii's (sites Occupied by:All): every occupied board site
            nboard = env.num_board_sites
            region = lambda c: [x for x in range(nboard) if c.s.what[x]]  # noqa: E731
        total = env.total_sites

        def threatened(c):
            if probing():
                return False
            for site in region(c):
                if not 0 <= site < total or c.s.what[site] <= 0:
                    continue
                if not 0 < c.s.next <= n:
                    return False
                owner = owners[c.s.what[site]]
                probe = c.s.clone()     # the piece stays as it is
                probe.prev = owner
                probe.next = owner
                if reaches(probe, owner, site):
                    return True
            return False
        return threatened

    def auto_fails(self):
        """A closure () -> True while a threat is being looked for (Ludii's autoFails)."""
        return probing


def _threat_probe(env, specific):
    """A closure (probe, owner, site) -> whether an enemy of `owner`, made the mover of the
    copied position `probe`, has a move (its phase's, or `specific`) ending on the site
    (Ludii's canMoveTo: the first such move answers); threat tests inside fail meanwhile."""
    teams = env.teams
    players = range(1, env.num_players + 1)

    def enemies(owner):
        if teams:
            return [p for p in players if teams.get(p, -1) != teams.get(owner, -2)]
        return [p for p in players if p != owner]

    def reaches(probe, owner, site):
        _probe(1)
        try:
            for enemy in enemies(owner):
                probe.mover = enemy
                pc = probe.ctx
                pc.from_ = pc.to = pc.site = pc.player = -1
                gen = specific or probe.g.phases[probe.phase[enemy]].play
                if any(m.to == site for m in lazy_moves(gen)(pc)):
                    return True
        finally:
            _probe(-1)
        return False
    return reaches


@emits(IsThreatened, kind="bool")
def _is_threatened(src, lud):
    """A kernel: on copies of the position with the piece at the site (`at:`, else the first
    board site holding it), each enemy of its owner in turn moves (`sc[MOVER]`, the owner
    as the previous mover), and a move of theirs ending on the site answers
    (`Source.reach_kernel`). Inside such an enemy's moves, false (Ludii's autoFail)."""
    if lud.what is None:
        raise Unsupported(lud, "without a piece")
    if src.threat_probe:
        return "False"
    by_phase = lud.moves is None
    reach = src.reach_kernel(src.phase_moves() if by_phase else [lud.moves], by_phase)
    if src.game.teams:      # as the reference: a player of no team is everyone's enemy
        enemy = "TEAM[enemy] < 0 or TEAM[enemy] != TEAM[owner]"
    else:
        enemy = "enemy != owner"
    lines = [
        "@njit(cache=True)",
        "def HELPER(who, what, count, sc, phase, w, site):",
        "    if w < 1:",
        "        return False",
        "    if site == -2:",
        "        site = -1",
        "        for s in range(N_SITES):",
        "            if what[s] == w:",
        "                site = s",
        "                break",
        "    if not 0 <= site < TOTAL:",
        "        return False",
        "    owner = OWNER[w]",
        "    who, what, count, sc = who.copy(), what.copy(), count.copy(), sc.copy()",
        "    if what[site] == 0:",
        f"        {src.site_clear('site')}",
        f"        {src.site_add('site', 'w', 'owner', '1')}",
        "    elif what[site] != w or who[site] != owner:",
        # a flip: the piece keeps its state (in a stacking game, the top piece)
        *(["        stack_set_top(who, what, count, site, owner, w)"] if src.game.stacking else
          ["        journal(count, site)       # (of the copy: codegen's INCREMENTAL reads it)",
           "        who[site] = owner",
           "        what[site] = w"]),
        "    sc[PREV] = owner",
        "    for enemy in range(1, NP + 1):",
        f"        if {enemy}:",
        "            sc[MOVER] = enemy",
        f"            if {reach}(who, what, count, sc, phase, site):",
        "                return True",
        "    return False", ""]

    def make(name):
        return "\n".join(lines).replace("HELPER", name)
    given = lud.in_ if lud.in_ is not None else lud.sites
    if given is not None:
        # each site of the region in turn (a negative one skipped), as `compile` reads them
        if lud.at is not None or (lud.in_ is not None and lud.sites is not None):
            raise lud.fail("(is Threatened ...) takes one site or one region")
        seq, flt = src.region_sites(given)
        ok = f" and {flt('ts_')}" if flt else ""
        return src.context_kernel([
            f"    tw_ = {src.int_expr(lud.what)}", f"    for ts_ in {seq}:",
            f"        if ts_ >= 0{ok} and {src.helper(make)}(who, what, count, sc, phase, "
            "tw_, ts_):", "            return True", "    return False"])
    at = src.int_expr(lud.at) if lud.at is not None else "-2"
    return f"{src.helper(make)}(who, what, count, sc, phase, {src.int_expr(lud.what)}, {at})"


# Capture priorities (Ludii's requirement/max) --------------------------------------

def _chain_depth(state, move) -> int | None:
    """How many more decisions the mover chains after `move` (Ludii's MaxMoves
    getReplayCount, less the count it starts from): 0 when the turn passes or the game
    ends; None when every chain runs into a position where the mover has no move (Ludii
    then counts 0, whatever the chain's length). The depths a (max Moves) found of the
    moves it kept in the position after are read from it (`State._depths`), not computed
    again: each position's chains are searched once, not once per level above it."""
    probe = state.clone()
    probe.apply(move, listed=True)
    if probe.prev != probe.mover or probe.is_terminal():
        return 0
    moves = probe.legal_moves()
    if probe._stuck:    # Ludii's Game.moves adds no forced pass: the chain ends in nothing
        moves = [m for m in moves if not m.is_pass]
    known = probe._depths or {}
    best = None
    for m in moves:
        hit = known.get(id(m))
        depth = hit[1] if hit is not None and hit[0] is m and hit[2] is m.then \
            else _chain_depth(probe, m)
        if depth is not None and (best is None or depth > best):
            best = depth
    return None if best is None else best + 1


def _captured_value(state, move, first: bool = False) -> int:
    """The values of the pieces a move and its consequents remove, read in the position
    before it (Ludii's MaxMoves withValue: the value of each ActionRemove's site). For the
    moves it ranks (`first`) Ludii reads each at the level the action reports, in a
    stacking game the bottom (level 0) but for a removal of a given level; along the chain
    after them, the top piece's."""
    if not (first and state.g.stacking):
        return sum(state.piece_value(a[1]) for a in applied_actions(state.clone(), move)
                   if a[0] in _REMOVALS)
    return sum(state.piece_value(a[1], a[2] if a[0] == A_REMOVE_LEVEL else 0)
               for a in applied_actions(state.clone(), move) if a[0] in _REMOVALS)


def _replay_value(state, move, count: int) -> int:
    """Ludii's MaxMoves.getReplayCount withValue: the captured values summed along the
    chain of decisions by the same mover, the best continuation counting."""
    probe = state.clone()
    probe.apply(move, listed=True)
    if probe.is_terminal() or probe.prev != probe.mover:
        return count
    return max((_replay_value(probe, m, count + _captured_value(probe, m))
                for m in probe.legal_moves()), default=0)


class _MaxBy(Moves):
    """The moves scoring most by `counts(c, moves)` (Ludii's requirement/max)."""

    params = (P("withValue", LitBool, opt=True, named=True, default=False),
              P("moves", Moves), P("then", "Then", opt=True))

    counts_values = False   # withValue: is read (MaxMoves), else refused

    def compile(self, env):
        if self.counts_values:
            self.with_value = bool(self.withValue)
        else:
            self.refuse("withValue", why="counting the values of captured pieces")
        self.refuse("then", why="Ludii keeps it on the list, not on the moves")
        gen = env.compile(self.moves)
        counts_of = self.counts

        def max_by(c):
            moves = gen(c)
            counts = counts_of(c, moves)
            best = max(counts, default=0)
            return [m for m, k in zip(moves, counts) if k == best]
        return max_by

    def counts(self, c, moves) -> list[int]:  # pragma: no cover - every subclass overrides
        """Each move's score; the moves scoring most are kept."""
        raise NotImplementedError


@ludeme("max", "Moves")
class MaxMoves(_MaxBy):
    """`(max Moves [withValue:True] <moves>)`: the moves that begin the longest chain of
    decisions by the same mover (Ludii's MaxMoves), e.g. the longest capture sequence of
    draughts; withValue: the chain capturing the most value (the pieces' values summed).
    Example: `(max Moves (move Hop (from (last To)) ... (then (moveAgain))))`."""
    concepts = ("MaxMovesInTurn", "CopyContext")

    counts_values = True

    def counts(self, c, moves) -> list[int]:
        if self.with_value:
            return [_replay_value(c.s, m, _captured_value(c.s, m, True)) for m in moves]
        depths = [_chain_depth(c.s, m) for m in moves]
        # kept on the position for `_chain_depth` one level up (only the kept moves are
        # looked up: those legal_moves gives)
        c.s._depths = {id(m): (m, d, m.then) for m, d in zip(moves, depths)}
        # Ludii counts from 1: a move ending the turn 1, a chain of k more 1 + k, a chain
        # that runs into no move 0
        return [0 if d is None else d + 1 for d in depths]


@emits(MaxMoves, kind="moves")
def _max_moves(src, lud, out, ind):
    """The moves pushed, then ranked in place by `chain_depth` (the kernels' `_chain_depth`:
    each move applied to a copy of the position as a whole decision, the phase's moves of
    each position after it searched unranked, which gives the same longest chain) and the
    deepest kept in order. A list of one move is kept without a search, as the reference
    keeps it whatever its depth. Inside moves that test or extend them, the moves ranked
    bare, as the reference (`_keep_best`). Looking for a move, or listing the moves a probe
    searches (`Source.unranked`), the moves unranked: the ranking drops none of a list that
    has one, and never the deepest."""
    if src.reaching:
        raise Unsupported(lud, "while a threat is looked for (the moves ranked decide)")
    if src.any_mode or src.unranked:
        src.moves(lud.moves, out, ind)
        return
    src.ranks_moves(lud)
    if lud.withValue:
        _keep_best(src, lud, out, ind, "m", _chain_value(src, lud))
        return
    _keep_best(src, lud, out, ind, "m", "chain_depth(who, what, count, sc, phase, hist_mover, "
               "hist_pass, {m})")


def _chain_value(src, lud) -> str:
    """The score of (max Moves withValue:True ...)'s moves (`_replay_value`), `{m}` the move,
    in a game whose pieces all hold one value v (those the start places; the rules add no
    piece, set no value): v times the pieces the chain of decisions removes, the move's and
    those of the best continuation (a kernel searching the positions after it, as
    `chain_depth`; each move's removals counted as `captures_of` counts them, on a copy
    where, as the reference's, its consequents read the move before it as the last one,
    `_captured_value`). Ludii reads the moves
    ranked at the bottom of a stack, those after them at the top, and ranks the moves of
    each position the chain passes: with one value, the same scores. Other games refused."""
    from ludeme.engine.compiled.codegen import mentions
    from .moves import MoveAdd
    from .set_site import SetSiteValue
    why = "counting the values of captured pieces"
    if mentions(src.game.typed, (MoveAdd, SetSiteValue)):   # (pieces' moves too)
        raise Unsupported(lud, f"{why}, in a game whose rules add pieces or set values")
    s0 = src.game.new_initial_state(0)
    values = set()
    for site in range(src.game.total_sites):
        if s0.what[site] <= 0:
            continue
        if src.game.stacking:
            values.update(s0.piece_value(site, lv) for lv in range(s0.size_stack(site)))
        else:
            values.add(s0.piece_value(site))
    if len(values) > 1:
        raise Unsupported(lud, f"{why}, of pieces of several values")
    v = values.pop() if values else 0
    src.counts_removals = True

    def make(name):
        return "\n".join([
            "@njit(cache=True)",
            f"def {name}(who, what, count, sc, phase, hist_mover, hist_pass, f, t, g, x):",
            # the move's removals, as the reference counts them: its actions and consequents
            # applied to a copy, the last move still the one before it
            "    cwho, cwhat, ccount = who.copy(), what.copy(), count.copy()",
            "    csc, cphase = sc.copy(), phase.copy()",
            "    csc[NREM] = 0",
            "    if g >= 0:",
            "        effects(cwho, cwhat, ccount, csc, cphase, f, t, g, x)",
            "        consequents(cwho, cwhat, ccount, csc, cphase, g)",
            "    removed = csc[NREM]",
            # the decision applied, then the best of the mover's next decisions, if any
            "    who, what, count = who.copy(), what.copy(), count.copy()",
            "    sc, phase = sc.copy(), phase.copy()",
            "    rk = np.zeros(NP + 1, np.float64)",
            "    active = np.ones(NP + 1, np.int8)",
            "    active[0] = 0",
            "    step(who, what, count, sc, rk, active, phase, hist_mover, hist_pass, f, t, g, x)",
            "    if sc[OVER] or sc[PREV] != sc[MOVER]:",
            "        return removed",
            "    mf = np.empty(MAX_BUFFER, np.int64)",
            "    mt = np.empty(MAX_BUFFER, np.int64)",
            "    mg = np.empty(MAX_BUFFER, np.int64)",
            "    mx = np.empty(MAX_BUFFER, np.int64)",
            "    k = legal_unranked(who, what, count, sc, phase, hist_mover, hist_pass, mf, mt, "
            "mg, mx)",
            "    best = 0",
            "    for i in range(k):",
            f"        best = max(best, {name}(who, what, count, sc, phase, hist_mover, "
            "hist_pass, mf[i], mt[i], mg[i], mx[i]))",
            "    return removed + best", ""])
    return (f"{v} * {src.helper(make)}(who, what, count, sc, phase, hist_mover, hist_pass, "
            "{m})")


_REMOVALS = frozenset((A_REMOVE, A_REMOVE_LATER, A_REMOVE_LEVEL))


@ludeme("max", "Captures")
class MaxCaptures(_MaxBy):
    """`(max Captures <moves>)`: the moves removing the most pieces, their consequents
    included (Ludii's MaxCaptures). Example: `(max Captures (forEach Piece))`."""
    concepts = ("MaxCapture", "CopyContext")

    def counts(self, c, moves) -> list[int]:
        # Ludii's getActionsWithConsequences applies the move as a game move on a copy:
        # its consequents read it as the last move ((last To) is its destination).
        return [sum(1 for a in applied_actions(c.s.clone(), m, as_last_move=True)
                    if a[0] in _REMOVALS)
                for m in moves]


@emits(MaxCaptures, kind="moves", refuses=(("withValue", "counting the values of captured "
                                                        "pieces"),))
def _max_captures(src, lud, out, ind):
    """The moves pushed, then each counted by `captures_of` (its removals, its consequents'
    included, on a copy of the position with the move as the last one, as `counts`) and
    those removing most kept in order. A list of one move is kept without a count (the
    reference keeps it whatever its count). Looking for a move (any-mode), the moves
    uncounted: the ranking keeps one of any list that has one."""
    if src.reaching or src.first_mode:
        raise Unsupported(lud, "where the first move found answers (the moves counted decide)")
    if src.any_mode:
        src.moves(lud.moves, out, ind)
        return
    # The reference counts the moves before a (do ...) tests them, before the (then ...) of
    # the moves around it and the actions of a (do ... next:) are added: the kernels' moves
    # carry these already.
    if src.push_tests or src.outer_thens or src.effect_prefix is not None:
        raise Unsupported(lud, "inside moves that test or extend the moves counted")
    src.counts_removals = True
    _keep_best(src, lud, out, ind, "c", "captures_of(who, what, count, sc, phase, {m})")


def _keep_best(src, lud, out, ind, prefix: str, score: str) -> None:
    """The moves of `lud.moves` pushed, then each scored (`score`, given `{m}` the move's
    `mf[i], mt[i], mg[i], mx[i]`) and those scoring most kept in order. A list of one move
    is kept unscored, as the reference keeps it whatever its score.

    Inside moves that test or extend the moves ranked (a (do ... ifAfterwards:) around them,
    the (then ...) of moves around them, the first moves' actions of a (do ... next:)), the
    reference scores the moves as they are made, before these are added: the moves are
    pushed bare and scored first, then pushed again as the kernels carry them, each kept
    where the bare move in its place scored most (a test of its own, first of the tests
    every move pushed passes: the others test only the moves kept, as the reference's)."""
    if not (src.push_tests or src.outer_thens or src.effect_prefix is not None):
        _scored(src, lud, out, ind, prefix, score, in_place=True)
        return
    if src.prefix_unapplied:
        # the position the moves are scored in lacks the settings the reference scores
        # them after
        raise Unsupported(lud, "inside the next moves of a (do ...) whose first moves are "
                               "not applied where the next are generated")
    saved = (src.push_tests, src.outer_thens, src.effect_prefix)
    src.push_tests, src.outer_thens, src.effect_prefix = [], [], None
    try:
        first, scores, best = _scored(src, lud, out, ind, prefix, score, in_place=False)
    finally:
        src.push_tests, src.outer_thens, src.effect_prefix = saved
    cursor = f"{prefix}u{len(out)}"
    out += [f"{ind}k = {first}", f"{ind}{cursor} = np.zeros(1, np.int64)"]

    def make(name):
        return "\n".join(["@njit(cache=True)", f"def {name}(scores, best, cursor):",
                          "    i = cursor[0]", "    cursor[0] = i + 1",
                          "    return scores[i] == best", ""])
    keep = f"{src.helper(make)}({scores}, {best}, {cursor})"
    src.push_tests.insert(0, lambda frm, to, g, x: keep)
    try:
        src.moves(lud.moves, out, ind)
    finally:
        src.push_tests.pop(0)


def _scored(src, lud, out, ind, prefix: str, score: str, in_place: bool) -> tuple:
    """The lines pushing the moves of `lud.moves` and scoring each (`_keep_best`): with
    `in_place`, those scoring most kept in order; the names of the locals holding the
    buffers' length before them, their scores (one per move pushed) and the best score."""
    n = len(out)
    first, kept, scores, best, i = (f"{prefix}{v}{n}" for v in "kjcbi")
    out.append(f"{ind}{first} = k")
    src.moves(lud.moves, out, ind)
    call = score.format(m=f"mf[{i}], mt[{i}], mg[{i}], mx[{i}]")
    if not in_place:
        # a list of one move (or none) keeps it, whatever its score
        out += [f"{ind}{scores} = np.zeros(max(k - {first}, 1), np.int64)",
                f"{ind}{best} = 0"]
    out += [f"{ind}if k - {first} > 1:",
            *([f"{ind}    {scores} = np.empty(k - {first}, np.int64)"] if in_place else []),
            f"{ind}    {best} = -1",
            f"{ind}    for {i} in range({first}, k):",
            f"{ind}        {scores}[{i} - {first}] = {call}",
            f"{ind}        {best} = max({best}, {scores}[{i} - {first}])"]
    if in_place:
        out += [f"{ind}    {kept} = {first}",
                f"{ind}    for {i} in range({first}, k):",
                f"{ind}        if {scores}[{i} - {first}] == {best}:",
                f"{ind}            mf[{kept}] = mf[{i}]",
                f"{ind}            mt[{kept}] = mt[{i}]",
                f"{ind}            mg[{kept}] = mg[{i}]",
                f"{ind}            mx[{kept}] = mx[{i}]",
                f"{ind}            {kept} += 1",
                f"{ind}    k = {kept}"]
    return first, scores, best


# Captures along a direction (Ludii's Directional, DirectionCapture) -------------------

@ludeme("directions")
class DirectionsBetween(Directions):
    """`(directions [<type>] from:<site> to:<site>)`: the directions in which `to` lies on a
    straight line from `from`, as Ludii's Directions between two sites: each of the board's
    directions (of the All relation) with a radial from `from` passing through `to`.
    Example: `(directions Vertex from:(last From) to:(last To))`."""
    concepts = ()

    params = (P("type", SiteType, opt=True), P("from", IntFn, named=True),
              P("to", IntFn, named=True))

    def validate(self):
        if self.__dict__["_fields"].get("from_") is None or self._fields.get("to") is None:
            raise self.fail("(directions ...) between two sites needs from: and to:")

    @property
    def dirs(self):
        raise self.fail("the direction between two sites is not supported here yet")

    def direction_keys(self, env, lud):
        """(c, site) -> the directions from `from` to `to` (the site does not matter)."""
        keys = self.keys_fn(env)
        return lambda c, frm: keys(c)

    def keys_fn(self, env):
        """c -> the compass names of the radials from `from` through `to` (maybe none)."""
        _check_board_type(self, env)
        frm, to = env.compile(self.from_), env.compile(self.to)
        radials = env.board.radials
        tables = [(d, radials[d]) for d in env.board.relation_dirs("All") if d in radials]
        nsites = env.num_board_sites

        def keys(c):
            a, b = frm(c), to(c)
            if not (0 <= a < nsites and 0 <= b < nsites):
                return ()
            return tuple(d for d, table in tables if any(b in r.sites[1:] for r in table[a]))
        return keys


@ludeme("directional")
class Directional(Moves):
    """`(directional [(from <site>)] [<directions>] (to if:<cond> (apply <effect>))
    [(then ...)])`: along each radial from the site in the directions, the run of sites
    where the condition holds from the first one on: the effect applies at each, with
    (to) on it (Ludii's approach and withdrawal captures).
    Example: `(directional (from (last To)) ("LastDirection" Vertex)
    (to if:("IsEnemyAt" (to)) (apply (remove (to)))))`."""
    concepts = ("DirectionCapture if to.apply has RemoveEffect", "DirectionCapture if to.apply has FromToEffect", "-dirn")

    params = (P("from_", "FromSpec", opt=True), P("dirn", (DirWord, "Directions"), opt=True),
              P("to", "ToSpec", opt=True), P("then", "Then", opt=True))

    def compile(self, env):
        start = start_site(env, self)
        if self.to is None or self.to.if_ is None or self.to.apply is None \
                or self.to.apply.effect is None:
            raise self.fail("(directional ...) without (to if:<cond> (apply <effect>)) is not "
                            "supported yet")
        self.to.refuse("site", "level", why="Ludii's Directional reads the condition and "
                       "the effect")
        if self.to.apply.if_ is not None:
            raise self.to.apply.fail("(apply if:...) in (directional ...) is not supported yet")
        target = env.compile(self.to.if_)
        effect = env.compile(self.to.apply.effect)
        radials = env.board.radials
        if isinstance(self.dirn, DirectionsBetween):
            keys = self.dirn.keys_fn(env)
        else:
            dir_keys = env.direction_keys(self.dirn or "Adjacent", self)
            keys = lambda c: dir_keys(c, start(c))  # noqa: E731
        then = _then(env, self)

        def directional(c):
            frm = start(c)
            if frm < 0:
                return []
            saved = (c.from_, c.to)
            out = []
            for d in keys(c):
                for r in (radials[d][frm] if d in radials else ()):
                    for loc in r.sites[1:]:
                        c.to = loc
                        if not target(c):
                            break
                        c.from_ = -1
                        out.extend(effect(c))
                        c.from_ = saved[0]
            c.from_, c.to = saved
            return add_then(out, then)
        return directional


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

def capture_lines(src, lud, scan: list[str]) -> list[str]:
    """A capture consequent's lines: from its start site `cf` (its (from ...), else (from)),
    the `scan` (indent 4) puts the captured sites in `cbuf[:cn]`, reading the position
    before any capture (the reference lists its moves before applying them); then each
    gets the between effect (by default a removal) and the capture's own (then ...), as
    each move made carries it."""
    from .moves import _apply_lines
    b = lud.between
    then = lud.__dict__.get("_fields", {}).get("then")
    after: list[str] = []
    if then is not None:        # after each capture made (none on an empty site)
        after = ["to = -1"]
        emit("then", src, then, after)
    if b is not None and b.apply is not None:
        effect: list[str] = []
        _apply_lines(src, b.apply, effect)
        effect += after
    else:
        effect = ["if btw >= 0 and what[btw] > 0:", f"    {src.site_clear('btw')}",
                  *("    " + x for x in after)]
    return [*_captured(src, lud, scan),
            "    for i in range(cn):",
            "        btw = cbuf[i]",
            *("        " + x for x in effect),
            "    to = -1",
            "    btw = -1"]


def _captured(src, lud, scan: list[str]) -> list[str]:
    """The lines of a capture that put the sites it captures in `cbuf[:cn]`, by its `scan`
    (indent 4) from its start site `cf`, inside `if` the start is a board site."""
    if lud.from_ is not None:
        refuse(lud.from_, "level", "if_", "type")
    start = src.int_expr(lud.from_.site) if lud.from_ is not None and \
        lud.from_.site is not None else "frm"
    n = src.env.num_board_sites
    return [f"cf = {start}",
            f"if 0 <= cf < {n}:",
            f"    cbuf = np.empty({n}, np.int64)",
            "    cn = 0",
            *scan]


@emits(Directional, kind="consequent", refuses=(("then", "with (then ...)"),))
def _directional_consequent(src, lud, lines, ind):
    """`Directional.compile`: along each radial from the start in the directions (fixed by
    the board, or those in which one site lies from another), the run of sites where the
    condition holds, read on the position before any effect; then the effect at each, with
    (to) on it and (from) undefined."""
    from .moves import _apply_lines
    env = src.env
    to = lud.to
    if to is None or to.if_ is None or to.apply is None or to.apply.effect is None:
        raise Unsupported(lud, "without (to if:<cond> (apply <effect>))")
    refuse(to, "site", "level")
    if to.apply.if_ is not None:
        raise Unsupported(to.apply, "with if:")
    if lud.from_ is not None:
        refuse(lud.from_, "level", "if_", "type")
    start = src.int_expr(lud.from_.site) if lud.from_ is not None and \
        lud.from_.site is not None else "frm"
    n = env.num_board_sites
    dirn = lud.dirn
    if isinstance(dirn, DirectionsBetween):
        _check_board_type(dirn, env)
        radials = env.board.radials
        tables = [radials[d] for d in env.board.relation_dirs("All") if d in radials]
        rows = [[list(r.sites) for t in tables for r in t[s]] for s in range(n)]
        dir_of = [[i for i, t in enumerate(tables) for _ in t[s]] for s in range(n)]
    else:
        if not env.is_static_direction(dirn or "Adjacent"):
            raise Unsupported(lud, "in directions relative to a piece")
        along = _radials_fn(env, lud, dirn)
        rows = [[list(r) for r in along(None, s)] for s in range(n)]
        dir_of = [[0] * len(r) for r in rows]
    t_lines, t_len = src.padded(rows)
    L3, LL, LD = src.table(t_lines), src.table(t_len), src.table(src.padded(dir_of)[0])
    NL = src.table([len(r) for r in rows])
    most = max(1, t_lines.shape[1] * t_lines.shape[2]) if t_lines.ndim == 3 else 1
    effect: list[str] = []
    _apply_lines(src, to.apply, effect)
    out = [f"cf = {start}", f"if 0 <= cf < {n}:"]
    if isinstance(dirn, DirectionsBetween):     # the directions in which b lies from a
        out += [f"    da = {src.int_expr(dirn.from_)}",
                f"    db = {src.int_expr(dirn.to)}",
                f"    dm = np.zeros({max(1, len(tables))}, np.bool_)",
                f"    if 0 <= da < {n} and 0 <= db < {n}:",
                f"        for j in range({NL}[da]):",
                f"            for pos in range(1, {LL}[da, j]):",
                f"                if {L3}[da, j, pos] == db:",
                f"                    dm[{LD}[da, j]] = True"]
        taken = f"dm[{LD}[cf, j]]"
    else:
        taken = "True"
    out += [f"    cbuf = np.empty({most}, np.int64)",
            "    cn = 0",
            f"    for j in range({NL}[cf]):",
            f"        if {taken}:",
            f"            for pos in range(1, {LL}[cf, j]):",
            f"                to = {L3}[cf, j, pos]",
            f"                if not {src.bool_expr(to.if_)}:",
            "                    break",
            "                cbuf[cn] = to",
            "                cn += 1",
            "    df = frm",
            "    frm = -1",
            "    for i in range(cn):",
            "        to = cbuf[i]",
            *("        " + x for x in effect),
            "    frm = df",
            "    to = -1"]
    lines.extend(ind + x for x in out)


def static_dirn(env, lud):
    """A capture's directions (Adjacent by default), refused by the kernels when they are
    relative to a piece."""
    dirn = lud.dirn or "Adjacent"
    if not env.is_static_direction(dirn):
        raise Unsupported(lud, "in directions relative to a piece")
    return dirn


def _target_friend(src, lud) -> tuple[str, str]:
    """A capture's between and to conditions; Ludii's defaults read the site numbers
    themselves as players (`_is_player_fn`)."""
    b, to = lud.between, lud.to
    if b is not None and b.apply is not None and b.apply.if_ is not None:
        raise Unsupported(b.apply, "with if:")
    if to is not None:
        refuse(to, "site", "level", "apply")
    if src.env.teams and (b is None or b.if_ is None or to is None or to.if_ is None):
        raise Unsupported(lud, "with teams and Ludii's default targets")
    target = src.bool_expr(b.if_) if b is not None and b.if_ is not None else \
        "(btw != 0 and btw != mover)"
    friend = src.bool_expr(to.if_) if to is not None and to.if_ is not None else \
        "(to == mover or mover == NP + 1)"
    return target, friend


@emits(Custodial, kind="consequent")
def _custodial_consequent(src, lud, lines, ind):
    """`Custodial.compile`'s sandwiches along the radials of a static direction (see
    `capture_lines`)."""
    lines.extend(ind + x for x in capture_lines(src, lud, _custodial_scan(src, lud)))


@emits(Custodial, kind="moves")
def _custodial_moves(src, lud, out, ind):
    """Where moves are only looked for (is there one, which is the first: inside (append
    ...)), `Custodial.compile`'s moves: the between effect's at each site captured, in
    turn, with (between) on it (by default a removal: a move there when a piece stands
    there). As moves played they are refused: a move of the kernels carries no site
    captured for its effect to read."""
    if not src.any_mode:
        raise Unsupported(lud, "as moves played (only where moves are looked for, as "
                          "inside (append ...))")
    b = lud.between
    moves: list[str] = []
    if b is not None and b.apply is not None:
        if b.apply.effect is None:
            raise Unsupported(b.apply, "without an effect")
        src.moves(b.apply.effect, moves, "        ")
    else:
        g = src.new_generator([src.site_clear("to")], lud=lud, kind=A_REMOVE)
        moves.append("        if what[btw] > 0:")
        src.push(moves, "            ", "btw", "btw", g)
    # Each site captured is tried as it is found, in the order the scan lists them (the
    # first move is the same), with no list of them made at each site the moves are looked
    # for at (Reversi's listing made one at each empty site: 30% of its playout). The
    # scan's locals are its own: the moves tried may loop.
    scan = _custodial_scan(src, lud, keep=lambda site: [f"btw = {site}",
                                                        *(x[8:] for x in moves)],
                           names=("cr_", "cln_", "cpos_", "cpi_"))
    start = _captured(src, lud, [])[:2]
    out.extend(ind + x for x in ["csv_ = to, btw", *start, *scan, "to, btw = csv_"])


def _custodial_scan(src, lud, keep=None, names=("r", "ln", "pos", "i")) -> list[str]:
    """`Custodial.compile`'s sandwiches along the radials of a static direction from `cf`:
    the sites captured into `cbuf[:cn]` (as `_captured` reads them), or, with `keep`, the
    lines `keep(site)` gives at each (indent 0), in turn; `names`: the scan's locals (its
    radial, the radial's length, the position along it, the captured site's)."""
    if keep is None:
        def keep(site):
            return [f"cbuf[cn] = {site}", "cn += 1"]
    r, ln, pos, i = names
    env = src.env
    dirn = static_dirn(env, lud)
    b = lud.between
    if b is not None:
        refuse(b, "before", "after", "trail")
    target, friend = _target_friend(src, lud)
    n = env.num_board_sites
    radials = _radials_fn(env, lud, dirn)
    t_lines, t_len = src.padded([[list(r) for r in radials(None, s)] for s in range(n)])
    L3, LL = src.table(t_lines), src.table(t_len)
    NL = src.table([len(radials(None, s)) for s in range(n)])
    most = emit("range", src, b.range)[1] if b is not None and b.range is not None \
        else str(_LONG)
    scan = [
        f"    nmax = {most}",
        f"    for {r} in range({NL}[cf]):",
        f"        {ln} = {LL}[cf, {r}]",
        "        if nmax == 1:",                      # Ludii's shortSandwich
        f"            if {ln} < 3:",
        "                continue",
        f"            btw = {L3}[cf, {r}, 1]",
        f"            if not {target}:",
        "                continue",
        f"            to = {L3}[cf, {r}, 2]",
        f"            if not {friend}:",
        "                continue",
        *("            " + x for x in keep(f"{L3}[cf, {r}, 1]")),
        "            continue",
        f"        {pos} = 1",                         # Ludii's longSandwich
        f"        while {pos} < {ln} and {pos} <= nmax:",
        f"            btw = {L3}[cf, {r}, {pos}]",
        f"            if not {target}:",
        "                break",
        f"            {pos} += 1",
        f"        if {pos} == 1:",
        "            continue",
        f"        to = {L3}[cf, {r}, {pos}] if {pos} < {ln} else -1",
        f"        if not {friend}:",
        "            continue",
        f"        for {i} in range(1, {pos}):",
        *("            " + x for x in keep(f"{L3}[cf, {r}, {i}]"))]
    return scan


# Flips, states, combinations and appended moves (Reversi's) -----------------------------

def _flip_lines(src, lud, site: str) -> list[str]:
    """`Flip.compile`'s action at `fs` (read from `site`): the state of the piece there
    turned to the other of its `(flips a b)`; nothing off the sites or for a piece
    without flips."""
    table = src.env.flips_table()
    fa = src.table([p[0] if p is not None else 0 for p in table])
    fb = src.table([p[1] if p is not None else 0 for p in table])
    state = src.piece_state("fs")
    return [f"fs = {site}",
            f"if {_flips_at(src, 'fs')}:",
            f"    fw = what[fs]",
            f"    {state} = ({fb}[fw] if {state} == {fa}[fw] else {fa}[fw] "
            f"if {state} == {fb}[fw] else {state})"]


def _flip_then_lines(src, lud, site: str) -> list[str]:
    """The flip applied at once (as an effect or a consequent), then its own (then ...) where
    it turned a piece, with (from) and (to) undefined (as the reference applies a move
    nested with its consequents)."""
    lines = _flip_lines(src, lud, site)
    if lud.then is not None:
        then = ["fft_ = frm, to", "frm = -1", "to = -1"]
        emit("then", src, lud.then, then)
        lines += ["    " + x for x in then + ["frm, to = fft_"]]
    return lines


def _flips_at(src, site: str) -> str:
    """Whether the piece at `site` (one of the sites) has flips."""
    has = src.table([p is not None for p in src.env.flips_table()], "bool_")
    return f"(0 <= {site} < TOTAL and {has}[what[{site}]])"


def _flip_site(src, lud) -> str:
    return src.int_expr(lud.loc) if lud.loc is not None else "to"


@emits(Flip, kind="moves", refuses=(("type", "on other site types"),))
def _flip_moves(src, lud, out, ind):
    """`Flip.compile`'s move at the site (from and to), its action made when applied."""
    g = src.new_generator(_flip_lines(src, lud, "to"), lud=lud, kind=A_SET_FIELD)
    out.append(f"{ind}fs = {_flip_site(src, lud)}")
    out.append(f"{ind}if {_flips_at(src, 'fs')}:")
    src.push(out, ind + "    ", "fs", "fs", g)


@emits(Flip, kind="effect", refuses=(("type", "on other site types"),))
def _flip_effect(src, lud, body):
    body += _flip_then_lines(src, lud, _flip_site(src, lud))


@emits(Flip, kind="consequent", refuses=(("type", "on other site types"),))
def _flip_consequent(src, lud, lines, ind):
    lines.extend(ind + x for x in _flip_then_lines(src, lud, _flip_site(src, lud)))


@emits(Flip, kind="one_move", refuses=(("type", "on other site types"),))
def _flip_one_move(src, lud):
    return _flips_at(src, _flip_site(src, lud))


def _state_sites(src, lud):
    _check_board_type(lud, src.env)
    value = src.int_expr(lud.value)
    return (f"range({src.env.num_board_sites})",
            lambda v: f"{src.piece_state(v)} == {value}")


@emits(SitesState, kind="sites")
def _sites_state(src, lud):
    """The board sites whose piece (or empty site) has that state, in increasing order."""
    return _state_sites(src, lud)


@emits(SitesState, kind="contains")
def _sites_state_contains(src, lud, site):
    seq, test = _state_sites(src, lud)
    return f"(0 <= {site} < {src.env.num_board_sites} and {test(site)})"


@emits(SitesState, kind="for_region")
def _sites_state_loop(src, lud, out, ind, body):
    seq, test = _state_sites(src, lud)
    out.append(f"{ind}for site in {seq}:")
    out.append(f"{ind}    if {test('site')}:")
    out.extend(f"{ind}        {x}" for x in body)


@emits(AllCombinations, kind="moves")
def _all_combinations_moves(src, lud, out, ind):
    """Where moves are only looked for (is there one, which is the first: inside (append
    ...)): the first list's moves, as each is combined with the second list's one move
    when it makes one (a second list that may make more is refused). As moves played
    they are refused: a move of the kernels carries one generator's effects."""
    if not src.any_mode:
        raise Unsupported(lud, "as moves played (only where moves are looked for, as "
                          "inside (append ...))")
    out.append(f"{ind}if {emit('one_move', src, lud.b)}:")
    src.moves(lud.a, out, ind + "    ")
    out.append(f"{ind}    pass")


@emits(AllCombinations, kind="effect", refuses=(("then", "as an effect"),))
def _all_combinations_effect(src, lud, body):
    """The one move of each list joined, when both make one: both tested on the position
    before either applies, then each applied in turn (as the reference lists both lists'
    moves first; the second reads a copy of the position where the first changed what it
    reads, `moves._parts_in_turn`)."""
    from .moves import _parts_in_turn
    both = f"{emit('one_move', src, lud.a)} and {emit('one_move', src, lud.b)}"
    parts = _parts_in_turn(src, lud, [lud.a, lud.b], lambda m, part: src.effect_body(m, part))
    body += [f"acv = {both}", "if acv:", *("    " + x for x in parts)]


emits(AllCombinations, kind="consequent", refuses=(("then", "as a consequent"),))(
    effect_as_consequent(_all_combinations_effect))


@emits(Append, kind="moves")
def _append_moves(src, lud, out, ind):
    """`Append.compile`'s one move: where the list has a move, the from and to of its first
    (found by a kernel that stops there, `Source.first_move_kernel`). Applied, every move
    of the list is made as a consequent makes them, on the position before any (the
    reference joins the moves it listed there); the (from), (to) and (site) the list read
    are kept in the move's extra for that."""
    from ludeme.engine.compiled.codegen import _reads_outer_site
    from .moves import on_position_before
    if src.reaching:
        raise Unsupported(lud, "while a threat is looked for")
    if src.between != "btw":
        raise Unsupported(lud, "inside another move's (between ...)")
    buf = f"fm{len(ind)}_"
    first = len(src.generator_kinds)
    call = src.first_move_kernel(lud.list, buf)
    # the kinds of the actions it joins: those of the moves the list pushes
    kinds = tuple(sorted({k for ks in src.generator_kinds[first:]
                          for k in (ks if isinstance(ks, tuple) else (ks,))})) or (A_SET_FIELD,)
    width = src.game.total_sites + 1
    if width ** 3 >= 2 ** 62:
        raise Unsupported(lud, "on a board this large (its context would not fit a move)")
    effect: list[str] = []
    src.consequent(lud.list, effect, "")
    effect = on_position_before(lud, lud.list, effect, "whose moves read what an earlier "
                                "move changed (the reference reads the position before any)", src)
    # (site) of a loop around it, read by the list's moves or by their consequents
    site = ", site" in call or _reads_outer_site("\n".join(["def f():",
                                                              *("    " + x for x in effect)]))
    g = src.new_generator([f"frm = x // {width * width} - 1", f"to = x // {width} % {width} - 1",
                           *([f"site = x % {width} - 1"] if site else []), *effect],
                          lud=lud, kind=kinds)
    x = f"((frm + 1) * {width} + to + 1) * {width}" + (" + site + 1" if site else "")
    out.append(f"{ind}{buf} = np.empty(2, np.int64)")
    out.append(f"{ind}if {call}:")
    src.push(out, ind + "    ", f"{buf}[0]", f"{buf}[1]", g, x)
