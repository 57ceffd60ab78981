"""Conditions: each compiles to `c -> bool`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

import operator

from .base import Bool, DirWord, IntFn, LitBool, Moves, P, Region, RoleType, SiteType, lazy_moves, ludeme, \
    other_layer_end, other_layer_size, layer_of
from .base import CLASSES
from ludeme.engine.compiled.emit import Unsupported, emits


@ludeme("is", "Empty")
class IsEmpty(Bool):
    """`(is Empty [<type>] <site>)`: nothing stands on the site. A hand's site is read
    whatever the type; on the board, a type other than the board's names a layer that pieces
    never reach here (as Ludii reads the cells of a board played on vertices), so True."""
    concepts = ("IsEmpty",)

    params = (P("type", SiteType, opt=True), P("site", IntFn))

    def compile(self, env):
        n = env.total_sites
        layer = layer_of(env, self.type)
        if layer is not None:
            return _layer_test(env, self, layer, True)
        first = other_layer_end(env, self.type, self)
        # Ludii's IsEmpty reads a site past every container's on the board's layer of the
        # type: another type's layer, empty here to its last element.
        past = other_layer_size(env, self.type)
        if env.large_pieces:        # a cell a large piece covers is not empty
            site = env.compile(self.site)
            return lambda c: 0 <= (s := site(c)) < first or (first <= s < n
                                                             and c.s.is_empty(s)) \
                or n <= s < past
        if env.is_move_variable(self.site, "to") and not first:     # (to): no closure call
            return lambda c: 0 <= c.to < n and c.s.what[c.to] == 0
        site = env.compile(self.site)

        if past > n:
            def is_empty_past(c):
                s = site(c)
                return 0 <= s < first or (first <= s < n and c.s.what[s] == 0) or n <= s < past
            return is_empty_past

        def is_empty(c):
            s = site(c)
            return 0 <= s < first or (first <= s < n and c.s.what[s] == 0)
        return is_empty


class _IsLastType(Bool):
    params = (P("type", SiteType),)
    end = 1     # which end of the last decision: 0 its origin, 1 its destination

    def compile(self, env):
        env.reads_last_types = True     # the state keeps the last decision's types
        want, end = self.type, self.end
        return lambda c: c.s.last_types[end] == want


@ludeme("is", "LastTo")
class IsLastTo(_IsLastType):
    """`(is LastTo <type>)`: the last decision went to a site of that type (Ludii's IsLastTo,
    its Move's toType): another type's layer for a move there, the board's own for any other
    move, Cell for a pass. Example (Quoridor): `(if (and (is LastTo Cell) (is In (last To)
    (sites Mover))) (result Mover Win))`."""


@ludeme("is", "LastFrom")
class IsLastFrom(_IsLastType):
    """`(is LastFrom <type>)`: the last decision came from a site of that type (Ludii's
    IsLastFrom, its Move's fromType), as `(is LastTo ...)` reads its destination's. Example:
    `(if (is LastFrom Edge) (moveAgain))`."""
    end = 0


def _layer_test(env, lud, layer, empty: bool):
    """(is Empty <type> <site>) (or Occupied) on a layer of the board the game puts pieces on,
    as Ludii's IsEmpty and IsOccupied read it: an index a hand's site has reads the hand,
    any other the layer, to its last element (none past it)."""
    base_, size = layer
    site = env.compile(lud.site)
    hands = range(env.num_board_sites, env.total_sites)
    if env.large_pieces:
        raise lud.fail(f"({lud.keyword} {lud.kind} {lud.type} ...) in a game with large "
                       "pieces is not supported yet")

    def test(c):
        s = site(c)
        if s in hands:
            return (c.s.what[s] == 0) == empty
        if 0 <= s < size:
            return (c.s.what[base_ + s] == 0) == empty
        return False
    return test


@ludeme("is", "Flat")
class IsFlat(Bool):
    """`(is Flat [<site>])`: a piece put on the site (`(to)` by default) would rest on the board
    (Ludii's IsFlat): the site is on the bottom layer, or every site one step Downward from it
    is occupied. On `(square 4 pyramidal:True)`, `(move Add (to (sites Empty) if:(is Flat)))`
    offers the 16 bottom points, then a point of layer 1 once the four below it are filled."""

    concepts = ()

    params = (P("site", IntFn, opt=True),)

    def compile(self, env):
        board = env.board
        below = tuple(tuple(board.trajectories.targets(s, "Downward")) if layer else ()
                      for s, layer in enumerate(board.layers))
        site = (lambda c: c.to) if self.site is None else env.compile(self.site)

        def is_flat(c):
            s = site(c)
            if not 0 <= s < len(below):
                return False
            what = c.s.what
            return all(what[b] != 0 for b in below[s])
        return is_flat


@ludeme("is", "Occupied")
class IsOccupied(Bool):
    """`(is Occupied [<type>] <site>)`: something stands on the site. A hand's site is read
    whatever the type; on the board, a type other than the board's reads a layer that pieces
    never reach here (as Ludii reads the cells of a board played on vertices), so False."""

    params = (P("type", SiteType, opt=True), P("site", IntFn))

    def compile(self, env):
        layer = layer_of(env, self.type)
        if layer is not None:
            return _layer_test(env, self, layer, False)
        site = env.compile(self.site)
        first = other_layer_end(env, self.type, self)     # below it, the board's other (empty) layer

        def is_occupied(c):
            s = site(c)
            if s < first:
                return False
            try:
                return c.s.what[s] != 0
            except IndexError:      # a site past the last one (a pit computed off the board)
                return False
        return is_occupied


@ludeme("is", "Prev")
class IsPrev(Bool):
    """`(is Prev Mover)`: the previous decision was the mover's (a moveAgain chain)."""

    params = (P("role", RoleType),)

    def compile(self, env):
        who = env.role_id(self.role, self)
        return lambda c: c.s.prev == who(c)


@ludeme("is", "Mover")
class IsMover(Bool):
    """`(is Mover <player>)`."""

    params = (P("player", IntFn),)

    def compile(self, env):
        p = env.compile(self.player)
        return lambda c: c.s.mover == p(c)


@ludeme("is", "Enemy")
class IsEnemy(Bool):
    """`(is Enemy <player>)`: a player other than the mover (and not a friend)."""
    concepts = ("IsEnemy",)

    params = (P("player", IntFn),)

    def compile(self, env):
        p = env.compile(self.player)

        teams = env.teams

        def is_enemy(c):
            who = p(c)
            if who == 0:
                return False
            if teams:
                return teams.get(who, -1) != teams.get(c.s.mover, -2)
            return who != c.s.mover
        return is_enemy


@ludeme("is", "Friend")
class IsFriend(Bool):
    """`(is Friend <player>)`: the mover (or a teammate)."""
    concepts = ("IsFriend",)

    params = (P("player", IntFn),)

    def compile(self, env):
        p = env.compile(self.player)
        teams = env.teams
        if teams:
            return lambda c: teams.get(p(c), -1) == teams.get(c.s.mover, -2)
        return lambda c: p(c) == c.s.mover


@ludeme("is", "In")
class IsIn(Bool):
    """`(is In [<site>] <region>)` or `(is In {sites} <region>)`; the site is `(to)` when
    none is given (as in Ludii). The region may be an array of integers instead:
    `(is In (mover) (players Team1))`."""
    concepts = ("Contains if not region.player",)

    params = (P("sites", IntFn, many=True, opt=True), P("region", (Region, "IntArrayFn")))

    def compile(self, env):
        sites = [env.compile(s) for s in self.sites] if self.sites else [lambda c: c.to]
        region = env.compile(self.region)
        # an array of integers (Ludii's IsIn on arrays): membership of the values
        inside = self.region.predicate(env) if isinstance(self.region, Region) else None
        if len(sites) == 1:
            one = sites[0]
            if inside is not None:
                return lambda c: inside(c, one(c))
            return lambda c: one(c) in region(c)

        def is_in(c):
            r = set(region(c))
            return all(s(c) in r for s in sites)
        return is_in


@ludeme("is", "Line")
class IsLine(Bool):
    """`(is Line <length> [dirs] [<role>] [through:] [what:|who:] [exact:] [contiguous:] [if:])`.

    As Ludii: the pivot (by default the last move's destination) must hold a
    piece; pieces of the same kind (or of `who`) are counted along each line
    through the pivot, in both senses; `exact` wants exactly `length`.
    """
    concepts = ("Line", "AdjacentDirection if not dirn")

    params = (P("type", SiteType, opt=True), P("length", IntFn),
              P("dirn", (DirWord, "Directions"), opt=True), P("role", RoleType, opt=True),
              P("through", IntFn, opt=True, named=True),
              P("throughAny", Region, opt=True, named=True),
              P("what", IntFn, opt=True, named=True), P("who", IntFn, opt=True, named=True),
              P("whats", IntFn, opt=True, named=True, many=True),
              P("exact", (LitBool, Bool), opt=True, named=True, default=False),
              P("contiguous", LitBool, opt=True, named=True, default=True),
              P("if", Bool, opt=True, named=True),
              P("byLevel", LitBool, opt=True, named=True, default=False),
              P("top", LitBool, opt=True, named=True, default=False))

    def compile(self, env):
        if self.byLevel:
            self.refuse("top", why="with byLevel:")
            return self._by_level(env)
        length = env.compile(self.length)
        through = env.compile(self.through) if self.through is not None else (lambda c: c.s.last_to)
        radials = env.line_radials(self.dirn or "Adjacent", self)
        if self.role is not None and self.who is not None:
            raise self.fail("(is Line ...) takes a role or who:, not both")
        # a role: a line of that player's pieces (Ludii's `who`, read as (id <role>))
        who_fn = env.compile(self.who) if self.who is not None else \
            env.role_id(self.role, self) if self.role is not None else None
        what_fn = env.compile(self.what) if self.what is not None else None
        # whats: any of several kinds makes the line (Ludii's IsLine reads them as what:)
        whats_fns = [env.compile(w) for w in self.whats] if self.whats else None
        # exact: a literal is read once, here; a condition on each test
        exact_fn = None if isinstance(self.exact, bool) else env.compile(self.exact)
        exact_lit = bool(self.exact)
        contiguous = self.contiguous
        cond = env.compile(self.if_) if self.if_ is not None else None
        nsites = env.num_board_sites
        components = env.components

        def kinds(c, pivot):
            """The piece kinds that make the line, as line_at reads them."""
            if whats_fns is not None:
                return {f(c) for f in whats_fns}
            if what_fn is not None:
                return {what_fn(c)}
            if who_fn is not None:
                w = who_fn(c)
                return {comp.index for comp in components[1:] if comp.owner == w}
            return {c.s.what[pivot]}

        def holds(c, site):
            """The if: condition at a site of a line, with (to) on it."""
            c.to = site
            return cond(c)

        def line_at(c, pivot):
            """True: a line through the pivot; False: none; None: Ludii stops looking."""
            if pivot < 0 or pivot >= nsites:
                return None
            s = c.s
            saved_to = c.to
            if cond is not None:
                c.to = pivot
                if not cond(c):
                    c.to = saved_to
                    return None
            what = s.what
            whats = kinds(c, pivot)
            if what[pivot] not in whats:
                c.to = saved_to
                return False
            n = length(c)
            exact = exact_lit if exact_fn is None else exact_fn(c)
            found = False
            for ray, opposite in radials[pivot]:
                count = 1
                for site in ray:
                    if what[site] in whats and (cond is None or holds(c, site)):
                        count += 1
                        if not exact and count == n:
                            found = True
                            break
                    elif contiguous:
                        break
                if found:
                    break
                if opposite is not None:
                    total = count
                    for site in opposite:
                        if what[site] in whats and (cond is None or holds(c, site)):
                            total += 1
                            if not exact and total == n:
                                found = True
                                break
                        elif contiguous:
                            break
                    if found or total == n:
                        found = True
                        break
                elif count == n:
                    found = True
                    break
            c.to = saved_to
            return found

        top = self.top

        def line_on_stacks(c, pivot):
            """Ludii's IsLine.evalStack, in every stacking game: the pivot (the through:
            site, or the last move's destination even with throughAny:) and each site
            along a line count when any level holds one of the kinds (the top piece only,
            with top:True); the if: condition is read at the sites after the pivot only;
            a gap always ends a line (contiguous: is not read); a length of 1 is a line
            whatever the pivot holds."""
            if pivot < 0 or pivot >= nsites:
                return False
            whats = kinds(c, pivot)
            n = length(c)
            if n == 1:
                return True
            s = c.s
            if top:
                def member(site):
                    return s.what[site] in whats
            else:
                def member(site):
                    return any(lv[0] in whats for lv in s.stack(site))
            if not member(pivot):
                return False
            exact = exact_lit if exact_fn is None else exact_fn(c)
            saved_to = c.to

            def run(sites, count):
                for site in sites:
                    c.to = site
                    if not (member(site) and (cond is None or cond(c))):
                        break
                    count += 1
                    if not exact and count == n:
                        return count, True
                return count, False

            try:
                for ray, opposite in radials[pivot]:
                    count, found = run(ray, 1)
                    if found:
                        return True
                    if opposite is not None:
                        total, found = run(opposite, count)
                        if found or total == n:
                            return True
                    elif count == n:
                        return True
                return False
            finally:
                c.to = saved_to

        if self.throughAny is None:
            if self.through is None:    # the last move's destination, without a closure
                return lambda c: line_on_stacks(c, c.s.last_to) if c.stacking \
                    else line_at(c, c.s.last_to) is True
            return lambda c: line_on_stacks(c, through(c)) if c.stacking \
                else line_at(c, through(c)) is True
        if self.through is not None:
            raise self.fail("(is Line ...) takes through: or throughAny:, not both")
        region = env.compile(self.throughAny)

        def is_line_through_any(c):
            if c.stacking:
                return line_on_stacks(c, c.s.last_to)
            # Ludii: each site of the region in turn (those holding one of the kinds of
            # what:/whats: when given) until a line is found or a pivot stops the search
            pivots = sorted(set(region(c)))
            if whats_fns is not None or what_fn is not None:
                kinds = {f(c) for f in whats_fns} if whats_fns is not None else {what_fn(c)}
                what = c.s.what
                pivots = [p for p in pivots if 0 <= p < nsites and what[p] in kinds]
            if c.stacking:
                # Ludii's IsLine in a stacking game reads through: alone
                raise self.fail("(is Line ... throughAny:) in a stacking game is not "
                                "supported yet")
            for pivot in pivots:
                got = line_at(c, pivot)
                if got is not False:
                    return got is True
            return False
        return is_line_through_any


    def _by_level(self, env):
        """Lines through stacks (Ludii's byLevel:True): see stacks.line_by_level."""
        from .stacks import line_by_level
        self.refuse("throughAny", "who", "role", "whats", "if_", "contiguous",
                    why="a line by level reads its length, through:, what: and exact:")
        env.stacking = True
        length = env.compile(self.length)
        through = env.compile(self.through) if self.through is not None else (lambda c: c.s.last_to)
        what_fn = env.compile(self.what) if self.what is not None else None
        # exact: a literal is read once, here; a condition on each test
        exact_fn = None if isinstance(self.exact, bool) else env.compile(self.exact)
        exact_lit = bool(self.exact)
        radials = env.line_radials(self.dirn or "Adjacent", self)
        nsites = env.num_board_sites

        def is_line_by_level(c):
            pivot = through(c)
            if not 0 <= pivot < nsites:
                return False
            whats = {what_fn(c)} if what_fn is not None else {c.s.what[pivot]}
            exact = exact_lit if exact_fn is None else exact_fn(c)
            return line_by_level(c.s, pivot, length(c), whats, exact, radials[pivot])
        return is_line_by_level


class _Logic(Bool):
    params = (P("conds", Bool, many=True), P("more", Bool, opt=True, many=True))


@ludeme("and")
class And(_Logic):
    """`(and a b)` or `(and {a b c})`."""
    concepts = ("Conjunction", "-Contains")

    def compile(self, env):
        fs = [env.compile(x) for x in self.conds + (self.more or [])]
        if len(fs) == 2:
            a, b = fs
            return lambda c: a(c) and b(c)
        return lambda c: all(f(c) for f in fs)

    def auto_fails(self):
        """A closure () -> True when some part is known to fail without evaluating it (a
        shortcut only, which Ludii's And does not take: such a part would evaluate to False
        and the parts are pure, so the conjunction fails either way)."""
        return _any_known(self.conds + (self.more or []), "auto_fails")


@ludeme("or")
class Or(_Logic):
    """`(or a b)` or `(or {a b c})`."""
    concepts = ("Disjunction",)

    def compile(self, env):
        fs = [env.compile(x) for x in self.conds + (self.more or [])]
        if len(fs) == 2:
            a, b = fs
            return lambda c: a(c) or b(c)
        return lambda c: any(f(c) for f in fs)

    def auto_succeeds(self):
        """A closure () -> True when some part is known to hold without evaluating it (a
        shortcut only: such a part would evaluate to True, so the disjunction holds)."""
        return _any_known(self.conds + (self.more or []), "auto_succeeds")


def _any_known(parts, attr: str):
    """None, or a closure () -> True when one of the parts' `attr` shortcuts holds."""
    known = [f() for f in (getattr(x, attr, None) for x in parts) if f is not None]
    known = [k for k in known if k is not None]
    if not known:
        return None
    return lambda: any(k() for k in known)


@ludeme("not")
class Not(Bool):
    """`(not a)`."""
    # As Ludii's Not: CanMove becomes CanNotMove; the first of IsFriend, IsEnemy, IsEmpty
    # found becomes the other two.
    concepts = ("Negation", "CanNotMove if cond has CanMove", "-CanMove if cond has CanMove",
                "-IsFriend if cond has IsFriend", "IsEmpty if cond has IsFriend",
                "IsEnemy if cond has IsFriend",
                "-IsEnemy if cond has IsEnemy and not cond has IsFriend",
                "IsEmpty if cond has IsEnemy and not cond has IsFriend",
                "IsFriend if cond has IsEnemy and not cond has IsFriend",
                "-IsEmpty if cond has IsEmpty and not cond has IsFriend and not cond has IsEnemy",
                "IsEnemy if cond has IsEmpty and not cond has IsFriend and not cond has IsEnemy",
                "IsFriend if cond has IsEmpty and not cond has IsFriend and not cond has IsEnemy",
                "-NoTargetPiece if cond has NoTargetPiece")

    params = (P("cond", Bool),)

    def compile(self, env):
        f = env.compile(self.cond)
        return lambda c: not f(c)

    def auto_succeeds(self):
        """A closure () -> True when the condition is known to hold without evaluating it
        (Ludii's autoSucceeds: the negation of a condition that automatically fails)."""
        inner = getattr(self.cond, "auto_fails", None)
        return inner() if inner is not None else None


_COMPARE = {  # one closure per operator: no operator call in the hot path
    operator.eq: lambda a, b: (lambda c: a(c) == b(c)),
    operator.ne: lambda a, b: (lambda c: a(c) != b(c)),
    operator.lt: lambda a, b: (lambda c: a(c) < b(c)),
    operator.le: lambda a, b: (lambda c: a(c) <= b(c)),
    operator.gt: lambda a, b: (lambda c: a(c) > b(c)),
    operator.ge: lambda a, b: (lambda c: a(c) >= b(c)),
}


def _comparison(op):
    class Cmp(Bool):
        concepts = ({"eq": "Equal", "ne": "NotEqual", "lt": "LesserThan", "le": "LesserThanOrEqual", "gt": "GreaterThan", "ge": "GreaterThanOrEqual"}[op.__name__], "CountPiecesComparison if a is countPieces", "CountPiecesComparison if b is countPieces", "CountPiecesMoverComparison if a is countPieces and a.role == Mover", "CountPiecesMoverComparison if b is countPieces and b.role == Mover", "CountPiecesNextComparison if a is countPieces and a.role == Next|Player", "CountPiecesNextComparison if b is countPieces and b.role == Next|Player") + (("IsPieceAt if a is what and b is id", "IsPieceAt if b is what and a is id", "NoPiece if a is countPieces and b == 0", "NoPiece if b is countPieces and a == 0", "NoPieceMover if a is countPieces and b == 0 and a.role == Mover", "NoPieceMover if b is countPieces and a == 0 and b.role == Mover", "NoPieceNext if a is countPieces and b == 0 and a.role == Next", "NoPieceNext if b is countPieces and a == 0 and b.role == Next", "ProgressCheck if a is counter and b is IntConst", "ProgressCheck if b is counter and a is IntConst", "NoTargetPiece if a is where and b is IntConst and b == -1", "NoTargetPiece if b is where and a is IntConst and a == -1", "Contains if a is where and b is mapEntry", "Contains if b is where and a is mapEntry") if op is operator.eq else ())
        params = (P("a", IntFn), P("b", IntFn))

        def compile(self, env):
            return _COMPARE[op](env.compile(self.a), env.compile(self.b))
    return Cmp


for _word, _op in (("=", operator.eq), ("!=", operator.ne), ("<", operator.lt),
                   ("<=", operator.le), (">", operator.gt), (">=", operator.ge)):
    _cls = _comparison(_op)
    _cls.__name__ = f"Compare{_op.__name__.title()}"
    _cls.__doc__ = f"`({_word} a b)` on integers."
    ludeme(_word)(_cls)


@ludeme("all", "Sites")
class AllSites(Bool):
    """`(all Sites <region> if:<cond>)`: the condition holds at every site (`(site)`)."""
    concepts = ("NoPiece if region is sitesBoard and if has PieceCount",)

    params = (P("region", Region), P("if", Bool, named=True))

    def compile(self, env):
        region = env.compile(self.region)
        cond = env.compile(self.if_)

        def all_sites(c):
            saved = c.site
            ok = True
            for s in region(c):
                c.site = s
                if not cond(c):
                    ok = False
                    break
            c.site = saved
            return ok
        return all_sites


@ludeme("all", "Different")
class AllDifferent(Bool):
    """`(all Different <region> if:<cond>)`: the condition holds at every site of the region
    (`(site)`) and no two of them hold the same component, an empty site counting as one
    (Ludii's AllDifferent reads the board's default site type). Example (Quantik, a line
    of four different shapes):

        (all Different (sites Row 0) if:(is Occupied (site)))
    """
    concepts = ()

    params = (P("region", Region), P("if", Bool, named=True))

    def compile(self, env):
        region = env.compile(self.region)
        cond = env.compile(self.if_)
        n = env.num_board_sites

        def all_different(c):
            saved = c.site
            what = c.s.what
            seen = set()
            ok = True
            for s in region(c):
                c.site = s
                kind = what[s] if 0 <= s < n else 0
                if not cond(c) or kind in seen:
                    ok = False
                    break
                seen.add(kind)
            c.site = saved
            return ok
        return all_different


@ludeme("no", "Moves")
class NoMoves(Bool):
    """`(no Moves <player>)`: that player would have no legal move."""
    concepts = ("NoMoves", "NoMovesMover if role == Mover", "NoMovesNext if role == Next")

    params = (P("role", RoleType),)

    def compile(self, env):
        return env.no_moves_fn(self.role, self)


@ludeme("can", "Move")
class CanMove(Bool):
    """`(can Move <moves>)`: the moves are not empty."""
    concepts = ("CanMove",)

    params = (P("moves", Moves),)

    def compile(self, env):
        moves = lazy_moves(env.compile(self.moves))

        def gen(c):         # Ludii's canMove: whether a first move comes, not all of them
            return next(moves(c), None) is not None

        def can_move(c):
            s = c.s
            if not c.g.requires_visited:
                return gen(c)
            # As Ludii: the last move's ends count as visited while looking (then are
            # forgotten, even if they had been visited before).
            frm, to = s.last_from, s.last_to
            s.visited.add(frm)
            s.visited.add(to)
            found = gen(c)
            s.visited.discard(frm)
            s.visited.discard(to)
            return found
        return can_move


@ludeme("is", "Visited")
class IsVisited(Bool):
    """`(is Visited <site>)`: the site was a start or end of a move earlier in this turn."""
    concepts = ("VisitedSites",)

    params = (P("type", SiteType, opt=True), P("site", IntFn))

    def compile(self, env):
        site = env.compile(self.site)
        env.requires_visited = True
        return lambda c: site(c) in c.s.visited


class _RegionCompare(Bool):
    params = (P("a", Region), P("b", Region))


@ludeme("=")
class RegionsEqual(_RegionCompare):
    """`(= <region> <region>)`: the same set of sites."""
    concepts = ("Equal", "Fill")

    def compile(self, env):
        a, b = env.compile(self.a), env.compile(self.b)
        return lambda c: set(a(c)) == set(b(c))


@ludeme("!=")
class RegionsDiffer(_RegionCompare):
    """`(!= <region> <region>)`: different sets of sites."""
    concepts = ("NotEqual",)

    def compile(self, env):
        a, b = env.compile(self.a), env.compile(self.b)
        return lambda c: set(a(c)) != set(b(c))


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

# A site's or a player's test, with the expression of its argument.
# A site past the last one (a pit computed off the board) is neither, as the reference reads.
_TESTS = {IsEmpty: "(0 <= {x} < TOTAL and what[{x}] == 0)",
          IsOccupied: "(0 <= {x} < TOTAL and what[{x}] != 0)",
          IsEnemy: "({x} != 0 and {x} != mover)", IsFriend: "({x} == mover)",
          IsMover: "(mover == {x})"}


# Of another site type than the board's, a board site reads an empty layer (the reference's
# `other_layer_end`): empty, never occupied; a hand's site reads as with no type.
_OTHER_LAYER_TESTS = {IsEmpty: "(0 <= {x} < TOTAL and ({x} < {first} or what[{x}] == 0))",
                      IsOccupied: "({first} <= {x} < TOTAL and what[{x}] != 0)"}


@emits(IsEmpty, IsOccupied, kind="bool")
def _site_test(src, lud):
    layer = layer_of(src.env, lud.type)
    if layer is not None:
        # a layer of the board the game puts pieces on, as `_layer_test` reads it: an index
        # a hand's site has reads the hand, any other the layer's element (none past it)
        if src.game.large_pieces:
            raise Unsupported(lud, f"of {lud.type} sites in a game with large pieces")
        env = src.env
        return (f"layer_test(what, {src.int_expr(lud.site)}, {layer[0]}, {layer[1]}, "
                f"{env.num_board_sites}, {env.total_sites}, {type(lud) is IsEmpty})")
    first = other_layer_end(src.env, lud.type, lud)
    past = other_layer_size(src.env, lud.type)
    if type(lud) is IsEmpty and src.game.large_pieces:
        # a board site a large piece covers is not empty (`State.is_empty`)
        x = src.int_expr(lud.site)
        return (f"(0 <= {x} < {first} or ({first} <= {x} < TOTAL and what[{x}] == 0 and "
                f"({x} >= N_SITES or sc[COV + {x}] == 0)) or TOTAL <= {x} < {past})")
    if type(lud) is IsEmpty and past > src.env.total_sites:
        x = src.int_expr(lud.site)
        return f"({_OTHER_LAYER_TESTS[IsEmpty].format(x=x, first=first)} or " \
               f"(TOTAL <= {x} < {past}))"
    if first:
        return _OTHER_LAYER_TESTS[type(lud)].format(x=src.int_expr(lud.site), first=first)
    return _TESTS[type(lud)].format(x=src.int_expr(lud.site))


# With teams: a friend is a player of the mover's team (neither without a team).
_TEAM_FRIEND = "(0 <= {x} < NP + 2 and TEAM[{x}] >= 0 and TEAM[{x}] == TEAM[mover])"
_TEAM_TESTS = {IsEnemy: f"({{x}} != 0 and not {_TEAM_FRIEND})", IsFriend: _TEAM_FRIEND}


@emits(IsEnemy, IsFriend, IsMover, kind="bool")
def _player_test(src, lud):
    tests = _TEAM_TESTS if src.env.teams and type(lud) is not IsMover else _TESTS
    return tests[type(lud)].format(x=src.int_expr(lud.player))


@emits(IsFlat, kind="bool")
def _is_flat(src, lud):
    """As `IsFlat.compile`: the site ((to) by default) is a board site all of whose sites
    one step Downward are occupied (none on the bottom layer), by a table of them per site
    padded with -1."""
    board = src.env.board
    below = [list(board.trajectories.targets(s, "Downward")) if layer else []
             for s, layer in enumerate(board.layers)]
    width = max([1, *(len(b) for b in below)])
    table = src.table([b + [-1] * (width - len(b)) for b in below])

    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}(what, s):",
            f"    if s < 0 or s >= {len(below)}:", "        return False",
            f"    for b in {table}[s]:",
            "        if b >= 0 and what[b] == 0:", "            return False",
            "    return True", ""])
    at = "to" if lud.site is None else src.int_expr(lud.site)
    return f"{src.helper(make)}(what, {at})"


