-- The club's seats (a secret per player of a game) and take-back requests (onered.web.api_club).
CREATE TABLE IF NOT EXISTS seats (
    game_id TEXT NOT NULL,
    player INTEGER NOT NULL,
    token_hash TEXT NOT NULL,
    PRIMARY KEY (game_id, player)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS takebacks (
    game_id TEXT PRIMARY KEY,
    player INTEGER NOT NULL,
    version INTEGER NOT NULL
) WITHOUT ROWID;
