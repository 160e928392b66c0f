-- The games and their input lines (onered.web.store), and who played each game.
-- IF NOT EXISTS: an SQLite data folder made before the migrations already has them.
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    mode TEXT NOT NULL,
    token_hash TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    settings TEXT NOT NULL,
    summary TEXT NOT NULL,
    revision INTEGER NOT NULL DEFAULT 0,
    changed_from INTEGER NOT NULL DEFAULT 0,
    figures TEXT
);
CREATE TABLE IF NOT EXISTS lines (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    body TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS games_updated ON games(updated);
CREATE INDEX IF NOT EXISTS games_created ON games(created);
CREATE INDEX IF NOT EXISTS games_mode_updated ON games(mode, updated);
CREATE TABLE IF NOT EXISTS game_players (
    player TEXT NOT NULL,
    created REAL NOT NULL,
    game_id TEXT NOT NULL,
    PRIMARY KEY (player, created, game_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS game_players_game ON game_players(game_id);
