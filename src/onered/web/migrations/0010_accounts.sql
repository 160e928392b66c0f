-- Accounts (onered.web.accounts): clubs, the accounts that sign in, their sessions; and the
-- player register (onered.web.api_register). Ids are random text (no auto-increment: one
-- schema for SQLite and PostgreSQL); *_key columns hold the casefolded name that must be
-- unique.
CREATE TABLE clubs (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    created REAL NOT NULL
);
CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    email TEXT NOT NULL,
    email_key TEXT NOT NULL UNIQUE,
    password_hash TEXT NOT NULL,
    role TEXT NOT NULL,
    club_id TEXT REFERENCES clubs(id),
    created REAL NOT NULL
);
CREATE INDEX accounts_club ON accounts(club_id);
CREATE TABLE sessions (
    id_hash TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id),
    created REAL NOT NULL,
    expires REAL NOT NULL
);
CREATE INDEX sessions_account ON sessions(account_id);
CREATE INDEX sessions_expires ON sessions(expires);
CREATE TABLE register_players (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    club_id TEXT REFERENCES clubs(id),
    rating REAL,
    created REAL NOT NULL
);
CREATE INDEX register_players_club ON register_players(club_id, name_key);
