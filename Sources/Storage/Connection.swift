import CSQLite

// SQLITE_TRANSIENT is a cast macro that Swift cannot import: SQLite copies the bound bytes.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// One SQLite connection with a prepared-statement cache.
///
/// A connection is used by one thread at a time: `Database` hands it out under a lock, which is why
/// it may be marked Sendable without guarding its own state.
public final class Connection: @unchecked Sendable {
    nonisolated(unsafe) let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    init(path: String, readOnly: Bool) throws(StorageError) {
        var db: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
            | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
            if let db { sqlite3_close_v2(db) }
            throw StorageError(code: rc, message: "\(message) at \(path)", sql: nil)
        }
        handle = db
        // Writers queue behind each other for up to five seconds before SQLITE_BUSY surfaces.
        sqlite3_busy_timeout(db, 5000)
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs a statement that returns no rows (or whose rows are ignored).
    public func execute(_ sql: String, _ arguments: [any SQLBindable] = []) throws(StorageError) {
        _ = try run(sql, arguments, collect: false)
    }

    /// Runs one or more `;`-separated statements without parameters (schema scripts).
    public func executeScript(_ sql: String) throws(StorageError) {
        var error: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &error)
        if rc != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw StorageError(code: rc, message: message, sql: sql)
        }
    }

    /// Runs a query and returns every row.
    public func query(_ sql: String, _ arguments: [any SQLBindable] = []) throws(StorageError) -> [Row] {
        try run(sql, arguments, collect: true)
    }

    /// The first row of a query, if any.
    public func queryOne(_ sql: String, _ arguments: [any SQLBindable] = []) throws(StorageError) -> Row? {
        try query(sql, arguments).first
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    private func prepared(_ sql: String) throws(StorageError) -> OpaquePointer {
        if let cached = statements[sql] { return cached }
        var statement: OpaquePointer?
        let rc = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard rc == SQLITE_OK, let statement else { throw error(rc, sql) }
        statements[sql] = statement
        return statement
    }

    private func run(_ sql: String, _ arguments: [any SQLBindable], collect: Bool) throws(StorageError) -> [Row] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, argument) in arguments.enumerated() {
            try bind(argument.sqlValue, at: Int32(offset + 1), in: statement, sql: sql)
        }
        var rows: [Row] = []
        var columns: [String]?
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { break }
            guard rc == SQLITE_ROW else { throw error(rc, sql) }
            guard collect else { continue }
            let count = sqlite3_column_count(statement)
            if columns == nil {
                columns = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
            }
            rows.append(Row(columns: columns!, values: (0..<count).map { column(statement, $0) }))
        }
        return rows
    }

    private func bind(_ value: SQLValue, at index: Int32, in statement: OpaquePointer, sql: String) throws(StorageError) {
        let rc: Int32
        switch value {
        case .null: rc = sqlite3_bind_null(statement, index)
        case .integer(let i): rc = sqlite3_bind_int64(statement, index, i)
        case .real(let d): rc = sqlite3_bind_double(statement, index, d)
        case .text(let s): rc = sqlite3_bind_text(statement, index, s, -1, transient)
        case .blob(let b):
            rc = b.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), transient) }
        }
        if rc != SQLITE_OK { throw error(rc, sql) }
    }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, index)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let base = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
        default: return .null
        }
    }

    private func error(_ rc: Int32, _ sql: String?) -> StorageError {
        StorageError(code: rc, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
}
