"""The ``rgb_array`` picture of a game, drawn with numpy alone from the game's public board
(where each place is drawn) and its hidden world: a grid as its cells, a cave as its rooms and
tunnels. Colours: pit black, live wumpus red, dead wumpus dark red, gold yellow, bats purple,
the player blue (with a white mark on the side it faces)."""

import numpy as np

FLOOR = (200, 200, 200)
COLOURS = {
    "pits": (20, 20, 20),
    "wumpus": (210, 40, 40),
    "dead_wumpus": (110, 20, 20),
    "bats": (140, 60, 180),
    "gold": (240, 200, 30),
}
PLAYER = (40, 90, 220)
CELL = 32
SIDE = 256


def _marks(hidden):
    marks = {}
    for key, colour in COLOURS.items():
        for label in hidden.get(key, []):
            marks.setdefault(label, []).append(colour)
    return marks


def _fill(img, top, left, size, colours):
    """Fills a square with the colours of what is in it, side by side."""
    if not colours:
        img[top : top + size, left : left + size] = FLOOR
        return
    width = max(1, size // len(colours))
    for i, colour in enumerate(colours):
        img[top : top + size, left + i * width : left + (i + 1) * width if i < len(colours) - 1 else left + size] = colour


def _player(img, top, left, size, facing):
    q = size // 4
    img[top + q : top + size - q, left + q : left + size - q] = PLAYER
    if facing:
        mid, t = size // 2, max(2, size // 10)
        spot = {
            "north": (top + q, left + mid - t),
            "south": (top + size - q - t, left + mid - t),
            "east": (top + mid - t, left + size - q - t),
            "west": (top + mid - t, left + q),
        }.get(facing)
        if spot:
            img[spot[0] : spot[0] + t, spot[1] : spot[1] + 2 * t if facing in ("north", "south") else spot[1] + t] = (255, 255, 255)


def draw(board, hidden, at, facing=None):
    """An ``(H, W, 3)`` ``uint8`` picture of the board with the hidden world and the player."""
    marks = _marks(hidden)
    if board["shape"] == "grid":
        rows, cols = board["rows"], board["cols"]
        img = np.full((rows * CELL, cols * CELL, 3), 90, dtype=np.uint8)
        for place in board["places"]:
            col = int(place["x"] * cols)
            row = int(place["y"] * rows)
            top, left = row * CELL + 1, col * CELL + 1
            _fill(img, top, left, CELL - 2, marks.get(place["label"], []))
            if place["label"] == at:
                _player(img, top, left, CELL - 2, facing)
        return img
    img = np.full((SIDE, SIDE, 3), 60, dtype=np.uint8)
    size, margin = 14, 12
    span = SIDE - 2 * margin - size

    def corner(p):
        return margin + int(p["y"] * span), margin + int(p["x"] * span)

    places = board["places"]
    for edge in board["edges"]:
        (y0, x0), (y1, x1) = corner(places[edge["from"]]), corner(places[edge["to"]])
        for t in np.linspace(0.0, 1.0, 64):
            y, x = int(y0 + t * (y1 - y0)) + size // 2, int(x0 + t * (x1 - x0)) + size // 2
            img[y, x] = (150, 150, 150)
    for place in places:
        top, left = corner(place)
        _fill(img, top, left, size, marks.get(place["label"], []))
        if place["label"] == at:
            _player(img, top, left, size, None)
    return img
