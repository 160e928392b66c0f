-- Ratings (onered.web.ratings): every finished match as the ratings recorded it (each once,
-- by match id), each player's Glicko-2 rating per target (target 0: all targets), and the
-- rating each match left each player with (his history). rating_lock's one row is updated
-- first by every writer of ratings: writers take their turns on PostgreSQL as on SQLite.
CREATE TABLE rating_matches (
    match_id TEXT PRIMARY KEY,
    finished REAL NOT NULL,
    target INTEGER NOT NULL,
    best_of INTEGER NOT NULL,
    player_a TEXT NOT NULL,
    player_b TEXT NOT NULL,
    games_a INTEGER NOT NULL,
    games_b INTEGER NOT NULL,
    winner INTEGER NOT NULL,
    handicap_a INTEGER NOT NULL,
    handicap_b INTEGER NOT NULL,
    points_a INTEGER NOT NULL,
    points_b INTEGER NOT NULL,
    recorded REAL NOT NULL
);
CREATE INDEX rating_matches_order ON rating_matches(finished, match_id);
CREATE TABLE ratings (
    player_key TEXT NOT NULL,
    target INTEGER NOT NULL,
    name TEXT NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    volatility REAL NOT NULL,
    matches INTEGER NOT NULL,
    games INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    last REAL,
    PRIMARY KEY (player_key, target)
);
CREATE INDEX ratings_by_target ON ratings(target, rating);
CREATE TABLE rating_history (
    match_id TEXT NOT NULL,
    player_key TEXT NOT NULL,
    target INTEGER NOT NULL,
    finished REAL NOT NULL,
    opponent TEXT NOT NULL,
    won INTEGER NOT NULL,
    lost INTEGER NOT NULL,
    rating_before REAL NOT NULL,
    deviation_before REAL NOT NULL,
    rating REAL NOT NULL,
    deviation REAL NOT NULL,
    PRIMARY KEY (match_id, player_key, target)
);
CREATE INDEX rating_history_player ON rating_history(player_key, target, finished);
CREATE TABLE rating_lock (
    id INTEGER PRIMARY KEY,
    version INTEGER NOT NULL
);
INSERT INTO rating_lock (id, version) VALUES (1, 0);
