"""The territory of a player (Ludii's functions/ints/size/connection/SizeTerritory):
`(size Territory <role> | (player N) [dirs])`."""

from __future__ import annotations

# Every ludeme here declares its concepts (none where it has no `concepts` line).
CONCEPTS_REVIEWED = True

from .base import DirWord, IntFn, P, RoleType, SiteType, ludeme


@ludeme("size", "Territory")
class SizeTerritory(IntFn):
    """`(size Territory P1 [Orthogonal])`: how many empty sites lie in areas bordered only
    by the player's pieces. Example (a score at the end of Go):

        (score P1 (+ (count Pieces P1) (size Territory P1)))

    As Ludii's SizeTerritory, to the letter: it joins each empty site to the earlier
    empty neighbours found in the directions (Orthogonal by default) with a union-find,
    and marks each area with the sites it saw; the list of neighbours it scans is never
    emptied between sites, so an area also "sees" the neighbours of every empty site
    scanned before it. An area counts its empty sites when none of the sites it saw
    holds another player's piece."""
    concepts = ("Territory",)

    params = (P("type", SiteType, opt=True), P("role", (RoleType, "PlayerFn")),
              P("dirn", DirWord, opt=True))

    def compile(self, env):
        who_fn = env.role_id(self.role, self) if isinstance(self.role, str) \
            else env.compile(self.role)
        steps = env.step_targets(self.dirn or "Orthogonal", self)
        n = env.num_board_sites

        def find(parent, x):
            while parent[x] not in (-1, x):
                x = parent[x]
            return x

        def size_territory(c):
            who = c.s.who
            player = who_fn(c)
            parent = [-1] * n
            rank = [0] * n
            seen = [set() for _ in range(n)]
            scanned: list[int] = []          # Ludii's nList, never cleared
            for k in range(n):
                if who[k] != 0:
                    continue
                parent[k] = k
                seen[k].add(k)
                scanned.extend(steps[k])
                seen[k].update(scanned)
                for i, ni in enumerate(scanned):
                    if who[ni] != 0 or ni >= k:
                        continue
                    if any(who[nj] == 0 and find(parent, ni) == find(parent, nj)
                           for nj in scanned[i + 1:]):
                        continue
                    p, q = find(parent, ni), find(parent, k)
                    if rank[p] < rank[q]:
                        parent[p] = q
                        seen[q] |= seen[p]
                    else:
                        parent[q] = p
                        seen[p] |= seen[q]
                        if rank[p] == rank[q]:
                            rank[p] += 1
            total = 0
            for i in range(n):
                if parent[i] == i and all(who[m] in (0, player) for m in seen[i]):
                    total += sum(1 for m in seen[i] if who[m] == 0)
            return total
        return size_territory