@emits(IsPrev, kind="bool")
def _is_prev(src, lud):
    return f"(prev == {src.role_expr(lud.role, lud)})"


@emits(IsIn, kind="bool")
def _is_in(src, lud):
    """The site ((to) when none is given) in the region; of several sites, each of them."""
    sites = [src.int_expr(x) for x in lud.sites] if lud.sites else ["to"]
    return "(" + " and ".join(src.region_contains(lud.region, x) for x in sites) + ")"


@emits(NoMoves, kind="bool")
def _no_moves(src, lud):
    """`(no Moves Next)` generates the next player's moves (the player after them next, as
    Ludii's setMoverAndImpliedPrevAndNext gives: of two players, the other) and keeps the
    answer as its stalemated flag; any other role reads the player's flag, as Ludii's
    NoMoves does (set by a forced pass, cleared when the player's moves are generated)."""
    player = src.role_expr(lud.role, lud)
    if lud.role != "Next":
        return f"(sc[STALE + {player}] != 0)"
    if src.no_moves_busy:
        return "False"      # Ludii's autoFail, as `no_moves_fn`: met while the moves are probed
    if src.game.num_players != 2:
        raise Unsupported(lud, "for Next with more than two players")
    if src.threat_probe:
        # The reference generates them with the threat's autoFail still on; `no_moves`
        # generates them with it off.
        return src.probed_no_moves()
    # the next player read when asked: a (moveAgain) applied earlier in the same decision
    # makes it the mover (the reference reads the state's next player)
    return "no_moves(who, what, count, sc, phase, sc[NEXT])"


