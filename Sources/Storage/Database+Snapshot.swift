import CSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// Consistent copies of a live database, and what a clean stop and a backup check need.
extension Database {
    /// Copies the database file at `source` to `destination` through SQLite's online backup API, in one step, so
    /// the copy is one committed state of the database however many writers (in this process or another) keep
    /// writing: in WAL mode the copy holds a read snapshot and writers are not blocked. The copy is a self-contained
    /// file in rollback-journal mode (no `-wal` beside it). Never copy a live database's file with `cp`: its WAL
    /// holds the newest pages.
    /// - Throws: `StorageError` when `source` is missing or unreadable, `destination` exists, or the copy fails
    ///   (a partial `destination` is removed).
    public static func snapshot(ofFileAt source: String, to destination: String) throws(StorageError) {
        guard access(source, R_OK) == 0 else {
            throw StorageError(code: SQLITE_CANTOPEN, message: "no readable database at \(source)", sql: nil)
        }
        guard access(destination, F_OK) != 0 else {
            throw StorageError(code: SQLITE_CANTOPEN, message: "\(destination) already exists", sql: nil)
        }
        do throws(StorageError) {
            let from = try Connection(path: source, readOnly: false)
            let to = try Connection(path: destination, readOnly: false)
            guard let backup = sqlite3_backup_init(to.handle, "main", from.handle, "main") else {
                throw StorageError(code: sqlite3_errcode(to.handle), message: String(cString: sqlite3_errmsg(to.handle)), sql: nil)
            }
            // -1: every page in one step, under one read transaction of the source: one consistent state.
            let stepped = sqlite3_backup_step(backup, -1)
            let finished = sqlite3_backup_finish(backup)
            guard stepped == SQLITE_DONE, finished == SQLITE_OK else {
                throw StorageError(
                    code: stepped == SQLITE_DONE ? finished : stepped,
                    message: "the copy of \(source) failed: "
                        + String(cString: sqlite3_errmsg(to.handle)), sql: nil)
            }
            // The copy carries the source's WAL flag; a snapshot is one file, so it goes back to a rollback journal.
            try to.executeScript("PRAGMA journal_mode=DELETE")
        } catch {
            unlink(destination)
            for suffix in ["-wal", "-shm", "-journal"] { unlink(destination + suffix) }
            throw error
        }
    }

    /// Merges the write-ahead log into the database file and truncates it to nothing
    /// (`PRAGMA wal_checkpoint(TRUNCATE)`), so the `.sqlite` file alone holds every committed change. A clean stop
    /// calls this; it waits (up to the busy timeout) for readers to finish.
    /// - Returns: false when readers or another process kept some frames from being merged.
    @discardableResult
    public func checkpoint() throws -> Bool {
        try withWriter { connection in
            let row = try connection.queryOne("PRAGMA wal_checkpoint(TRUNCATE)")
            // busy = 1 when the checkpoint could not finish; log = frames in the WAL, -1 when not in WAL mode.
            return row?.int("busy") == 0
        }
    }
}

extension Connection {
    /// Opens a database file read-only, for checks of a copy (a snapshot in a backup).
    public static func readOnly(_ path: String) throws(StorageError) -> Connection {
        guard access(path, R_OK) == 0 else {
            throw StorageError(code: SQLITE_CANTOPEN, message: "no readable database at \(path)", sql: nil)
        }
        return try Connection(path: path, readOnly: true)
    }

    /// `PRAGMA integrity_check`: empty when the file is sound, else SQLite's list of problems (at most ten).
    public func integrityProblems() throws(StorageError) -> [String] {
        let rows = try query("PRAGMA integrity_check(10)")
        let lines = rows.compactMap {
            $0.values.first.flatMap { value -> String? in
                if case .text(let text) = value { return text }
                return nil
            }
        }
        return lines == ["ok"] ? [] : lines
    }

    /// The number of rows in each table (SQLite's internal tables left out), by table name.
    public func rowCounts() throws(StorageError) -> [String: Int] {
        let tables = try query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
            .compactMap { $0.string("name") }
        var counts: [String: Int] = [:]
        for table in tables {
            counts[table] = try queryOne("SELECT COUNT(*) AS n FROM \(Self.quotedIdentifier(table))")?.int("n") ?? 0
        }
        return counts
    }

    /// `name` as an SQLite identifier: in double quotes, each `"` in it doubled. A backup's database may come from
    /// anyone, so its table names are hostile input. The doubling works on UTF-8 bytes, as SQLite's tokenizer reads
    /// them: Swift's Characters would miss a `"` that a combining mark joins (`"\u{301}` is one Character), which
    /// would end the quoted name early and leave the rest of it to be read as SQL.
    static func quotedIdentifier(_ name: String) -> String {
        var bytes: [UInt8] = [0x22]
        for byte in name.utf8 {
            bytes.append(byte)
            if byte == 0x22 { bytes.append(0x22) }
        }
        bytes.append(0x22)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `PRAGMA user_version`: the schema version (see ``Database/schemaVersion``).
    public func schemaVersion() throws(StorageError) -> Int {
        try queryOne("PRAGMA user_version")?.int("user_version") ?? 0
    }
}
