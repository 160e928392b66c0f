-- Tournaments (onered.web.tournaments): a club's competition, its settings, the players
-- entered, and once drawn the whole state as onered.tournament's JSON form; ``revision``
-- grows by one with each change (a change made against another revision is refused).
-- ``token_hash``: the organiser's secret (a tournament made without signing in).
CREATE TABLE tournaments (
    id TEXT PRIMARY KEY,
    club_id TEXT REFERENCES clubs(id),
    name TEXT NOT NULL,
    target INTEGER NOT NULL,
    best_of INTEGER NOT NULL,
    format TEXT NOT NULL,
    groups_count INTEGER NOT NULL,
    advance INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    tables TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    entrants TEXT NOT NULL,
    state TEXT,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    revision INTEGER NOT NULL
);
CREATE INDEX tournaments_club ON tournaments(club_id, updated);
-- A fixture's match (onered.web.match_store's id): one per fixture; ``recorded`` is when the
-- decided match's result was entered (NULL: not entered, or withdrawn by a take-back).
CREATE TABLE tournament_matches (
    tournament_id TEXT NOT NULL REFERENCES tournaments(id),
    fixture TEXT NOT NULL,
    match_id TEXT NOT NULL UNIQUE,
    created REAL NOT NULL,
    recorded REAL,
    PRIMARY KEY (tournament_id, fixture)
);