@emits(CanMove, kind="bool")
def _can_move(src, lud):
    """`(can Move <moves>)`: a kernel that stops at the first move; where the game reads
    visited sites, the last move's ends count as visited while it looks, and are forgotten
    after (as the reference, even if they had been visited before)."""
    call = src.any_move_kernel(lud.moves)
    if not src.game.requires_visited:
        return call

    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}(who, what, count, sc, phase, frm, to):",
            "    a, b = visited_slot(sc[LAST_FROM]), visited_slot(sc[LAST_TO])",
            "    sc[VISITED + a] = 1", "    sc[VISITED + b] = 1",
            f"    found = {call}", "    sc[VISITED + a] = 0", "    sc[VISITED + b] = 0",
            "    return found", ""])
    return f"{src.helper(make)}(who, what, count, sc, phase, frm, to)"


@emits(RegionsEqual, RegionsDiffer, kind="bool")
def _regions_equal(src, lud):
    """The same set of sites: a helper kernel marks the first region's sites, then checks
    that the second's are all marked and as many (sites off the containers count as none)."""
    marks = ["if 0 <= site < TOTAL and not in_a[site]:", "    in_a[site] = True",
             "    n_a += 1"]
    checks = ["if 0 <= site < TOTAL and not in_b[site]:", "    in_b[site] = True",
              "    n_b += 1", "    if not in_a[site]:", "        same = False"]
    loops: list[str] = []
    src.for_region(lud.a, loops, "    ", marks)
    src.for_region(lud.b, loops, "    ", checks)
    bound = ", player" if src.player_bound else ""     # (player) of forEach Player/NonMover

    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}(who, what, count, sc, phase, frm, to, btw{bound}):",
            src.context(local=()), "    in_a = np.zeros(TOTAL, np.bool_)",
            "    in_b = np.zeros(TOTAL, np.bool_)", "    n_a = 0", "    n_b = 0",
            "    same = True", *loops, "    return same and n_a == n_b", ""])
    call = f"{src.helper(make)}(who, what, count, sc, phase, frm, to, {src.between}{bound})"
    return call if isinstance(lud, RegionsEqual) else f"(not {call})"


