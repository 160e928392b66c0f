-- The answers to changes sent with an Idempotency-Key (onered.web.idempotency).
CREATE TABLE IF NOT EXISTS idempotency (
    game_id TEXT NOT NULL,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status INTEGER NOT NULL,
    body BLOB NOT NULL,
    created REAL NOT NULL,
    PRIMARY KEY (game_id, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS idempotency_created ON idempotency(created);
