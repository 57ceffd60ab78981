"""Playing in a browser: the viewer page (`ludeme.analysis.viewer`) served on 127.0.0.1,
with a person at one seat and an agent (`ludeme.ai.agents`) at every other.

The server holds the game (`PlaySession`); the page asks it for the game so far and the
legal moves (`GET /state`), sends the chosen move's index (`POST /move`), takes moves
back to the person's previous decision (`POST /undo`), and can stop the server
(`POST /quit`). The server answers one request at a time and stops by itself after
`idle` seconds without a request.
"""

from __future__ import annotations

import json
import random
import time
from http.server import BaseHTTPRequestHandler, HTTPServer

from ludeme.engine.state import Game
from ludeme.analysis.viewer import apply_recorded, page_data, render_page, result_text, snapshot
from ludeme.engine.notation import move_names

DEFAULT_IDLE_SECONDS = 1800.0


class PlaySession:
    """A game between a person (`human`, a player number) and `opponent` at every other
    seat; the opponent draws from `random.Random(seed)`, the chance stream from `seed`."""

    def __init__(self, game: Game, human: int, opponent, seed: int = 0):
        from ludeme.ai.agents import check_agents
        check_agents(game, [opponent])
        self.game, self.human, self.opponent = game, human, opponent
        self.rng = random.Random(seed)
        self.state = game.new_initial_state(seed)
        self.steps = [{"s": snapshot(self.state)}]
        self.saved: list[tuple] = []      # before each of the person's moves: what undo restores
        self._opponents_move()

    def _opponents_move(self) -> None:
        state = self.state
        while not state.is_terminal() and state.current_player() != self.human:
            i = self.opponent.choose(state, self.rng)
            self.steps.append(apply_recorded(state, state.legal_moves()[i]))

    def legal(self) -> list[dict]:
        """The person's legal moves (none while it is not their turn): index, name, and the
        board sites to click (from, to; -1 where the move has none on the board)."""
        state = self.state
        if state.is_terminal() or state.current_player() != self.human:
            return []
        n = self.game.containers[0].num_sites
        moves = state.legal_moves()
        names = move_names(self.game, moves)     # unique, as `ludeme play` names them
        return [{"i": i, "n": names[i],
                 "f": m.frm if 0 <= m.frm < n and m.frm != m.to else -1,
                 "t": m.to if 0 <= m.to < n else -1}
                for i, m in enumerate(moves)]

    def view(self) -> dict:
        """What the page shows: every step so far, the legal moves, the result."""
        return {"steps": self.steps, "legal": self.legal(),
                "result": result_text(self.state) if self.state.is_terminal() else ""}

    def move(self, index: int) -> None:
        """Play the person's move `index`, then the opponent's until the person's turn."""
        legal = self.state.legal_moves() if self.legal() else []
        if not 0 <= index < len(legal):
            raise ValueError(f"no legal move {index}")
        self.saved.append((self.state.clone(), len(self.steps), self.rng.getstate()))
        self.steps.append(apply_recorded(self.state, legal[index]))
        self._opponents_move()

    def undo(self) -> None:
        """Back to before the person's last move (nothing when there is none)."""
        if self.saved:
            self.state, k, rng = self.saved.pop()
            del self.steps[k:]
            self.rng.setstate(rng)

    def page(self) -> str:
        """The page that plays this session."""
        data = page_data(self.game, [], None, f"you are P{self.human}, against "
                         f"{self.opponent.name}", mode="play")
        data["human"] = self.human
        return render_page(self.game, data)


def make_server(session: PlaySession, port: int = 0) -> HTTPServer:
    """An HTTP server for `session` on 127.0.0.1 (`port` 0: any free port)."""
    page = session.page().encode("utf-8")

    class Handler(BaseHTTPRequestHandler):
        def _send(self, code: int, body: bytes, kind: str) -> None:
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def _json(self) -> None:
            self._send(200, json.dumps(session.view()).encode(), "application/json")

        def do_GET(self):
            if self.path in ("/", "/index.html"):
                self._send(200, page, "text/html; charset=utf-8")
            elif self.path == "/state":
                self._json()
            else:
                self._send(404, b"not found", "text/plain")

        def do_POST(self):
            length = min(int(self.headers.get("Content-Length") or 0), 100)
            body = self.rfile.read(length).decode("ascii", "replace").strip()
            if self.path == "/move":
                try:
                    session.move(int(body))
                except ValueError as e:
                    self._send(400, str(e).encode(), "text/plain")
                    return
                self._json()
            elif self.path == "/undo":
                session.undo()
                self._json()
            elif self.path == "/quit":
                self.server.quit = True
                self._send(200, b"{}", "application/json")
            else:
                self._send(404, b"not found", "text/plain")

        def log_message(self, format, *args):     # quiet: the terminal shows the moves
            pass

    server = _Server(("127.0.0.1", port), Handler)
    server.timeout = 0.25
    return server


class _Server(HTTPServer):
    """An HTTP server that notes whether the last wait for a request timed out."""

    quit = False
    idle = False

    def handle_timeout(self) -> None:
        self.idle = True


def serve(server: HTTPServer, idle: float = DEFAULT_IDLE_SECONDS) -> None:
    """Answer requests until the page asks to quit or none came for `idle` seconds."""
    last = time.monotonic()
    try:
        while not server.quit and time.monotonic() - last < idle:
            server.idle = False
            server.handle_request()         # one request, or none within server.timeout
            if not server.idle:
                last = time.monotonic()
    finally:
        server.server_close()
