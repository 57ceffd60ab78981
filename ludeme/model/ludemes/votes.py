"""Proposals and votes: `(move Propose ...)`, `(move Vote ...)`, `(is Proposed ...)`,
`(is Decided ...)`, and `(is Cycle)` which offers them (Ludii's Propose, Vote, IsProposed,
IsDecided, IsCycle). The propositions, the votes cast and the decision are kept as state
variables."""

from __future__ import annotations

from ludeme.engine.actions import PROPOSITIONS, VOTES
from ludeme.engine.state import A_SET_VAR, Move
from .base import Bool, LitStr, Moves, P, ludeme
from ludeme.engine.compiled.emit import emits
from ludeme.engine.compiled.unsupported import Unsupported

DECIDED = ("vote", "decided")


def _read(c, key, default):
    return c.s.notes.get(("var", key), default)


@ludeme("move", "Propose")
class MovePropose(Moves):
    """`(move Propose "Text"|{"Text" ...} [(then ...)])`: one decision (from = to = -1) per
    proposition, which adds it to the propositions made."""
    concepts = ("ProposeDecision",)

    params = (P("propositions", LitStr, many=True), P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then
        then = _then(env, self)
        texts = list(self.propositions)

        def propose(c):
            made = _read(c, PROPOSITIONS, ())
            return [Move(-1, -1, 0, [(A_SET_VAR, PROPOSITIONS, made + (t,))], then)
                    for t in texts]
        return propose


def _vote_actions(c, vote: str, n: int) -> list:
    """The actions of casting `vote` (Ludii's ActionVote): once every one of the `n` players
    has voted, a vote cast by more than half of them is decided, and the propositions and
    votes are cleared."""
    votes = _read(c, VOTES, ()) + (vote,)
    if len(votes) < n:
        return [(A_SET_VAR, VOTES, votes)]
    best, best_count = None, 0
    for v in dict.fromkeys(votes):       # first cast first, as Ludii counts them
        k = votes.count(v)
        if k > best_count:
            best, best_count = v, k
    acts = [(A_SET_VAR, DECIDED, best)] if best_count > n // 2 else []
    return acts + [(A_SET_VAR, PROPOSITIONS, ()), (A_SET_VAR, VOTES, ())]


@ludeme("move", "Vote")
class MoveVote(Moves):
    """`(move Vote "Text"|{"Text" ...} [(then ...)])`: one decision (from = to = -1) per vote
    (see `_vote_actions`)."""
    concepts = ("VoteDecision",)

    params = (P("votes", LitStr, many=True), P("then", "Then", opt=True))

    def compile(self, env):
        from .moves import _then
        then = _then(env, self)
        texts = list(self.votes)
        n = env.num_players

        def vote(c):
            return [Move(-1, -1, 0, _vote_actions(c, t, n), then) for t in texts]
        return vote


@ludeme("vote")
class VoteEffect(MoveVote):
    """`(vote "Text"|{"Text" ...} [(then ...)])`: the same votes as an effect, e.g. the
    proposer's own vote in `(move Propose "End" (then (vote "End")))` (Ludii's Vote, which
    `(move Vote ...)` makes a decision)."""
    concepts = ("VoteEffect",)


@ludeme("is", "Proposed")
class IsProposed(Bool):
    """`(is Proposed "Text")`: that proposition was made and not yet voted on."""
    concepts = ()

    params = (P("proposition", LitStr),)

    def compile(self, env):
        text = self.proposition
        return lambda c: text in _read(c, PROPOSITIONS, ())


@ludeme("is", "Decided")
class IsDecided(Bool):
    """`(is Decided "Text")`: the last completed vote decided that text."""
    concepts = ()

    params = (P("decision", LitStr),)

    def compile(self, env):
        text = self.decision
        return lambda c: _read(c, DECIDED, "") == text


@ludeme("is", "Cycle")
class IsCycle(Bool):
    """`(is Cycle)`: never true, as in Ludii 1.3 (whose IsCycle is a constant false)."""
    concepts = ()

    params = ()

    def compile(self, env):
        return lambda c: False


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------
#
# The kernels keep three variables (`Source.variable`, -1 until set), each one less than
# what it holds: the propositions made, a bit per text (`(is Proposed ...)` reads only
# whether a text was made, and the votes clear them all); the votes cast, a count per text
# packed in one number (base NP + 1: no text gets more votes than there are players); the
# text decided last (its index + 1, 0 for none). Each of the reference's actions
# (A_SET_VAR) is one statement, as the kernels count them.

def _texts(src) -> list[str]:
    """The texts the game's proposals, votes and tests name, in order: their indices."""
    found: set[str] = set()

    def walk(lud):
        if isinstance(lud, (list, tuple)):
            for x in lud:
                walk(x)
            return
        fields = getattr(lud, "_fields", None)
        if fields is None:
            return
        if isinstance(lud, (MovePropose, MoveVote)):
            found.update(lud.propositions if isinstance(lud, MovePropose) else lud.votes)
        elif isinstance(lud, IsProposed):
            found.add(lud.proposition)
        elif isinstance(lud, IsDecided):
            found.add(lud.decision)
        for v in fields.values():
            walk(v)
    walk(src.game.typed)
    texts = sorted(found)
    if (src.game.num_players + 1) ** len(texts) >= 2 ** 62 or len(texts) > 62:
        raise Unsupported(None, "this many texts to propose or vote on")
    return texts


def _slots(src) -> tuple[str, str, str]:
    return tuple(src.variable(name) for name in (PROPOSITIONS, VOTES, DECIDED))


def _propose_lines(src, text: str) -> list[str]:
    props, _, _ = _slots(src)
    return [f"{props} = ({props} + 1 | {1 << _texts(src).index(text)}) - 1"]


def _vote_lines(src, text: str) -> list[str]:
    """`_vote_actions`: the vote added; once every player has voted, the text with more
    than half of the votes decided (when one has), and the propositions and votes
    cleared."""
    props, votes, decided = _slots(src)
    texts = _texts(src)
    w = src.game.num_players + 1
    return [f"vv_ = {votes} + 1 + {w ** texts.index(text)}",
            "vn_ = 0",
            "vb_ = -1",
            f"for vi_ in range({len(texts)}):",
            f"    vc_ = vv_ // {w} ** vi_ % {w}",
            "    vn_ += vc_",
            "    if vc_ > NP // 2:",
            "        vb_ = vi_",
            "if vn_ < NP:",
            f"    {votes} = vv_ - 1",
            "else:",
            "    if vb_ >= 0:",
            f"        {decided} = vb_",
            f"    {props} = -1",
            f"    {votes} = -1"]


def _decision_moves(src, lud, texts, lines_of, out, ind):
    """One move with no site per text, its action made when applied."""
    for text in texts:
        g = src.new_generator(lines_of(src, text), lud=lud, kind=A_SET_VAR)
        src.push(out, ind, "-1", "-1", g)


@emits(MovePropose, kind="moves")
def _propose_moves(src, lud, out, ind):
    _decision_moves(src, lud, lud.propositions, _propose_lines, out, ind)


@emits(MoveVote, VoteEffect, kind="moves")
def _vote_moves(src, lud, out, ind):
    _decision_moves(src, lud, lud.votes, _vote_lines, out, ind)


def _vote_consequent(src, lud, lines, ind):
    """Each vote cast in turn, as the reference applies its moves."""
    for text in lud.votes:
        lines.extend(ind + x for x in _vote_lines(src, text))


emits(VoteEffect, MoveVote, kind="consequent", refuses=(("then", "as a consequent"),))(
    _vote_consequent)
emits(VoteEffect, MoveVote, kind="effect", refuses=(("then", "as an effect"),))(
    lambda src, lud, body: _vote_consequent(src, lud, body, ""))


@emits(IsProposed, kind="bool")
def _is_proposed(src, lud):
    props, _, _ = _slots(src)
    return f"(({props} + 1 & {1 << _texts(src).index(lud.proposition)}) != 0)"


@emits(IsDecided, kind="bool")
def _is_decided(src, lud):
    _, _, decided = _slots(src)
    return f"({decided} == {_texts(src).index(lud.decision)})"


@emits(IsCycle, kind="bool")
def _is_cycle(src, lud):
    return "False"
