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


# Compiled forms (`ludeme.engine.compiled.emit`) ------------------------------------------

from ludeme.engine.compiled.emit import emits  # noqa: E402


@emits(SizeTerritory, kind="int")
def _size_territory(src, lud):
    """The reference's union-find to the letter, in a helper kernel: the scanned
    neighbours kept in one growing array, the sites each area saw as a row of flags."""
    from .groups import step_tables
    n, t_nb, t_len = step_tables(src, lud, "Orthogonal")
    steps = src.env.step_targets(lud.dirn or "Orthogonal", lud)
    room = max(1, sum(len(steps[s]) for s in range(n)))       # the scanned list at most
    who_is = src.role_expr(lud.role, lud) if isinstance(lud.role, str) else \
        src.int_expr(lud.role)

    def make(name):
        return "\n".join([
            "@njit(cache=True)", f"def {name}(who, owner):",
            f"    parent = np.full({n}, -1, np.int64)",
            f"    rank = np.zeros({n}, np.int64)",
            f"    seen = np.zeros(({n}, {n}), np.bool_)",
            f"    scanned = np.empty({room}, np.int64)",
            "    ns = 0",
            f"    for k in range({n}):",
            "        if who[k] != 0:",
            "            continue",
            "        parent[k] = k",
            "        seen[k, k] = True",
            f"        for j in range({t_len}[k]):",
            f"            scanned[ns] = {t_nb}[k, j]",
            "            ns += 1",
            "        for j in range(ns):",
            "            seen[k, scanned[j]] = True",
            "        for i in range(ns):",
            "            ni = scanned[i]",
            "            if who[ni] != 0 or ni >= k:",
            "                continue",
            "            ri = ni",
            "            while parent[ri] != -1 and parent[ri] != ri:",
            "                ri = parent[ri]",
            "            joined = False",
            "            for j in range(i + 1, ns):",
            "                nj = scanned[j]",
            "                if who[nj] != 0:",
            "                    continue",
            "                while parent[nj] != -1 and parent[nj] != nj:",
            "                    nj = parent[nj]",
            "                if nj == ri:",
            "                    joined = True",
            "                    break",
            "            if joined:",
            "                continue",
            "            p = ri",
            "            q = k",
            "            while parent[q] != -1 and parent[q] != q:",
            "                q = parent[q]",
            "            if rank[p] < rank[q]:",
            "                p, q = q, p",           # q joins p, whose sites take in q's
            "                parent[q] = p",
            "            else:",
            "                parent[q] = p",
            "                if rank[p] == rank[q]:",
            "                    rank[p] += 1",
            f"            for m in range({n}):",
            "                if seen[q, m]:",
            "                    seen[p, m] = True",
            "    total = 0",
            f"    for i in range({n}):",
            "        if parent[i] != i:",
            "            continue",
            "        ok = True",
            "        empties = 0",
            f"        for m in range({n}):",
            "            if seen[i, m]:",
            "                if who[m] == 0:",
            "                    empties += 1",
            "                elif who[m] != owner:",
            "                    ok = False",
            "                    break",
            "        if ok:",
            "            total += empties",
            "    return total", ""])
    return f"{src.helper(make)}(who, {who_is})"
