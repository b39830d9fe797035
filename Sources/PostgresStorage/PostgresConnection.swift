import CPostgres
import Foundation
public import Storage

#if canImport(Glibc)
    import Glibc
#endif

/// One libpq connection. Every statement is sent with `PQexecParams`: values travel apart from the SQL text, never
/// spliced into it. Results come back as text and are read by the column's type (`int8`, `bytea`, `text`, …) into
/// Storage's `Row`, the same rows the SQLite stores read.
///
/// A connection is used by one caller at a time: `PostgresDatabase` hands it out from its pool, which is why it may
/// be marked Sendable without guarding its own state.
public final class PostgresConnection: @unchecked Sendable {
    nonisolated(unsafe) let handle: OpaquePointer

    /// Connects to `url` (`postgres://user@host:port/db?...` or `postgresql:///db?host=/run/postgresql`). Defaults
    /// that the URL may override: a 5-second connect timeout, and a 10-second statement timeout so a stuck
    /// statement cannot hold a request forever.
    init(url: String) throws(PostgresError) {
        let keywords = ["connect_timeout", "application_name", "options", "dbname"]
        let values = ["5", "grain-stories", "-c statement_timeout=10000", url]
        let connection = withCStrings(keywords) { keys in
            withCStrings(values) { vals in PQconnectdbParams(keys, vals, 1) }
        }
        guard let connection else { throw PostgresError(.connect, "out of memory opening a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.errorText(connection)
            PQfinish(connection)
            throw PostgresError(.connect, "could not connect (\(message)); check the --sessions URL and that the server runs")
        }
        handle = connection
        // Notices (e.g. "relation already exists, skipping") are for a console, not the server's output.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// Set when the connection may be left in a state the next caller must not inherit (a lock that could not be
    /// released, a transaction that could not be rolled back): the pool closes it instead of keeping it.
    var isPoisoned = false

    /// Whether the connection is still usable (false after the server went away, or once poisoned).
    var isHealthy: Bool { !isPoisoned && PQstatus(handle) == CONNECTION_OK }

    /// Runs a statement and returns its rows (none for statements that return none).
    public func query(_ sql: String, _ arguments: [any SQLBindable] = []) throws(PostgresError) -> [Row] {
        try run(sql, arguments).rows
    }

    /// The first row of a query, if any.
    public func queryOne(_ sql: String, _ arguments: [any SQLBindable] = []) throws(PostgresError) -> Row? {
        try query(sql, arguments).first
    }

    /// Runs a statement; returns the number of rows it inserted, updated or deleted.
    @discardableResult
    public func execute(_ sql: String, _ arguments: [any SQLBindable] = []) throws(PostgresError) -> Int {
        try run(sql, arguments).affected
    }

    private func run(_ sql: String, _ arguments: [any SQLBindable]) throws(PostgresError) -> (rows: [Row], affected: Int) {
        let parameters = arguments.map { Parameter($0.sqlValue) }
        defer { for parameter in parameters { parameter.release() } }
        var types = parameters.map(\.type)
        var formats = parameters.map(\.format)
        var lengths = parameters.map(\.length)
        var pointers: [UnsafePointer<CChar>?] = parameters.map { $0.bytes.map { UnsafePointer($0) } }
        let result = PQexecParams(handle, sql, Int32(parameters.count), &types, &pointers, &lengths, &formats, 0)
        guard let result else {
            isPoisoned = true
            throw PostgresError(.connectionLost, Self.errorText(handle), sql: sql)
        }
        defer { PQclear(result) }
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK:
            return ([], Int(String(cString: PQcmdTuples(result))) ?? 0)
        case PGRES_TUPLES_OK:
            return (try Self.rows(of: result, sql: sql), Int(PQntuples(result)))
        default:
            let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) }
            let message = PQresultErrorMessage(result).map { String(cString: $0) } ?? "unknown error"
            // Only an error the server sent carries a SQLSTATE. One libpq made itself (the socket closed under a
            // restart), a backend told to stop (57P) or a broken link (08) leaves a connection libpq may still call
            // fine; it must not go back to the pool.
            if state.map({ $0.hasPrefix("08") || $0.hasPrefix("57P") }) ?? true { isPoisoned = true }
            let code: PostgresError.Code = isHealthy ? .statement : .connectionLost
            throw PostgresError(code, message.trimmingCharacters(in: .newlines), sqlState: state, sql: sql)
        }
    }

    static func errorText(_ connection: OpaquePointer) -> String {
        PQerrorMessage(connection).map { String(cString: $0) }?.trimmingCharacters(in: .newlines) ?? "unknown error"
    }

    /// Reads every row of a text-format result by column type.
    static func rows(of result: OpaquePointer, sql: String) throws(PostgresError) -> [Row] {
        let columnCount = Int(PQnfields(result))
        let columns = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        let types = (0..<columnCount).map { PQftype(result, Int32($0)) }
        var rows: [Row] = []
        rows.reserveCapacity(Int(PQntuples(result)))
        for row in 0..<PQntuples(result) {
            var values: [SQLValue] = []
            values.reserveCapacity(columnCount)
            for column in 0..<columnCount {
                if PQgetisnull(result, row, Int32(column)) != 0 {
                    values.append(.null)
                    continue
                }
                let text = String(cString: PQgetvalue(result, row, Int32(column)))
                guard let value = TypeOID.value(text, type: types[column]) else {
                    throw PostgresError(.unexpectedResult, "column \(columns[column]) holds \(text.prefix(40))", sql: sql)
                }
                values.append(value)
            }
            rows.append(Row(columns: columns, values: values))
        }
        return rows
    }
}

