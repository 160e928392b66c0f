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

from onered.game.marking import Part
from onered.players.strength import Level
from onered.rules import Ball, FoulCode
from onered.rules.possible import Reason, Why
from onered.table import Spot
from onered.texts import BALLS, CALLS, FOULS, OPTIONS, SCORES, Lang

RU, EN = Lang.RU, Lang.EN
_E = TypeVar("_E", bound=Enum)


def _t(ru: str, en: str) -> dict[Lang, str]:
    return {RU: ru, EN: en}


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

#: The computer's levels (``onered.players.strength.Level``), as the pages name a computer
#: player: «Компьютер (профессионал)» / "Computer (pro)".
AI_LEVELS: dict[Level, dict[Lang, str]] = {
    Level.NOVICE: _t("впервые у стола", "novice"),
    Level.BEGINNER: _t("новичок", "beginner"),
    Level.AMATEUR: _t("любитель", "amateur"),
    Level.CLUB: _t("клубный игрок", "club player"),
    Level.PRO: _t("профессионал", "pro"),
    Level.MASTER: _t("мастер", "master"),
}

#: Why a tap or an aim is not offered (``onered.rules.possible.Reason``); ``{ball}`` is
#: the ball's name.
REASONS: dict[Reason, dict[Lang, str]] = {
    Reason.GAME_OVER: _t("Партия окончена", "The game is over"),
    Reason.NOT_ON_TABLE: _t("{ball_cap} не на столе", "The {ball} is not on the table"),
    Reason.OWN_BALL: _t(
        "{ball_cap} — свой шар: он не забивается, а уходит свояком",
        "The {ball} is the striker's own ball: it goes in-off, it is not potted",
    ),
    Reason.NO_OBJECT_BALL: _t("На столе нет прицельного шара", "No object ball is on the table"),
    Reason.BALL_IN_BAULK: _t(
        "{ball_cap} в доме: с руки по нему нельзя бить напрямую, только от борта вне дома "
        "(п. 2.6.6)",
        "The {ball} is in baulk: from hand it may not be struck directly, only off a "
        "cushion out of baulk (2.6.6)",
    ),
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
    **{f"home.strength.{level.value}": texts for level, texts in AI_LEVELS.items()},
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
    # computer players, named in the page's language from their level
    "ai.name": _t("Компьютер ({level})", "Computer ({level})"),
    # keys by position, the stroke log's numbers
    "mark.keys_hint": _t(
        "Клавиши работают в любой раскладке (русской и английской).",
        "The keys work on any layout (Russian or English).",
    ),
    "mark.option_row": _t("выбор", "option"),
    "log.col.no": _t("№", "#"),
    "log.col.striker": _t("Игрок", "Player"),
    "log.col.what": _t("Что произошло", "What happened"),
    "log.col.points": _t("Очки", "Points"),
    "log.col.score": _t("Счёт", "Score"),
    # the outbox: strokes kept until the server has them
    "outbox.title": _t("Ждут отправки: {n}", "Waiting to be sent: {n}"),
    "outbox.offline": _t(
        "Нет связи с сервером — удары сохранены на этом устройстве и уйдут, как только связь "
        "вернётся.",
        "The server cannot be reached — the strokes are kept on this device and will be sent "
        "as soon as it is back.",
    ),
    "outbox.send_now": _t("Отправить сейчас", "Send now"),
    "outbox.state.waiting": _t("ждёт", "waiting"),
    "outbox.state.sending": _t("отправляется", "sending"),
    "outbox.state.stale": _t(
        "не принят: партия изменилась на другом устройстве",
        "not taken: the game changed on another device",
    ),
    "outbox.state.rejected": _t("не принят", "refused"),
    "outbox.blocked": _t(
        "Очередь остановлена: проверьте ход партии, затем удалите отклонённый удар или "
        "отправьте очередь заново в текущей позиции.",
        "The queue is stopped: check the stroke log, then discard the refused stroke or send "
        "the queue again at the current position.",
    ),
    "outbox.discard": _t("Удалить", "Discard"),
    "outbox.resend": _t("Отправить заново", "Send again"),
    "outbox.undo": _t("Отменён неотправленный удар", "The unsent stroke was taken back"),
    "outbox.choice": _t("После штрафа:", "After a foul:"),
    "outbox.undo_item": _t("Отмена последнего удара", "Undo the last stroke"),
    "outbox.claim_item": _t("Заявка штрафа: {fouls}", "Foul claimed: {fouls}"),
    "outbox.play_item": _t("Удар: {speed} м/с, {aim}°", "Stroke: {speed} m/s, {aim}°"),
    # the spoken marker
    "speech.toggle": _t("Голос маркёра", "Spoken calls"),
    "speech.none": _t(
        "Этот браузер не умеет говорить (нет Web Speech API).",
        "This browser cannot speak (no Web Speech API).",
    ),
    "say.lead": _t("{name} ведёт {hi} – {lo}", "{name} leads {hi}–{lo}"),
    "say.level": _t("По {score}", "{score} all"),
    "say.no_score": _t("Без очков. Играет {name}", "No score. {name} to play"),
    "say.foul": _t("Штраф, {points} очка в пользу соперника", "Foul, {points} away"),
    "say.choice_from_d": _t("{name} играет с руки", "{name} plays from hand"),
    "say.game": _t("Партия. Победил {name}, {hi} – {lo}", "Game. {name} wins {hi}–{lo}"),
    # the club's screen
    "board.title": _t("Табло", "Club board"),
    "board.link": _t("Табло для телевизора в клубе", "Full-screen board for the club's TV"),
    "board.break": _t("Серия", "Break"),
    "board.last": _t("Последние удары", "Last strokes"),
    "board.live": _t("в прямом эфире", "live"),
    "board.offline": _t("нет связи — показано последнее известное", "offline — last known shown"),
    "board.fullscreen": _t("Во весь экран", "Full screen"),
    # play, better: take-back, two devices, from hand
    "play.takeback": _t("Взять удар назад", "Take back"),
    "play.takeback_ask": _t("Попросить вернуть удар", "Ask to take back"),
    "play.takeback_asked": _t(
        "{name} просит вернуть свой последний удар.", "{name} asks to take back the last stroke."
    ),
    "play.takeback_waiting": _t(
        "Ждём согласия соперника вернуть удар…", "Waiting for the opponent to agree…"
    ),
    "play.takeback_agree": _t("Согласиться", "Agree"),
    "play.takeback_refuse": _t("Отказать", "Refuse"),
    "play.invite": _t("Играть вдвоём на двух устройствах", "Two players on two devices"),
    "play.invite_hint": _t(
        "Вы играете за {me}. Отправьте ссылку сопернику: в ней его собственный секрет, каждый "
        "бьёт только в свою очередь.",
        "You play as {me}. Send this link to your opponent: it holds his own secret; each of "
        "you strikes only on his own turn.",
    ),
    "play.invite_make": _t("Я играю за {name}", "I play as {name}"),
    "play.you_are": _t("Вы играете за {name}", "You play as {name}"),
    "play.their_turn": _t("Удар соперника: {name}", "Your opponent's stroke: {name}"),
    "play.baulk_marked": _t("Шары в доме отмечены пунктиром.", "Balls in baulk are ringed."),
    "play.strike_anyway": _t("Всё равно ударить", "Strike anyway"),
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
    "error.not_your_turn": _t(
        "Сейчас не ваш удар: бьёт {name}.", "It is not your turn: {name} is to play."
    ),
    "error.no_takeback": _t(
        "Нечего возвращать: у этого игрока нет удара, который можно взять назад.",
        "Nothing to take back: this player has no stroke to take back.",
    ),
    "error.impossible": _t("Такого удара быть не может: {why}", "No stroke can do that: {why}"),
    "error.no_game": _t("Партии «{id}» нет.", "There is no game “{id}”."),
    "error.no_token": _t(
        "Для изменений нужен секрет партии.", "Changing this game needs its secret."
    ),
    "error.bad_token": _t("Это не секрет этой партии.", "This is not the game's secret."),
    "error.no_secret": _t(
        "Нужен секрет партии или секрет игрока.", "This needs the game's or a player's secret."
    ),
    "error.bad_secret": _t(
        "Это не секрет игрока этой партии.", "This is not a player's secret of this game."
    ),
    "error.no_undo": _t(
        "Отменять нечего: в партии ещё нет ударов.", "Nothing to undo: the game has no strokes."
    ),
    "error.played": _t(
        "Эта партия играется на столе: удары вводятся на странице игры, а не маркёром.",
        "This game is played on the simulated table: strokes come from the play page, not "
        "from the marker.",
    ),
    "error.not_played": _t(
        "Эта партия ведётся маркёром, а не играется на смоделированном столе.",
        "This game is marked, not played on the simulated table.",
    ),
    "error.not_two_players": _t(
        "Против компьютера играют на одном устройстве.",
        "A game against the computer is played on one device.",
    ),
    "error.bad_stroke": _t(
        "Этот удар сыграть нельзя (например, биток поставлен вне сектора «D» или на шар).",
        "This stroke cannot be played (e.g. the cue ball placed outside the D or on a ball).",
    ),
    "error.no_choice": _t("Сейчас выбирать нечего.", "There is no choice to make now."),
    "error.no_line": _t(
        "В партии нет такого сыгранного удара.", "The game has no such played stroke."
    ),
    # the game core's refusals (onered.game.session), and a file that cannot be read
    "error.bad_line": _t(
        "Рефери не может принять эту строку: {detail}",
        "The referee cannot take this line: {detail}",
    ),
    "error.bad_mark": _t(
        "Эти отметки не складываются в один удар ({detail}).",
        "These taps make no single stroke ({detail}).",
    ),
    "error.claim_none": _t(
        "Штраф заявляют сразу после удара, до следующего: заявлять не на что.",
        "A foul is claimed right after the stroke, before the next one: nothing to claim on.",
    ),
    "error.claim_foul": _t(
        "Последний удар уже признан штрафом.", "The last stroke was already judged a foul."
    ),
    "error.computer_turn": _t(
        "Сейчас ход компьютера ({name}).", "It is the computer's turn ({name})."
    ),
    "error.not_computer": _t(
        "Сейчас ход человека, а не компьютера.", "It is a person's turn, not the computer's."
    ),
    "error.name_space": _t(
        "{where}: имена пишутся без пробелов по краям и двойных пробелов.",
        "{where}: names are written without leading, trailing or repeated spaces.",
    ),
    "error.entrants": _t(
        "{where}: ожидается список игроков «имя: описание».",
        "{where}: expected the players as name: description.",
    ),
    "error.bad_record": _t(
        "Запись партии не читается: {detail}", "The game record cannot be read: {detail}"
    ),
    "error.file_empty": _t("В файле нет строк партии.", "The file holds no game lines."),
    "error.file_too_large": _t(
        "Файл слишком большой: не больше {max} байт.", "The file is too large: at most {max} bytes."
    ),
    "error.not_utf8": _t(
        "Файл не в кодировке UTF-8 ({detail}).", "The file is not UTF-8 text ({detail})."
    ),
    "error.not_json": _t("Строка {line}: не JSON ({detail}).", "Line {line}: not JSON ({detail})."),
    "error.line_too_long": _t(
        "Строка {line} слишком длинная: не больше {max} знаков.",
        "Line {line} is too long: at most {max} characters.",
    ),
    "error.too_many_lines": _t(
        "Слишком много строк: не больше {max}.", "Too many lines: at most {max}."
    ),
    "error.version": _t(
        "Запись партии версии {got}; эта версия onered читает до {max}.",
        "The record is of format version {got}; this onered reads up to {max}.",
    ),
    "error.bad_input": _t("Неверные данные запроса.", "The request's data are not valid."),
    "error.invalid": _t("Неверный запрос: {detail}", "Invalid request: {detail}"),
    "error.length_required": _t(
        "Запрос без длины (Content-Length) не принимается; не больше {max} байт.",
        "The request needs its length (Content-Length); at most {max} bytes.",
    ),
    "error.too_large": _t(
        "Слишком большой запрос: не больше {max} байт.",
        "The request is too large: at most {max} bytes.",
    ),
    "error.broken": _t(
        "Запись партии не удаётся воспроизвести.", "The game's record cannot be replayed."
    ),
    # a game's settings refused (onered.game.validate), the same for a new game and an import
    "error.name_empty": _t(
        "{where}: имя не может быть пустым.", "{where}: a name cannot be empty."
    ),
    "error.name_long": _t(
        "{where}: имя не длиннее {max} знаков, а здесь {got}.",
        "{where}: a name has at most {max} characters, this one has {got}.",
    ),
    "error.name_chars": _t(
        "{where}: в имени не может быть управляющих или невидимых знаков ({char}).",
        "{where}: a name cannot hold control or invisible characters ({char}).",
    ),
    "error.names_same": _t(
        "Имена игроков должны различаться ({name}).", "The players' names must differ ({name})."
    ),
    "error.target": _t(
        "{where}: партия играется до целого числа очков от 1 до {max}.",
        "{where}: a game is played to a whole number of points from 1 to {max}.",
    ),
    "error.physics": _t(
        "Настройки стола вне допустимых пределов: {detail}",
        "The table's settings are out of range: {detail}",
    ),
    # the coach page (the suggestions' own words come from the API, onered.coach.words)
    "coach.title": _t("Тренер", "Coach"),
    "coach.setup": _t("Позиция", "Position"),
    "coach.tray": _t("Вне стола:", "Off the table:"),
    "coach.drag_hint": _t(
        "Перетаскивайте шары; шар, унесённый за борт, снимается со стола.",
        "Drag the balls; a ball dragged off the table is taken off it.",
    ),
    "coach.to_play": _t("Бьёт", "To play"),
    "coach.level": _t("Уровень игрока", "Player's level"),
    "coach.score_white": _t("Очки белого", "White's score"),
    "coach.score_yellow": _t("Очки жёлтого", "Yellow's score"),
    "coach.hazards": _t("Сыгрываний подряд", "Hazards in a row"),
    "coach.cannons": _t("Карамболей подряд", "Cannons in a row"),
    "coach.red_run": _t("Красный забит с отметки подряд", "Red pots from the spot in a row"),
    "coach.baulk_crossed": _t(
        "Линия дома в этой сотне серии уже пересечена",
        "Baulk line already crossed in this hundred of the break",
    ),
    "coach.from_hand": _t(
        "Биток не на столе: удар с руки из сектора.",
        "The cue ball is in hand: it plays from the D.",
    ),
    "coach.advise": _t("Совет", "Advise"),
    "coach.thinking": _t("Тренер думает…", "The coach is thinking…"),
    "coach.suggestions": _t("Лучшие удары", "Best strokes"),
    "coach.none": _t("Ни одного удара не найдено.", "No stroke found."),
    "coach.meta": _t(
        "Уровень «{level}»: {n} розыгрышей каждого удара с разбросом игрока; {ms} мс.",
        "Level “{level}”: each stroke played {n} times with the player’s spread; {ms} ms.",
    ),
    "coach.from_game": _t("Позиция перед ударом {stroke}.", "The position before stroke {stroke}."),
    "coach.place_missing": _t(
        "В партии не записано, где стояли шары ({balls}): поставьте их на стол.",
        "The game does not say where some balls stood ({balls}): put them on the table.",
    ),
    "coach.ask": _t("Спросить тренера", "Ask the coach"),
    "error.advice": _t("Тренер не может дать совет: {detail}", "The coach cannot advise: {detail}"),
    "coach.played": _t("Сыграно в партии", "Played in the game"),
    "coach.written": _t("Позиция строкой", "Written position"),
    "coach.use_written": _t("Открыть", "Open"),
    "coach.gap": _t(
        "лучший удар стоит на {gap} очка больше", "the best stroke is worth {gap} points more"
    ),
    # matches, finding games, players' pages (issue 10, items 3 and 7)
    "home.match.title": _t("Матч", "A match"),
    "home.match.intro": _t(
        "Матч из нескольких партий до большинства побед, с форой и часами матча; "
        "партии ведёт маркёр.",
        "Best of N games, with a handicap start and the match clock; the games are marked.",
    ),
    "home.match.best_of": _t("Партий в матче (нечётное)", "Best of (games, odd)"),
    "home.match.handicap": _t("Фора игроку «{name}» (очков)", "{name}'s handicap (points)"),
    "home.start_match": _t("Начать матч", "Start the match"),
    "home.tab.all": _t("Все партии", "All games"),
    "home.tab.mine": _t("Мои партии", "My games"),
    "home.mine.hint": _t(
        "Партии, секреты которых хранит этот браузер: их можно продолжить или удалить.",
        "The games whose secrets this browser holds: go on with them, or delete them.",
    ),
    "home.find.player": _t("Игрок", "Player"),
    "home.find.since": _t("С даты", "From"),
    "home.find.until": _t("По дату", "To"),
    "home.find.kind": _t("Вид", "Kind"),
    "home.find.any": _t("любой", "any"),
    "home.find.finished": _t("Состояние", "Status"),
    "home.find.finished.yes": _t("оконченные", "finished"),
    "home.find.finished.no": _t("идущие", "in progress"),
    "home.find.button": _t("Найти", "Search"),
    "home.find.clear": _t("Сбросить", "Clear"),
    "home.find.none": _t("Ничего не найдено.", "No games found."),
    "home.page": _t("{first}–{last} из {total}", "{first}–{last} of {total}"),
    "home.newer": _t("← Новее", "← Newer"),
    "home.older": _t("Старше →", "Older →"),
    "home.delete": _t("Удалить", "Delete"),
    "home.delete.confirm": _t(
        "Удалить партию «{players}» безвозвратно?", "Delete the game “{players}” for good?"
    ),
    "home.col.updated": _t("Изменена", "Changed"),
    "match.title": _t("Матч", "Match"),
    "match.format": _t(
        "Матч до {wins} побед (из {best_of} партий), партии до {target} очков",
        "Best of {best_of} (first to {wins} games), games to {target} points",
    ),
    "match.handicap": _t("Фора: {list}", "Handicap: {list}"),
    "match.no_handicap": _t("Без форы", "No handicap"),
    "match.games_won": _t("партий выиграно", "games won"),
    "match.winner": _t("Матч выиграл {name}", "{name} wins the match"),
    "match.clock": _t("Время матча", "Match time"),
    "match.games": _t("Партии матча", "The games"),
    "match.col.no": _t("Партия", "Game"),
    "match.col.breaker": _t("Разбивает", "Breaks"),
    "match.col.winner": _t("Победитель", "Winner"),
    "match.col.time": _t("Время", "Time"),
    "match.on": _t("идёт", "in progress"),
    "match.missing": _t("партия удалена", "game deleted"),
    "match.link": _t("Матч: партия {number}", "The match: game {number}"),
    "match.next": _t("Начать партию {number}", "Start game {number}"),
    "match.next_hint": _t(
        "Следующая партия начинается, когда окончена предыдущая; разбивают по очереди.",
        "The next game starts once the last one is over; the break alternates.",
    ),
    "player.title": _t("Игрок", "Player"),
    "player.link": _t("Страница игрока", "Player's page"),
    "player.summary": _t(
        "Партий {games} · побед {wins} · очков за подход {ppv} · лучшая серия {best} · "
        "фолов {fouls}",
        "Games {games} · won {wins} · points per visit {ppv} · top break {best} · fouls {fouls}",
    ),
    "player.read": _t(
        "Показаны последние {read} из {total} партий.", "The newest {read} of {total} games."
    ),
    "player.plot.ppv": _t("Очки за подход", "Points per visit"),
    "player.plot.break": _t("Лучшая серия партии", "Top break of each game"),
    "player.plot.fouls": _t("Фолы в партии", "Fouls per game"),
    "player.plot.x": _t("партии по порядку", "games in order"),
    "player.top_breaks": _t("Лучшие серии", "Top breaks"),
    "player.games": _t("Партии", "Games"),
    "player.col.date": _t("Дата", "Date"),
    "player.col.opponent": _t("Соперник", "Opponent"),
    "player.col.result": _t("Итог", "Result"),
    "player.col.visits": _t("Подходов", "Visits"),
    "player.col.points": _t("Очков", "Points"),
    "player.col.ppv": _t("За подход", "Per visit"),
    "player.col.break": _t("Лучшая серия", "Top break"),
    "player.col.fouls": _t("Фолы", "Fouls"),
    "player.result.won": _t("победа", "won"),
    "player.result.lost": _t("поражение", "lost"),
    "player.result.on": _t("не окончена", "unfinished"),
    "error.no_match": _t("Такого матча нет.", "There is no such match."),
    "error.no_player": _t("Нет ни одной партии этого игрока.", "No game has this player."),
    "error.match_over": _t("Матч уже окончен.", "The match is already over."),
    "error.game_on": _t("Предыдущая партия ещё не окончена.", "The last game is not over yet."),
    "error.match_settings": _t(
        "Настройки матча неверны: {detail}", "The match's settings are wrong: {detail}"
    ),
    "error.no_match_token": _t(
        "Начать партию матча может только тот, у кого секрет матча.",
        "Starting a game of the match needs the match's secret.",
    ),
    "error.bad_match_token": _t("Это не секрет этого матча.", "This is not the match's secret."),
    "error.too_many_ids": _t(
        "Слишком много партий в одном запросе (не больше {max}).",
        "Too many games in one request (at most {max}).",
    ),
    "error.in_match": _t(
        "Это партия матча: она хранится вместе с матчем.",
        "This is a game of a match: it is kept with the match.",
    ),
}