@emits(IsVisited, kind="bool", refuses=("type",))
def _is_visited(src, lud):
    return f"(sc[VISITED + visited_slot({src.int_expr(lud.site)})] != 0)"


@emits(IsLine, kind="bool", refuses=("type",))
def _is_line(src, lud):
    from .literals import IntConst
    if not isinstance(lud.exact, bool):
        raise Unsupported(lud, "with a computed exact:")
    if type(lud.length) is not IntConst and (lud.if_ is not None or lud.top):
        # the reference reads it with (to) on the pivot where if: is given
        raise Unsupported(lud, "with a computed length beside if: or top:")
    if lud.byLevel and not src.game.stacking:
        raise Unsupported(lud, "with byLevel: in a game without stacks")
    if lud.role is not None and lud.who is not None:
        raise lud.fail("(is Line ...) takes a role or who:, not both")
    # in a stacking game the reference reads every level of a stack (Ludii's
    # IsLine.evalStack: `is_line_stacked`), the top piece only with top:True (`is_line`
    # where it reads the same: contiguous, longer than 1)
    stacked = src.game.stacking and not lud.byLevel and not lud.top
    if src.game.stacking and lud.top and not (lud.contiguous and lud.length.value > 1) \
            and lud.if_ is None:
        raise Unsupported(lud, "with top:True, contiguous:False or a length of 1 in a "
                               "stacking game")
    length = src.int_expr(lud.length)
    n = src.env.num_board_sites
    tabs = ray_pair_tables(src, src.env.line_radials(lud.dirn or "Adjacent", lud))[:5]
    pivot = src.int_expr(lud.through) if lud.through is not None else "last_to"
    kinds = _line_kinds(src, lud)
    if lud.throughAny is not None:
        if lud.through is not None:
            raise lud.fail("(is Line ...) takes through: or throughAny:, not both")
        if src.game.stacking or lud.if_ is not None:
            raise Unsupported(lud, "with throughAny: in a stacking game or with if:")
        return _line_through_any(src, lud, kinds, length, tabs)
    if lud.if_ is not None:
        if src.game.stacking:
            if lud.byLevel:
                raise Unsupported(lud, "with if: and byLevel:")
            return _line_on_stacks_with_condition(src, lud, pivot, kinds, length, tabs)
        return _line_with_condition(src, lud, pivot, kinds, length, tabs)
    own = kinds is None
    kinds = kinds or f"WHATS_SAME[what[{pivot}]]"      # the pivot's kind
    if lud.byLevel or stacked:
        if lud.byLevel and not own:
            raise Unsupported(lud, "with byLevel: beside a role, who:, what: or whats:")
        walk = "is_line_by_level" if lud.byLevel else "is_line_stacked"
        return (f"({pivot} >= 0 and {pivot} < {n} and {walk}(what, count, {pivot}, "
                f"{kinds}, {length}, {lud.exact}, {', '.join(tabs)}))")
    return (f"({pivot} >= 0 and {pivot} < {n} and is_line(what, {pivot}, "
            f"{kinds}, {length}, {lud.exact}, {lud.contiguous}, "
            f"{', '.join(tabs)}))")