/// One statement parameter as libpq takes it: text for numbers and strings, binary for `bytea`.
private struct Parameter {
    let type: Oid
    let format: Int32
    let length: Int32
    let bytes: UnsafeMutablePointer<CChar>?

    init(_ value: SQLValue) {
        switch value {
        case .null: (type, format, length, bytes) = (0, 0, 0, nil)
        case .integer(let n): (type, format, length, bytes) = (TypeOID.int8, 0, 0, strdup(String(n)))
        case .real(let d): (type, format, length, bytes) = (TypeOID.float8, 0, 0, strdup(String(d)))
        case .text(let s): (type, format, length, bytes) = (TypeOID.text, 0, 0, strdup(s))
        case .blob(let b):
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, b.count))
            b.withUnsafeBytes { raw in
                if let base = raw.baseAddress { UnsafeMutableRawPointer(copy).copyMemory(from: base, byteCount: raw.count) }
            }
            (type, format, length, bytes) = (TypeOID.bytea, 1, Int32(b.count), copy)
        }
    }

    func release() { free(bytes) }
}

/// The built-in type OIDs (PostgreSQL's `pg_type.dat`), and how text-format values of each read.
enum TypeOID {
    static let bool: Oid = 16
    static let bytea: Oid = 17
    static let int8: Oid = 20
    static let int2: Oid = 21
    static let int4: Oid = 23
    static let text: Oid = 25
    static let float4: Oid = 700
    static let float8: Oid = 701
    static let varchar: Oid = 1043

    static func value(_ text: String, type: Oid) -> SQLValue? {
        switch type {
        case int8, int2, int4: return Int64(text).map(SQLValue.integer)
        case float4, float8: return Double(text).map(SQLValue.real)
        case bool: return .integer(text == "t" ? 1 : 0)
        case bytea: return hexBytes(text).map(SQLValue.blob)
        default: return .text(text)
        }
    }

    /// `bytea` in the server's default `hex` output: `\x` then two hex digits per byte.
    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count >= 2, digits[0] == UInt8(ascii: "\\"), digits[1] == UInt8(ascii: "x"), digits.count % 2 == 0 else {
            return nil
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity((digits.count - 2) / 2)
        var index = 2
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Calls `body` with a NULL-terminated array of C strings that live for the call.
private func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> T) -> T {
    let copies = strings.map { strdup($0) }
    defer { for copy in copies { free(copy) } }
    let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } } + [nil]
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
