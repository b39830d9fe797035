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
        """
        -- Favourites, comments and blocks are found by what they point at.
        ALTER TABLE records ADD COLUMN subject TEXT;
        UPDATE records SET subject = json_extract(value, '$.subject')
            WHERE collection IN ('social.grain.favorite', 'social.grain.comment', 'social.grain.graph.block');
        CREATE INDEX records_by_subject ON records(collection, subject, created_at);

        -- The blobs each record points at: a blob row (and, once no account has one, its files) goes when the
        -- last record of its account that references it does.
        CREATE TABLE blob_refs (
            uri TEXT NOT NULL,
            did TEXT NOT NULL,
            cid TEXT NOT NULL,
            PRIMARY KEY (uri, cid)
        );
        CREATE INDEX blob_refs_by_blob ON blob_refs(did, cid);
        INSERT OR IGNORE INTO blob_refs (uri, did, cid)
            SELECT uri, did, json_extract(value, '$.media.ref."$link"') FROM records
            WHERE json_extract(value, '$.media.ref."$link"') IS NOT NULL;
        INSERT OR IGNORE INTO blob_refs (uri, did, cid)
            SELECT uri, did, json_extract(value, '$.avatar.ref."$link"') FROM records
            WHERE json_extract(value, '$.avatar.ref."$link"') IS NOT NULL;
        INSERT OR IGNORE INTO blob_refs (uri, did, cid)
            SELECT r.uri, r.did, json_extract(i.value, '$.image.ref."$link"') FROM records r, json_each(r.value, '$.embed.images') i
            WHERE json_extract(i.value, '$.image.ref."$link"') IS NOT NULL;
        CREATE INDEX blobs_by_cid ON blobs(cid);
        CREATE INDEX blobs_by_age ON blobs(created_at);

        -- Records the household owner hid for everyone (after a report, or on sight).
        CREATE TABLE hidden_records (
            uri TEXT PRIMARY KEY,
            hidden_by TEXT NOT NULL,
            created_at TEXT NOT NULL
        );

        -- dev.hatk.createReport, for the household owner to review.
        CREATE TABLE reports (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            subject_uri TEXT NOT NULL,
            subject_did TEXT NOT NULL,
            subject_cid TEXT,
            label TEXT NOT NULL,
            reason TEXT,
            reported_by TEXT NOT NULL,
            created_at TEXT NOT NULL,
            resolved_at TEXT,
            resolved_by TEXT,
            resolution TEXT
        );
        CREATE INDEX reports_by_state ON reports(resolved_at, created_at);
        CREATE INDEX reports_by_subject ON reports(subject_uri);
        CREATE INDEX reports_by_reporter ON reports(reported_by, resolved_at);

        -- Private to the muter: social.grain.graph.muteActor.
        CREATE TABLE mutes (
            did TEXT NOT NULL,
            subject TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (did, subject)
        );
        CREATE INDEX mutes_by_age ON mutes(did, created_at);

        -- Private to the viewer: social.grain.unspecced.markStoriesViewed.
        CREATE TABLE story_views (
            did TEXT NOT NULL,
            subject TEXT NOT NULL,
            created_at TEXT NOT NULL,
            PRIMARY KEY (did, subject)
        );
        CREATE INDEX story_views_by_subject ON story_views(subject);

        -- dev.hatk.getPreferences / putPreference: one JSON value per account and key.
        CREATE TABLE preferences (
            did TEXT NOT NULL,
            key TEXT NOT NULL,
            value TEXT NOT NULL,
            updated_at TEXT NOT NULL,
            PRIMARY KEY (did, key)
        );
        """,
        """
        -- Member administration: a disabled account cannot sign in; one with removal_due is deleted, records and blobs,
        -- at that time unless the owner undoes it; quota_bytes bounds the bytes of blobs it may own (NULL: no quota).
        ALTER TABLE accounts ADD COLUMN disabled_at TEXT;
        ALTER TABLE accounts ADD COLUMN removal_due TEXT;
        ALTER TABLE accounts ADD COLUMN quota_bytes INTEGER;
        CREATE INDEX accounts_by_removal ON accounts(removal_due) WHERE removal_due IS NOT NULL;
        -- An invitation the owner took back before anyone used it.
        ALTER TABLE invites ADD COLUMN revoked_at TEXT;
        """,
        """
        -- An invitation names the role it gives: `member` (posts stories) or `guest` (watches, favourites, comments).
        ALTER TABLE invites ADD COLUMN role TEXT NOT NULL DEFAULT 'member';
        -- A screen the household paired for its kiosk (a wall tablet): reads the kiosk and nothing else. The pairing
        -- link's token and the screen's credential are stored only as hashes; the pairing link works once, until
        -- pairing_expires; a removed screen's row is deleted.
        CREATE TABLE screens (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            paired_by TEXT NOT NULL REFERENCES accounts(did),
            kiosk_query TEXT NOT NULL,
            memories INTEGER NOT NULL DEFAULT 0,
            created_at TEXT NOT NULL,
            pairing_hash TEXT UNIQUE,
            pairing_expires TEXT NOT NULL,
            credential_hash TEXT UNIQUE,
            paired_at TEXT,
            last_seen TEXT
        );
        -- A link that shows one story to whoever has it, until the story's 24 hours end or its author revokes it.
        CREATE TABLE shares (
            id TEXT PRIMARY KEY,
            token_hash TEXT NOT NULL UNIQUE,
            story_uri TEXT NOT NULL,
            author TEXT NOT NULL REFERENCES accounts(did),
            created_at TEXT NOT NULL,
            expires_at TEXT NOT NULL,
            revoked_at TEXT
        );
        CREATE INDEX shares_by_story ON shares(story_uri);
        """,
        """
        -- What a story's photo shows, in its author's words: the alt text everywhere the photo is shown in the
        -- household, and with caption = 1 also a caption under it. Grain's record has no place for it, so it is kept
        -- here, and goes with its story.
        CREATE TABLE story_descriptions (
            uri TEXT PRIMARY KEY,
            did TEXT NOT NULL REFERENCES accounts(did),
            text TEXT NOT NULL,
            caption INTEGER NOT NULL DEFAULT 0
        );
        CREATE TRIGGER story_descriptions_go_with_their_story AFTER DELETE ON records
        WHEN old.collection = 'social.grain.story'
        BEGIN
            DELETE FROM story_descriptions WHERE uri = old.uri;
        END;
        """,
        """
        -- What the server measured of a clip when it stored it (blobs are content-addressed, so one row serves every
        -- owner): its length, for the viewer's progress bar and the thumbnails' badge. Its size is the record's.
        CREATE TABLE clips (
            cid TEXT PRIMARY KEY,
            duration_ms INTEGER NOT NULL
        );
        """,
    ]
}
