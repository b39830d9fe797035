/// The authorization server's SQLite schema, one entry per migration; never edit a shipped step.
///
/// Times are whole seconds since 1970. Codes and refresh tokens are stored only as SHA-256 hashes, so a copy of
/// the file hands out no live credential.
enum AuthSchema {
    static let migrations: [String] = [
        """
        CREATE TABLE secrets (
            name TEXT PRIMARY KEY,
            -- AES-256-GCM under the configured sealing key, with the name as context.
            sealed BLOB NOT NULL
        );
        CREATE TABLE passwords (
            did TEXT PRIMARY KEY,
            hash TEXT NOT NULL,
            updated_at INTEGER NOT NULL
        );
        CREATE TABLE par_requests (
            request_uri TEXT PRIMARY KEY,
            client_id TEXT NOT NULL,
            redirect_uri TEXT NOT NULL,
            scope TEXT NOT NULL,
            state TEXT NOT NULL,
            code_challenge TEXT NOT NULL,
            login_hint TEXT,
            jkt TEXT NOT NULL,
            expires_at INTEGER NOT NULL,
            consumed INTEGER NOT NULL DEFAULT 0
        );
        CREATE TABLE codes (
            hash TEXT PRIMARY KEY,
            did TEXT NOT NULL,
            client_id TEXT NOT NULL,
            redirect_uri TEXT NOT NULL,
            scope TEXT NOT NULL,
            code_challenge TEXT NOT NULL,
            jkt TEXT NOT NULL,
            expires_at INTEGER NOT NULL,
            used INTEGER NOT NULL DEFAULT 0
        );
        -- One row per successful code exchange; revoking it ends every token issued from it.
        CREATE TABLE grants (
            id TEXT PRIMARY KEY,
            did TEXT NOT NULL,
            client_id TEXT NOT NULL,
            scope TEXT NOT NULL,
            jkt TEXT NOT NULL,
            code_hash TEXT NOT NULL,
            created_at INTEGER NOT NULL,
            revoked INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX grants_by_code ON grants(code_hash);
        CREATE TABLE refresh_tokens (
            hash TEXT PRIMARY KEY,
            grant_id TEXT NOT NULL REFERENCES grants(id),
            expires_at INTEGER NOT NULL,
            -- Set when rotated; presenting it again is a replay and revokes the grant.
            used INTEGER NOT NULL DEFAULT 0
        );
        CREATE INDEX refresh_tokens_by_grant ON refresh_tokens(grant_id);
        CREATE TABLE access_tokens (
            jti TEXT PRIMARY KEY,
            grant_id TEXT NOT NULL REFERENCES grants(id),
            expires_at INTEGER NOT NULL
        );
        CREATE INDEX access_tokens_by_expiry ON access_tokens(expires_at);
        CREATE TABLE used_jtis (
            jti TEXT PRIMARY KEY,
            expires_at INTEGER NOT NULL
        );
        CREATE INDEX used_jtis_by_expiry ON used_jtis(expires_at);
        """,
        // The issuer of a flow is the origin its PAR proof named (one server, several origins). Rows from before
        // have '' and take the origin of the next proof that uses them.
        """
        ALTER TABLE par_requests ADD COLUMN issuer TEXT NOT NULL DEFAULT '';
        ALTER TABLE codes ADD COLUMN issuer TEXT NOT NULL DEFAULT '';
        ALTER TABLE grants ADD COLUMN issuer TEXT NOT NULL DEFAULT '';
        """,
        // Every column the pruning timer (AuthServer.pruneExpired) searches, so it never scans a table; the
        // partial index holds only revoked grants, whose tokens are deleted.
        """
        CREATE INDEX par_requests_by_expiry ON par_requests(expires_at);
        CREATE INDEX codes_by_expiry ON codes(expires_at);
        CREATE INDEX refresh_tokens_by_expiry ON refresh_tokens(expires_at);
        CREATE INDEX access_tokens_by_grant ON access_tokens(grant_id);
        CREATE INDEX grants_by_creation ON grants(created_at);
        CREATE INDEX grants_by_did ON grants(did);
        CREATE INDEX grants_revoked ON grants(id) WHERE revoked = 1;
        """,
    ]
}