def _line_kinds(src, lud) -> str | None:
    """A mask over the piece kinds that make `(is Line ...)`'s line, as `IsLine.compile`'s
    `kinds` reads them: whats:, else what:, else every kind of who: or the role's player;
    None for the pivot's own kind."""
    comps = src.game.components
    nk = len(comps)
    if lud.whats or lud.what is not None:
        exprs = [src.int_expr(w) for w in (lud.whats or [lud.what])]
        body = [f"    ks = np.zeros({nk}, np.bool_)"]
        for e in exprs:
            body += [f"    k_ = {e}", f"    if 0 <= k_ < {nk}:", "        ks[k_] = True"]
        return src.context_kernel(body + ["    return ks"])
    if lud.who is None and lud.role is None:
        return None
    # a line of the player's pieces: every kind that player owns (as the reference)
    owned = [[k > 0 and comps[k].owner == p for k in range(nk)]
             for p in range(src.game.num_players + 2)]
    player = src.int_expr(lud.who) if lud.who is not None else \
        src.player_expr(lud.role, lud)
    return (f"({src.table(owned, 'bool_')}[{player}] if 0 <= {player} < "
            f"{src.game.num_players + 2} else np.zeros({nk}, np.bool_))")


def _line_through_any(src, lud, kinds, length, tabs) -> str:
    """`(is Line ... throughAny:<region>)` as `IsLine.compile` reads it: each site of the
    region in increasing order (with what:/whats:, those holding one of the kinds only) is
    the pivot in turn until a line is found; a pivot off the board stops the search."""
    n = src.env.num_board_sites
    sites = src.listed_by_loop(lud.throughAny)
    given = bool(lud.whats) or lud.what is not None
    test = ["        if not (0 <= pv < {n} and ws[what[pv]]):".format(n=n),
            "            continue"] if given else \
        [f"        if not 0 <= pv < {n}:", "            return False"]
    return src.context_kernel([
        f"    ws = {kinds or 'WHATS_SAME[0]'}", f"    ln_ = {length}",
        f"    for pv in np.unique({sites}):", *test,
        f"        if is_line(what, pv, {kinds or 'WHATS_SAME[what[pv]]'}, ln_, {lud.exact}, "
        f"{lud.contiguous}, {', '.join(tabs)}):",
        "            return True",
        "    return False"])


