"""A picture of a game: an RGB image of the table (``render_mode="rgb_array"``), drawn with
Pillow; its words come from [`friday_env.text`][friday_env.text] (which also gives ``"ansi"``).

It shows only open information (R26) and aims at one thing: that a person understands the
situation from one frame — what is fought and its value, the cards on the table with their
values and flags, Robinson's life, the step, the piles and the pending decision.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from friday_env.actions import PHASE_NAMES, Phase
from friday_env.cards import (
    FREE,
    HAZARD_VALUES,
    KEY,
    KIND,
    SPECIAL,
    VALUE,
    Kind,
    PirateSpecial,
)
from friday_env.core import Game
from friday_env.engine import DOUBLED, DOWN, LEFT, PIRATES, STEP_NAMES, USED
from friday_env.text import ability_text, piles_lines

if TYPE_CHECKING:
    from PIL import ImageDraw, ImageFont

WIDTH, HEIGHT = 960, 640

_BACKGROUND = (24, 60, 52)
_HEADER = (14, 34, 30)
_TEXT = (240, 240, 230)
_DIM = (170, 185, 175)
_KIND_COLOURS = {
    Kind.STARTING: (222, 196, 150),
    Kind.AGING: (170, 140, 200),
    Kind.HAZARD: (150, 196, 230),
}
_HAZARD_COLOUR = (214, 120, 60)
_PIRATE_COLOUR = (150, 40, 40)
_WIN = (90, 200, 110)
_LOSE = (235, 90, 80)


@lru_cache(maxsize=8)
def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


def _fit(draw: ImageDraw.ImageDraw, text: str, width: int, size: int) -> str:
    """Cut ``text`` so it fits in ``width`` pixels at ``size``."""
    font = _font(size)
    while text and draw.textlength(text, font=font) > width:
        text = text[:-1]
    return text


def _wrap(draw: ImageDraw.ImageDraw, text: str, width: int, size: int) -> list[str]:
    font = _font(size)
    lines, line = [], ""
    for word in text.replace("/", "/ ").split(" "):
        trial = (line + " " + word if line and not line.endswith("/") else line + word).strip()
        if draw.textlength(trial, font=font) <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    return [*lines, line] if line else lines


class _Canvas:
    def __init__(self) -> None:
        from PIL import Image, ImageDraw

        self.image = Image.new("RGB", (WIDTH, HEIGHT), _BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)

    def text(self, xy: tuple[float, float], text: str, size: int = 14, fill=_TEXT) -> None:
        self.draw.text(xy, text, font=_font(size), fill=fill)

    def box(self, xy: tuple[float, float, float, float], fill, outline=(20, 20, 20)) -> None:
        self.draw.rounded_rectangle(xy, radius=8, fill=fill, outline=outline, width=2)


def _header(canvas: _Canvas, game: Game) -> None:
    canvas.draw.rectangle((0, 0, WIDTH, 44), fill=_HEADER)
    step = STEP_NAMES[game.step]
    canvas.text(
        (16, 12), f"FRIDAY  level {game.level}  |  {step} step  |  fights {game.fights}", 18
    )
    life = f"life {game.life}   reserve {game.reserve}"
    canvas.text((WIDTH - 16 - canvas.draw.textlength(life, font=_font(18)), 12), life, 18)
    bar_x = 640
    for i in range(22):  # life tokens: filled for life, hollow for the reserve
        x = bar_x - 22 * 9 + i * 9
        colour = _LOSE if i < game.life else None
        canvas.draw.ellipse((x, 32, x + 6, 38), fill=colour, outline=_LOSE)


def _hazard_card(canvas: _Canvas, game: Game, card: int, xy: tuple[int, int], size=(200, 250)):
    x, y = xy
    w, h = size
    pirate = KIND[card] == Kind.PIRATE
    canvas.box((x, y, x + w, y + h), (245, 235, 215))
    canvas.draw.rounded_rectangle(
        (x, y, x + w, y + 34), radius=8, fill=_PIRATE_COLOUR if pirate else _HAZARD_COLOUR
    )
    canvas.text((x + 8, y + 9), _fit(canvas.draw, KEY[card], w - 16, 15), 15)
    fighting = card == game.hazard
    if pirate:
        value = game.pirate_value if fighting else HAZARD_VALUES[card][0]
        label = "to beat"
    else:
        value = game.fight_value() if fighting else HAZARD_VALUES[card][min(game.step, 2)]
        label = f"to beat ({STEP_NAMES[max(0, min(game.step, 2) - game.step_down * fighting)]})"
    canvas.text((x + 12, y + 44), label, 13, (60, 60, 60))
    canvas.text((x + 12, y + 60), str(value), 44, (30, 30, 30))
    free = f"{FREE[card]} free cards" if not fighting else f"free {game.free_total}"
    canvas.text((x + 12, y + 116), free, 14, (30, 30, 30))
    if fighting:
        left = game.free_total - game.free_used
        canvas.text((x + 12, y + 134), f"free draws left: {left}", 14, (30, 30, 30))
    if pirate and SPECIAL[card] != PirateSpecial.NONE:
        for i, line in enumerate(_wrap(canvas.draw, SPECIAL[card].name.lower(), w - 24, 13)):
            canvas.text((x + 12, y + 156 + 16 * i), line, 13, (120, 30, 30))
    if not pirate:  # the knowledge side a win adds to the deck
        canvas.draw.line((x + 8, y + h - 62, x + w - 8, y + h - 62), fill=(150, 150, 150))
        canvas.text((x + 12, y + h - 56), "if beaten, joins the deck:", 12, (90, 90, 90))
        side = f"value {VALUE[card]}  {ability_text(card)}"
        canvas.text((x + 12, y + h - 38), _fit(canvas.draw, side, w - 24, 14), 14, (30, 30, 90))


def _grid(n: int, width: int, height: int) -> tuple[int, int, int]:
    """Columns and card size so ``n`` cards fit in the table area."""
    card_w, card_h = 108, 132
    while True:
        columns = max(1, (width + 8) // (card_w + 8))
        rows = -(-n // columns) if n else 1
        if rows * (card_h + 8) <= height or card_w <= 40:
            return columns, card_w, card_h
        card_w, card_h = int(card_w * 0.85), int(card_h * 0.85)


def _table_card(canvas: _Canvas, card: int, flags: int, value: int, slot: int, box) -> None:
    """One table card: kind stripe, slot and side, value (top right), name, ability, flags.
    Sizes follow the box so a crowded table (a pirate fight) stays readable."""
    x, y, w, h = box
    down = flags & DOWN
    canvas.box(
        (x, y, x + w, y + h),
        (120, 120, 120) if down else (250, 248, 240),
        outline=_WIN if flags & LEFT else (30, 30, 30),
    )
    stripe = max(4, h // 12)
    canvas.draw.rectangle((x + 2, y + 2, x + w - 2, y + stripe), fill=_KIND_COLOURS[KIND[card]])
    small = max(9, h // 10)
    big = max(14, h // 4)
    text = f"{value}x2" if flags & DOUBLED else str(value)
    colour = (20, 20, 20) if value >= 0 else (170, 30, 30)
    value_width = canvas.draw.textlength(text, font=_font(big))
    canvas.text((x + w - 4 - value_width, y + stripe + 1), text, big, colour)
    side = "free" if flags & LEFT else "paid"
    canvas.text((x + 4, y + stripe + 2), f"#{slot} {side}", small, (80, 80, 80))
    line_y = y + stripe + max(big, 2 * small) + 4
    for line in _wrap(canvas.draw, KEY[card], w - 8, small)[:2]:
        canvas.text((x + 4, line_y), line, small, (20, 20, 20))
        line_y += small + 1
    ability = ability_text(card)
    if ability:
        ability = _fit(canvas.draw, ability, w - 8, small)
        canvas.text((x + 4, y + h - 2 * small - 5), ability, small, (30, 30, 120))
    if flags & USED:
        canvas.text((x + 4, y + h - small - 4), "USED", small, (170, 90, 0))
    if down:
        canvas.draw.line((x + 4, y + 4, x + w - 4, y + h - 4), fill=(40, 40, 40), width=3)
        canvas.text((x + 4, y + h - small - 4), "DESTROYED", small, (250, 250, 250))


def _table(canvas: _Canvas, game: Game, area: tuple[int, int, int, int]) -> None:
    x0, y0, width, height = area
    columns, w, h = _grid(len(game.table), width, height)
    values = game.card_values()
    for slot, (card, flags) in enumerate(zip(game.table, game.flags, strict=True)):
        row, col = divmod(slot, columns)
        box = (x0 + col * (w + 8), y0 + row * (h + 8), w, h)
        _table_card(canvas, card, flags, values[slot], slot, box)


def _fight_summary(canvas: _Canvas, game: Game, xy: tuple[int, int]) -> None:
    total, value = game.fight_total(), game.fight_value()
    colour = _WIN if total >= value else _LOSE
    canvas.text(xy, f"total {total} vs {value}", 24, colour)
    outcome = "winning" if total >= value else f"losing by {value - total}"
    if game.phase == Phase.LOSS_DESTROY:
        outcome = f"lost: destroy budget {game.budget}"
    canvas.text((xy[0], xy[1] + 30), outcome, 16, colour)


def _legend(canvas: _Canvas, xy: tuple[int, int]) -> None:
    x: float = xy[0]
    y = xy[1]
    for kind, label in (
        (Kind.STARTING, "starting"),
        (Kind.AGING, "aging"),
        (Kind.HAZARD, "knowledge"),
    ):
        canvas.draw.rectangle((x, y + 3, x + 14, y + 13), fill=_KIND_COLOURS[kind])
        canvas.text((x + 20, y), label, 13, _DIM)
        x += 30 + canvas.draw.textlength(label, font=_font(13))


def _offer(canvas: _Canvas, game: Game) -> None:
    cards = game.pirates if game.phase == Phase.CHOOSE_PIRATE else game.offer
    label = "choose a pirate" if game.phase == Phase.CHOOSE_PIRATE else "choose a hazard"
    canvas.text((16, 56), label, 16, _DIM)
    for k, card in enumerate(cards):
        _hazard_card(canvas, game, card, (16 + k * 220, 80), (200, 250))


def _bottom(canvas: _Canvas, game: Game, legal: Sequence[int], last_action: str) -> None:
    y = 460
    canvas.draw.rectangle((0, y - 8, WIDTH, HEIGHT), fill=_HEADER)
    for line in piles_lines(game):
        canvas.text((16, y), _fit(canvas.draw, line, WIDTH - 32, 14), 14, _DIM)
        y += 20
    if game.sort_taken:
        hand = "sort hand: " + ", ".join(KEY[c] for c in game.sort_taken)
        canvas.text((16, y), hand, 14, _TEXT)
        y += 20
    if last_action:
        canvas.text((16, y), _fit(canvas.draw, f"last: {last_action}", WIDTH - 32, 14), 14, _DIM)
        y += 20
    if game.done:
        result = f"GAME OVER: {'WON' if game.won else 'LOST'}, score {game.score()}"
        canvas.text((16, y + 4), result, 22, _WIN if game.won else _LOSE)
        return
    canvas.text((16, y), f"decision: {PHASE_NAMES[game.phase]}", 15, _TEXT)
    y += 20
    options = "  |  ".join(game.describe(a) for a in legal)
    for line in _wrap(canvas.draw, options, WIDTH - 32, 13)[: max(1, (HEIGHT - y) // 16)]:
        canvas.text((16, y), line, 13, _TEXT)
        y += 16


def render_rgb(game: Game, legal: Sequence[int] | None = None, last_action: str = "") -> np.ndarray:
    """The table as an ``(HEIGHT, WIDTH, 3)`` uint8 image (``render_mode="rgb_array"``)."""
    legal = game.legal_actions() if legal is None else legal
    canvas = _Canvas()
    _header(canvas, game)
    if game.hazard >= 0:
        canvas.text((16, 56), "fighting" if game.step < PIRATES else "pirate fight", 16, _DIM)
        _hazard_card(canvas, game, game.hazard, (16, 80))
        _fight_summary(canvas, game, (16, 340))
        canvas.text((250, 56), f"table ({len(game.table)} cards; green border = free)", 16, _DIM)
        _table(canvas, game, (250, 80, WIDTH - 266, 344))
        _legend(canvas, (250, 428))
    elif game.offer or game.phase == Phase.CHOOSE_PIRATE:
        _offer(canvas, game)
    _bottom(canvas, game, legal, last_action)
    return np.asarray(canvas.image, dtype=np.uint8).copy()
