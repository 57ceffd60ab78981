"""What a piece carries: `(value Piece ...)` (Ludii's functions/ints/value/piece)."""

from __future__ import annotations

from ludeme.engine.compiled.emit import Unsupported, emits

from .base import IntFn, P, SiteType, ludeme


@ludeme("value", "Piece")
class ValuePiece(IntFn):
    """`(value Piece at:<site> [level:<level>])`: the value of the piece at a site (of the top
    piece, or of the given level), -1 when the site is empty or off the board. Example:
    `(value Piece at:(to))`."""
    concepts = ("PieceValue",)

    params = (P("type", SiteType, opt=True), P("at", IntFn, named=True),
              P("level", IntFn, opt=True, named=True))

    def compile(self, env):
        at = env.compile(self.at)
        level = env.compile(self.level) if self.level is not None else None

        def value_piece(c):
            site = at(c)
            if site == -1:
                return 0                    # Ludii: Off gives NOBODY (0)
            if site < 0 or site >= env_sites:
                return -1
            s = c.s
            if level is None:
                # Ludii's flat store reads the site's value, a piece there or not (a value
                # set on an empty site stays); a stack's top value is its top piece's.
                if not c.stacking:
                    return s.piece_value(site)
                return s.piece_value(site) if s.what[site] else -1
            lv = level(c)
            if not 0 <= lv < s.size_stack(site):
                return -1
            return s.piece_value(site, lv)
        env_sites = env.total_sites
        return value_piece


@emits(ValuePiece, kind="int")
def _value_piece(src, lud):
    """The value kept for the site (`Source.piece_value`), a piece there or not (in a
    stacking game, its top piece's, -1 for none); 0 for -1 (Off), -1 off the sites. With
    level:, the value of the piece at that level, -1 where there is none (below 0 too; in a
    game without stacks, level 0 of an occupied site is its piece)."""
    if lud.type not in (None, src.env.board.site_type):
        raise Unsupported(lud, f"with the site type {lud.type}")
    at = src.int_expr(lud.at)
    read = src.piece_value(at)
    if lud.level is not None:
        lv = src.int_expr(lud.level)
        if src.game.stacking:
            read = (f"(stack_value_at(sc[STATE:STATE + N_STATE], what, count, {at}, {lv}) "
                    f"if {lv} >= 0 else -1)")
        else:
            read = f"({read} if {lv} == 0 and what[{at}] != 0 else -1)"
    elif src.game.stacking:
        # a stack's top value is its top piece's: -1 where the site is empty
        read = f"stack_value_at(sc[STATE:STATE + N_STATE], what, count, {at}, -1)"
    return f"({read} if 0 <= {at} < TOTAL else (0 if {at} == -1 else -1))"


__all__ = ["ValuePiece"]