def ray_pair_tables(src, per_site) -> tuple:
    """Tables of the lines through each site, given per site as (ray, opposite ray or None)
    pairs: the rays' sites and lengths, the opposite rays' sites and lengths (-1: none), the
    number of pairs per site; then the widest number of pairs and the longest ray."""
    import numpy as np
    n = len(per_site)
    width = max((len(p) for p in per_site), default=0) or 1
    depth = max((max(len(r), len(o or ())) for p in per_site for r, o in p), default=0) or 1
    rays = np.full((n, width, depth), -1)
    opps = np.full((n, width, depth), -1)
    ray_len = np.zeros((n, width), dtype=np.int64)
    opp_len = np.full((n, width), -1)
    num = np.zeros(n, dtype=np.int64)
    for s, per in enumerate(per_site):
        num[s] = len(per)
        for r, (ray, opp) in enumerate(per):
            ray_len[s, r] = len(ray)
            rays[s, r, :len(ray)] = ray
            if opp is not None:
                opp_len[s, r] = len(opp)
                opps[s, r, :len(opp)] = opp
    return (*(src.table(x) for x in (rays, ray_len, opps, opp_len, num)), width, depth)


def _line_with_condition(src, lud, pivot, kinds, length, tabs) -> str:
    """`(is Line ... if:<cond>)` as `IsLine.compile`'s `line_at` walks it (the walk of
    `rt.is_line` in a helper kernel of its own, the condition inlined): the condition holds
    at the pivot with (to) on it, and counts a site of the kinds along a line only where it
    holds with (to) on that site."""
    rays, ray_len, opps, opp_len, num = tabs
    if kinds is None:
        kinds = "WHATS_SAME[what[pv]]"      # the pivot's kind, read with (to) on it
    cond = src.bool_expr(lud.if_)
    n = src.env.num_board_sites
    exact, contiguous = bool(lud.exact), bool(lud.contiguous)

    def walk(seq, ln, counter, ind):
        """The sites of one side of a line, counted while they hold the kinds and the
        condition holds there (`ind`: the loop's indent)."""
        lines = [f"for j in range({ln}):", f"    to = {seq}",
                 f"    if ws[what[to]] and {cond}:", f"        {counter} += 1"]
        if not exact:
            lines += [f"        if {counter} == ln_:", "            found = True",
                      "            break"]
        if contiguous:
            lines += ["    else:", "        break"]
        return [ind + x for x in lines]
    body = ["    for r in range({}[pv]):".format(num), "        cnt = 1",
            "        found = False",
            *walk(f"{rays}[pv, r, j]", f"{ray_len}[pv, r]", "cnt", "        "),
            "        if found:", "            return True",
            f"        if {opp_len}[pv, r] >= 0:", "            tot = cnt",
            *walk(f"{opps}[pv, r, j]", f"{opp_len}[pv, r]", "tot", "            "),
            "            if found or tot == ln_:", "                return True",
            "        elif cnt == ln_:", "            return True"]
    return src.context_kernel([f"    pv = {pivot}", f"    if pv < 0 or pv >= {n}:",
                               "        return False", "    to = pv", f"    if not {cond}:",
                               "        return False", f"    ws = {kinds}",
                               "    if not ws[what[pv]]:", "        return False",
                               f"    ln_ = {length}", *body, "    return False"])


