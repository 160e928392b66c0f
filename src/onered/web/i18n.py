"""The web pages' words in Russian and English.

The referee's calls, fouls, scoring parts and foul options come from ``onered.texts`` (the
one place their texts live); this module adds the page's own labels, and the names of balls,
spots and the marker's taps. :func:`bundle` gives the front end everything for one language.
Labels may hold ``{name}`` fields that the page fills in.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import Enum
from typing import TypeVar

from onered.rules import Ball, FoulCode
from onered.table import Spot
from onered.texts import CALLS, FOULS, OPTIONS, SCORES, Lang
from onered.web.marking import Part

RU, EN = Lang.RU, Lang.EN
_E = TypeVar("_E", bound=Enum)


def _t(ru: str, en: str) -> dict[Lang, str]:
    return {RU: ru, EN: en}


BALLS: dict[Ball, dict[Lang, str]] = {
    Ball.WHITE: _t("белый", "white"),
    Ball.YELLOW: _t("жёлтый", "yellow"),
    Ball.RED: _t("красный", "red"),
}

#: Spots, as the marker's instruction names them: "the red on the …" / «красный — на …».
SPOTS: dict[Spot, dict[Lang, str]] = {
    Spot.BILLIARDS: _t("особую отметку", "billiards spot"),
    Spot.PYRAMID: _t("пирамидную отметку", "pyramid spot"),
    Spot.CENTRE: _t("центральную отметку", "centre spot"),
    Spot.BAULK_MIDDLE: _t("середину линии дома", "middle of the baulk line"),
    Spot.D_RIGHT: _t("правый угол сектора", "right-hand corner of the D"),
    Spot.D_LEFT: _t("левый угол сектора", "left-hand corner of the D"),
}

#: The marker's taps; ``{opp}`` is the opponent's ball's colour (genitive / plain).
PARTS: dict[Part, dict[Lang, str]] = {
    Part.CANNON: _t("Карамболь", "Cannon"),
    Part.POT_RED: _t("Красный в лузе", "Pot red"),
    Part.POT_OPPONENT: _t("{opp_ru} в лузе", "Pot {opp}"),
    Part.IN_OFF_RED: _t("Свояк от красного", "In-off red"),
    Part.IN_OFF_OPPONENT: _t("Свояк от {opp_gen}", "In-off {opp}"),
    Part.NO_SCORE: _t("Без очков", "No score"),
    Part.MISS: _t("Промах", "Miss"),
}

#: Ball names as the part labels need them: nominative capitalised, genitive.
BALL_FORMS: dict[Ball, dict[str, str]] = {
    Ball.WHITE: {"ru": "Белый", "gen": "белого", "en": "white"},
    Ball.YELLOW: {"ru": "Жёлтый", "gen": "жёлтого", "en": "yellow"},
    Ball.RED: {"ru": "Красный", "gen": "красного", "en": "red"},
}

#: The pages' own labels.
UI: dict[str, dict[Lang, str]] = {
    # common
    "app.title": _t("Снукер ‑ 1 красный", "Snooker-1-Red"),
    "app.tagline": _t(
        "Английский бильярд тремя шарами: играть в браузере и вести протокол матча",
        "English billiards with three balls: play in the browser, mark real matches",
    ),
    "nav.home": _t("Главная", "Home"),
    "nav.language": _t("Язык", "Language"),
    "common.target": _t("До", "Target"),
    "common.break": _t("Серия", "Break"),
    "common.score": _t("Счёт", "Score"),
    "common.stroke": _t("Удар", "Stroke"),
    "common.strokes": _t("Ударов", "Strokes"),
    "common.player": _t("Игрок", "Player"),
    "common.from_d": _t("с руки из сектора", "from the D"),
    "common.winner": _t("Победитель: {name}", "Winner: {name}"),
    "common.to_play": _t("Играет {name}", "{name} to play"),
    "common.chooses": _t("{name} выбирает", "{name} chooses"),
    "common.watch_link": _t("Трансляция для зрителей", "Spectators' live view"),
    "common.record_link": _t("Запись партии", "Game record"),
    "common.mark_link": _t("Протокол (маркёр)", "Marker's page"),
    "common.play_link": _t("Продолжить игру", "Continue playing"),
    "common.read_only": _t(
        "Только просмотр: для изменений нужен секрет партии.",
        "Read only: changing this game needs its secret.",
    ),
    "common.secret": _t("Секрет партии", "Game secret"),
    "common.secret_hint": _t(
        "Секрет выдан создателю партии. Сохраните ссылку, чтобы продолжить с другого устройства:",
        "The secret was given to the game's creator. Keep this link to go on from another device:",
    ),
    "common.secret_ok": _t("Принять", "Use it"),
    "common.secret_bad": _t("Это не секрет этой партии", "This is not the game's secret"),
    "common.counters": _t(
        "Карамболей подряд {cannons}/75 · сыгрываний подряд {hazards}/15",
        "Cannons in a row {cannons}/75 · hazards in a row {hazards}/15",
    ),
    "common.baulk_required": _t(
        "Нужно пересечь линию дома (серия {lo}–{hi})",
        "The baulk line must be crossed (break {lo}–{hi})",
    ),
    "common.in_hand": _t("{ball} с руки", "{ball} in hand"),
    "common.place": _t("{ball} — на {spot}", "{ball} on the {spot}"),
    "common.place_point": _t("{ball} — в точку {point}", "{ball} at {point}"),
    "common.undo": _t("Отменить удар", "Undo"),
    "common.conflict": _t(
        "Партия изменилась на другом устройстве — обновлено.",
        "The game changed elsewhere — reloaded.",
    ),
    "common.scored": _t("{points} очк.", "{points} pts"),
    "common.penalty": _t("штраф {points} в пользу соперника", "foul: {points} to the opponent"),
    "common.no_score": _t("без очков", "no score"),
    "common.choice": _t("выбор", "choice"),
    # home page
    "home.mark.title": _t("Вести протокол матча", "Mark a real match"),
    "home.mark.intro": _t(
        "Маркёр отмечает каждый удар одной кнопкой; рефери считает очки, серии, лимиты и "
        "объявления.",
        "The marker taps each stroke's outcome; the referee counts points, breaks and limits "
        "and makes the calls.",
    ),
    "home.play.title": _t("Играть", "Play"),
    "home.play.intro": _t(
        "Партия на смоделированном столе 12 футов: против компьютера или вдвоём за одним экраном.",
        "A game on the simulated 12 ft table: against the computer, or two people at one screen.",
    ),
    "home.import.title": _t("Загрузить партию", "Import a game"),
    "home.import.intro": _t(
        "Файл протокола рефери (JSON Lines) или запись партии.",
        "A referee-protocol file (JSON Lines) or a game record.",
    ),
    "home.import.button": _t("Загрузить", "Import"),
    "home.games.title": _t("Партии", "Games"),
    "home.games.empty": _t("Пока нет ни одной партии.", "No games yet."),
    "home.player1": _t("Первый игрок", "First player"),
    "home.player2": _t("Второй игрок", "Second player"),
    "home.you": _t("Ваше имя", "Your name"),
    "home.target": _t("Партия до (очков)", "Game to (points)"),
    "home.breaker": _t("Разбивает", "Breaks"),
    "home.breaker_ball": _t("Шар разбивающего", "Breaker's ball"),
    "home.opponent": _t("Соперник", "Opponent"),
    "home.opponent.ai": _t("Компьютер", "Computer"),
    "home.opponent.human": _t("Второй игрок за этим экраном", "A second player at this screen"),
    "home.strength": _t("Сила компьютера", "Computer's strength"),
    "home.strength.beginner": _t("новичок", "beginner"),
    "home.strength.amateur": _t("любитель", "amateur"),
    "home.strength.pro": _t("профессионал", "pro"),
    "home.ai_name": _t("Компьютер", "Computer"),
    "home.start_mark": _t("Начать протокол", "Start marking"),
    "home.start_play": _t("Начать игру", "Start the game"),
    "home.mode.mark": _t("протокол", "marked"),
    "home.mode.play": _t("игра", "played"),
    "home.mode.import": _t("загружена", "imported"),
    "home.col.players": _t("Игроки", "Players"),
    "home.col.mode": _t("Вид", "Kind"),
    "home.col.status": _t("Состояние", "Status"),
    "home.col.open": _t("Открыть", "Open"),
    "home.status.on": _t("идёт", "in progress"),
    "home.status.won": _t("выиграл {name}", "won by {name}"),
    # mark page
    "mark.title": _t("Протокол матча", "Marking"),
    "mark.outcome": _t("Исход удара", "Stroke outcome"),
    "mark.flags": _t("Отметки к удару", "With this stroke"),
    "mark.first_hit": _t("Первым задет", "First hit"),
    "mark.first_hit.auto": _t("по исходу", "from outcome"),
    "mark.first_hit.both": _t("оба сразу", "both at once"),
    "mark.crossed_baulk": _t("Пересёк линию дома", "Crossed baulk line"),
    "mark.touching": _t("Соприкасающийся шар", "Touching ball"),
    "mark.off_table": _t("Вылетел за борт", "Off the table"),
    "mark.own_ball": _t("свой", "own"),
    "mark.fouls": _t("Штраф с кодом", "Foul with its code"),
    "mark.foul_out_of_turn": _t("удар вне очереди", "played out of turn"),
    "mark.no_stroke": _t("Штраф до удара", "Foul before the stroke"),
    "mark.combine": _t("Сочетание", "Combine"),
    "mark.combine_hint": _t(
        "Shift + клавиша или «Сочетание»: набрать несколько исходов, затем Enter.",
        "Shift + key or “Combine”: collect several parts, then Enter.",
    ),
    "mark.enter": _t("Записать удар", "Enter stroke"),
    "mark.clear": _t("Сбросить", "Clear"),
    "mark.claim": _t("Заявить штраф", "Claim a foul"),
    "mark.claim_hint": _t(
        "Выберите код штрафа за последний удар (до следующего удара, п. 2.12.4).",
        "Pick the foul code for the last stroke (before the next stroke, 2.12.4).",
    ),
    "mark.option_title": _t("{name} выбирает после штрафа", "{name} chooses after the foul"),
    "mark.log": _t("Ход партии", "Strokes"),
    "mark.nothing": _t("Ничего не отмечено", "Nothing marked"),
    "mark.composer": _t("Набрано", "Collected"),
    # watch page
    "watch.title": _t("Трансляция", "Live"),
    "watch.updated": _t("обновляется автоматически", "updates by itself"),
    # record page
    "record.title": _t("Запись партии", "Game record"),
    "record.progression": _t("Ход счёта", "Score progression"),
    "record.best_breaks": _t("Лучшие серии", "Best breaks"),
    "record.log": _t("Удары", "Stroke log"),
    "record.export": _t("Выгрузить:", "Export:"),
    "record.export_jsonl": _t("Протокол рефери (JSON Lines)", "Referee protocol (JSON Lines)"),
    "record.export_record": _t("Запись партии (JSON Lines)", "Game record (JSON Lines)"),
    "record.col.no": _t("№", "#"),
    "record.col.striker": _t("Игрок", "Player"),
    "record.col.what": _t("Что произошло", "What happened"),
    "record.col.points": _t("Очки", "Points"),
    "record.col.break": _t("Серия", "Break"),
    "record.col.score": _t("Счёт", "Score"),
    "record.col.calls": _t("Объявления", "Calls"),
    "record.col.strokes": _t("Удары", "Strokes"),
    "record.no_breaks": _t("Серий пока нет.", "No breaks yet."),
    "record.mode": _t("Вид партии: {mode}", "Kind: {mode}"),
    # play page
    "play.title": _t("Игра", "Play"),
    "play.power": _t("Сила удара", "Power"),
    "play.speed": _t("{speed} м/с", "{speed} m/s"),
    "play.tip": _t("Точка удара", "Tip offset"),
    "play.tip_hint": _t("винт: бок, накат, оттяжка", "side, top, back"),
    "play.elevation": _t("Наклон кия", "Cue elevation"),
    "play.aim_line": _t("Линия прицела", "Aiming line"),
    "play.strike": _t("Удар", "Strike"),
    "play.place": _t(
        "Поставьте биток в сектор: щёлкните в полукруге «D».",
        "Place the cue ball in the D: click inside the semicircle.",
    ),
    "play.aim_hint": _t(
        "Прицел: тяните мышью по столу; ←/→ — точнее, пробел — удар.",
        "Aim: drag on the table; ←/→ to fine-tune, space to strike.",
    ),
    "play.move_ball": _t("Переставить биток", "Move the cue ball"),
    "play.thinking": _t("{name} думает…", "{name} is thinking…"),
    "play.your_turn": _t("Ваш удар, {name}", "Your stroke, {name}"),
    "play.verdict": _t("Решение рефери", "Referee's verdict"),
    "play.choose": _t("Ваш выбор после штрафа соперника", "Your choice after the opponent's foul"),
    "play.aim": _t("Направление", "Aim"),
    "play.stopped": _t(
        "{name} не смог сделать ход. Попробуйте ещё раз.",
        "{name} could not play. Try again.",
    ),
    "play.retry": _t("Повторить", "Try again"),
    # errors the server names by code (``{"error": ..., "code": ...}``), and the network's
    "error.network": _t(
        "Нет связи с сервером. Проверьте соединение и повторите.",
        "The server cannot be reached. Check the connection and try again.",
    ),
    "error.timeout": _t(
        "Сервер не ответил вовремя. Повторите попытку.",
        "The server did not answer in time. Please try again.",
    ),
    "error.server": _t(
        "Ошибка на сервере. Повторите попытку.", "The server failed. Please try again."
    ),
    "error.stale": _t(
        "Партия изменилась в другом окне: показано её текущее положение.",
        "The game changed elsewhere: its current position is shown.",
    ),
    "error.over": _t("Партия уже окончена.", "The game is already over."),
    "error.ai_failed": _t(
        "Компьютер не смог сделать ход в этой позиции.",
        "The computer could not play in this position.",
    ),
    "error.broken": _t(
        "Запись партии не удаётся воспроизвести.", "The game's record cannot be replayed."
    ),
}


def _ui(lang: Lang) -> dict[str, str]:
    return {key: texts[lang] for key, texts in UI.items()}


def _by_value(table: Mapping[_E, Mapping[Lang, str]], lang: Lang) -> dict[str, str]:
    return {str(code.value): texts[lang] for code, texts in table.items()}


def bundle(lang: Lang) -> dict[str, object]:
    """Every text of the pages in ``lang``: ``ui`` labels, ``calls``, ``fouls``,
    ``scores``, ``options`` (from ``onered.texts``), ``balls``, ``spots``, ``parts``,
    ``ball_forms``, and the caller's foul codes in display order."""
    from onered.web.marking import CALLER_FOULS

    return {
        "lang": lang.value,
        "ui": _ui(lang),
        "calls": _by_value(CALLS, lang),
        "fouls": _by_value(FOULS, lang),
        "scores": _by_value(SCORES, lang),
        "options": _by_value(OPTIONS, lang),
        "balls": _by_value(BALLS, lang),
        "spots": _by_value(SPOTS, lang),
        "parts": _by_value(PARTS, lang),
        "ball_forms": {b.value: forms for b, forms in BALL_FORMS.items()},
        "caller_fouls": [f.value for f in CALLER_FOULS],
        "all_fouls": [f.value for f in FoulCode],
    }
