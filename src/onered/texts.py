"""Display text in Russian and English for the referee's codes (the interface layer's lookup).

The rules speak in codes (``CallCode``, ``FoulCode``, ``ScoreKind``, ``Option``); whatever shows
them to people — the referee protocol, the CLI, the web page — looks the words up here.
"""

from __future__ import annotations

from enum import Enum

from onered.rules.model import Ball, CallCode, FoulCode, Option, ScoreKind


class Lang(Enum):
    """Languages of the interfaces."""

    RU = "ru"
    EN = "en"


CALLS: dict[CallCode, dict[Lang, str]] = {
    CallCode.FOUL: {Lang.RU: "Штраф", Lang.EN: "Foul"},
    CallCode.BAULK_LINE_CROSSED: {Lang.RU: "Линия дома пересечена", Lang.EN: "Baulk line crossed"},
    CallCode.TOUCHING_BALL: {Lang.RU: "Соприкасающийся шар!", Lang.EN: "Touching ball!"},
    CallCode.SEVENTY_CANNONS: {Lang.RU: "Семьдесят карамболей!", Lang.EN: "Seventy cannons!"},
    CallCode.TEN_HAZARDS: {Lang.RU: "Десять сыгрываний!", Lang.EN: "Ten hazards!"},
    CallCode.BAULK_LINE_REQUIRED: {
        Lang.RU: "Необходимо пересечь линию дома",
        Lang.EN: "Baulk line must be crossed",
    },
}

FOULS: dict[FoulCode, dict[Lang, str]] = {
    FoulCode.WRONG_BALL: {
        Lang.RU: "удар кием не по битку",
        Lang.EN: "struck a ball other than the cue ball",
    },
    FoulCode.DOUBLE_HIT: {Lang.RU: "двойное касание битка", Lang.EN: "struck the cue ball twice"},
    FoulCode.BALLS_MOVING: {
        Lang.RU: "удар до остановки шаров",
        Lang.EN: "struck while balls were moving",
    },
    FoulCode.FEET_OFF_FLOOR: {
        Lang.RU: "отрыв обеих ног от пола",
        Lang.EN: "both feet off the floor",
    },
    FoulCode.OUT_OF_TURN: {Lang.RU: "удар вне очереди", Lang.EN: "played out of turn"},
    FoulCode.BAD_FROM_HAND: {
        Lang.RU: "неправильная игра с руки",
        Lang.EN: "wrong stroke from hand",
    },
    FoulCode.IN_OFF_FROM_HAND: {
        Lang.RU: "биток в лузе при игре с руки, все прицельные шары в доме",
        Lang.EN: "in-off from hand with all object balls in baulk",
    },
    FoulCode.JUMP: {Lang.RU: "перескок", Lang.EN: "jump shot"},
    FoulCode.PUSH: {Lang.RU: "пропих", Lang.EN: "push stroke"},
    FoulCode.OFF_TABLE: {Lang.RU: "шар выскочил за борт", Lang.EN: "ball forced off the table"},
    FoulCode.HAZARD_LIMIT: {
        Lang.RU: "более пятнадцати сыгрываний подряд",
        Lang.EN: "more than 15 consecutive hazards",
    },
    FoulCode.CANNON_LIMIT: {
        Lang.RU: "более семидесяти пяти карамболей подряд",
        Lang.EN: "more than 75 consecutive cannons",
    },
    FoulCode.TOUCHED_BALL: {
        Lang.RU: "касание шара или маркера",
        Lang.EN: "touched a ball or a marker",
    },
    FoulCode.BEFORE_SPOTTING: {
        Lang.RU: "удар до окончания выставления шаров",
        Lang.EN: "struck before the balls were spotted",
    },
    FoulCode.MISS: {Lang.RU: "промах по прицельным шарам", Lang.EN: "missed both object balls"},
    FoulCode.BAULK_LINE: {
        Lang.RU: "биток не пересёк линию дома",
        Lang.EN: "baulk line not crossed",
    },
}

BALLS: dict[Ball, dict[Lang, str]] = {
    Ball.WHITE: {Lang.RU: "белый", Lang.EN: "white"},
    Ball.YELLOW: {Lang.RU: "жёлтый", Lang.EN: "yellow"},
    Ball.RED: {Lang.RU: "красный", Lang.EN: "red"},
}

SCORES: dict[ScoreKind, dict[Lang, str]] = {
    ScoreKind.CANNON: {Lang.RU: "карамболь", Lang.EN: "cannon"},
    ScoreKind.POT_RED: {Lang.RU: "красный в лузе", Lang.EN: "red potted"},
    ScoreKind.POT_WHITE: {Lang.RU: "белый в лузе", Lang.EN: "white potted"},
    ScoreKind.POT_YELLOW: {Lang.RU: "жёлтый в лузе", Lang.EN: "yellow potted"},
    ScoreKind.IN_OFF_RED: {Lang.RU: "свояк от красного", Lang.EN: "in-off the red"},
    ScoreKind.IN_OFF_WHITE: {Lang.RU: "свояк от белого", Lang.EN: "in-off the white"},
    ScoreKind.IN_OFF_YELLOW: {Lang.RU: "свояк от жёлтого", Lang.EN: "in-off the yellow"},
}

OPTIONS: dict[Option, dict[Lang, str]] = {
    Option.AS_THEY_LIE: {
        Lang.RU: "играть из сложившейся позиции",
        Lang.EN: "play from where the balls lie",
    },
    Option.FROM_D: {Lang.RU: "играть с руки из сектора", Lang.EN: "play from the D"},
}


def text(code: CallCode | FoulCode | ScoreKind | Option, lang: Lang) -> str:
    """The display text of a code in a language."""
    if isinstance(code, CallCode):
        return CALLS[code][lang]
    if isinstance(code, FoulCode):
        return FOULS[code][lang]
    if isinstance(code, ScoreKind):
        return SCORES[code][lang]
    return OPTIONS[code][lang]