def _line_on_stacks_with_condition(src, lud, pivot, kinds, length, tabs) -> str:
    """`(is Line ... if:<cond>)` in a stacking game, as `IsLine.compile`'s `line_on_stacks`
    walks it (in a helper kernel of its own): a site counts when any level of its stack
    holds one of the kinds (its top piece with top:True) and, after the pivot, the condition
    holds with (to) on it; a gap ends a line; a length of 1 is a line."""
    rays, ray_len, opps, opp_len, num = tabs
    if lud.role is None:
        kinds = "WHATS_SAME[what[pv]]"      # the pivot's kind
    member = ("ws[what[{s}]]" if lud.top else "stack_holds_kind(what, count, {s}, ws)").format
    cond = src.bool_expr(lud.if_)
    n = src.env.num_board_sites
    exact = bool(lud.exact)

    def walk(seq, ln, ind):
        lines = [f"for j in range({ln}):", f"    to = {seq}",
                 f"    if not ({member(s='to')} and {cond}):", "        break",
                 "    cnt += 1"]
        if not exact:
            lines += ["    if cnt == ln_:", "        found = True", "        break"]
        return [ind + x for x in lines]
    body = [f"    for r in range({num}[pv]):", "        cnt = 1", "        found = False",
            *walk(f"{rays}[pv, r, j]", f"{ray_len}[pv, r]", "        "),
            "        if found:", "            return True",
            f"        if {opp_len}[pv, r] >= 0:",
            *walk(f"{opps}[pv, r, j]", f"{opp_len}[pv, r]", "            "),
            "            if found or cnt == ln_:", "                return True",
            "        elif cnt == ln_:", "            return True"]
    return src.context_kernel([f"    pv = {pivot}", f"    if pv < 0 or pv >= {n}:",
                               "        return False", f"    ln_ = {length}",
                               "    if ln_ == 1:", "        return True", f"    ws = {kinds}",
                               f"    if not {member(s='pv')}:", "        return False",
                               *body, "    return False"])


@emits(AllSites, kind="bool")
def _all_sites(src, lud):
    """`(all Sites <region> if:<cond>)`: a kernel that stops at the first site failing (given
    `(player)` where forEach Player/NonMover binds it)."""
    body: list[str] = []
    src.for_region(lud.region, body, "    ", [f"if not {src.bool_expr(lud.if_)}:",
                                              "    return False"])
    return src.context_kernel(body + ["    return True"])


_PY_COMPARISON = {"=": "==", "!=": "!=", "<": "<", "<=": "<=", ">": ">", ">=": ">="}


@emits(*(CLASSES[f"Compare{op}"] for op in ("Eq", "Ne", "Lt", "Le", "Gt", "Ge")), kind="bool")
def _compare(src, lud):
    op = _PY_COMPARISON[type(lud).keyword]
    return f"({src.int_expr(lud.a)} {op} {src.int_expr(lud.b)})"


@emits(And, Or, kind="bool")
def _logic(src, lud):
    parts = [src.bool_expr(x) for x in list(lud.conds) + list(lud.more or [])]
    return "(" + f" {type(lud).keyword} ".join(parts) + ")"


@emits(Not, kind="bool")
def _not(src, lud):
    return f"(not {src.bool_expr(lud.cond)})"