def reason_text(why: Why, lang: Lang) -> str:
    """A reason of the rules (``onered.rules.possible``) in ``lang``: "The yellow is not on
    the table" (the server's English error message uses it too)."""
    ball = BALLS[why.ball][lang] if why.ball is not None else ""
    return REASONS[why.reason][lang].format(ball=ball, ball_cap=ball[:1].upper() + ball[1:])


def _ui(lang: Lang) -> dict[str, str]:
    return {key: texts[lang] for key, texts in UI.items()}


def _by_value(table: Mapping[_E, Mapping[Lang, str]], lang: Lang) -> dict[str, str]:
    return {str(code.value): texts[lang] for code, texts in table.items()}


def bundle(lang: Lang) -> dict[str, object]:
    """Every text of the pages in ``lang``: ``ui`` labels, ``calls``, ``fouls``,
    ``scores``, ``options`` (from ``onered.texts``), ``balls``, ``spots``, ``parts``,
    ``ball_forms``, ``ai_levels`` (the computer's levels), ``reasons`` (why a tap is not
    offered), and the caller's foul codes in display order."""
    from onered.game.marking import CALLER_FOULS

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
        "ai_levels": _by_value(AI_LEVELS, lang),
        "reasons": _by_value(REASONS, lang),
        "caller_fouls": [f.value for f in CALLER_FOULS],
        "all_fouls": [f.value for f in FoulCode],
    }
