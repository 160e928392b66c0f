-- Matches, best of N games (onered.web.match_store).
CREATE TABLE IF NOT EXISTS matches (
    id TEXT PRIMARY KEY,
    token_hash TEXT NOT NULL,
    created REAL NOT NULL,
    series TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS match_games (
    match_id TEXT NOT NULL REFERENCES matches(id),
    number INTEGER NOT NULL,
    game_id TEXT NOT NULL UNIQUE,
    PRIMARY KEY (match_id, number)
) WITHOUT ROWID;
