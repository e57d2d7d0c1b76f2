-- Rulebooks imported by a group (scope = its chat key) or by the operator (scope = '*'),
-- split into passages and indexed for full-text search.
CREATE TABLE rulebooks (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    scope       TEXT NOT NULL,
    system      TEXT NOT NULL,
    title       TEXT NOT NULL,
    unit        TEXT NOT NULL,          -- passage locations are 'line' numbers or char 'offset's
    passages    INTEGER NOT NULL,
    imported_by TEXT NOT NULL,
    created_at  TEXT NOT NULL
);
CREATE INDEX rulebooks_by_scope ON rulebooks (scope, system);

CREATE TABLE passages (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    rulebook_id INTEGER NOT NULL REFERENCES rulebooks (id) ON DELETE CASCADE,
    location    INTEGER NOT NULL,
    number      TEXT,
    page        INTEGER,
    heading     TEXT NOT NULL,          -- the heading path, joined with ' › '
    body        TEXT NOT NULL
);
CREATE INDEX passages_by_book ON passages (rulebook_id);
CREATE INDEX passages_by_number ON passages (number);

CREATE VIRTUAL TABLE passages_fts USING fts5 (
    heading, body, tokenize = 'unicode61 remove_diacritics 2'
);
