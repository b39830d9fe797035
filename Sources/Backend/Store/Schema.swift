/// The embedded backend's SQLite schema, one entry per migration; never edit a shipped step.
enum Schema {
    static let migrations: [String] = [
        """
        CREATE TABLE accounts (
            did TEXT PRIMARY KEY,
            handle TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL
        );
        CREATE TABLE records (
            uri TEXT PRIMARY KEY,
            did TEXT NOT NULL REFERENCES accounts(did),
            collection TEXT NOT NULL,
            rkey TEXT NOT NULL,
            cid TEXT NOT NULL,
            value TEXT NOT NULL,
            -- The record's createdAt rewritten in canonical UTC form, so that string order is time order.
            created_at TEXT NOT NULL,
            indexed_at TEXT NOT NULL,
            -- Set when a self-label has hide severity; such stories never reach the strip.
            hidden INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX records_by_collection ON records(collection, created_at);
        CREATE INDEX records_by_author ON records(did, collection, created_at);
        CREATE TABLE blobs (
            did TEXT NOT NULL REFERENCES accounts(did),
            cid TEXT NOT NULL,
            mime_type TEXT NOT NULL,
            size INTEGER NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (did, cid)
        );
        """,
        """
        -- The household owner (the first account) may invite members.
        ALTER TABLE accounts ADD COLUMN role TEXT NOT NULL DEFAULT 'member';
        CREATE TABLE invites (
            token_hash TEXT PRIMARY KEY,
            created_by TEXT NOT NULL REFERENCES accounts(did),
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            used_by TEXT
        );
        """,
    ]
}
