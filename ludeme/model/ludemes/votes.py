"""Proposals and votes: `(move Propose ...)`, `(move Vote ...)`, `(is Proposed ...)`,
`(is Decided ...)`, and `(is Cycle)` which offers them (Ludii's Propose, Vote, IsProposed,
IsDecided, IsCycle). The propositions, the votes cast and the decision are kept as state
variables."""

from __future__ import annotations

from ludeme.engine.actions import PROPOSITIONS, VOTES
from ludeme.engine.compiled.emit import emits
from ludeme.engine.state import A_SET_VAR, Move
from .base import Bool, LitStr, Moves, P, ludeme

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

emits(IsCycle, kind="bool")(lambda src, lud: "False")
