import Foundation
import Storage
import Testing

struct HeaderCheckTests {
    func path() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("header-\(UUID().uuidString).sqlite").path
    }

    @Test("a database SQLite wrote has an intact header; one whose first bytes are overwritten does not")
    func writtenAndOverwritten() throws {
        let file = path()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
        let database = try Database(path: file)
        try database.write { try $0.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)") }
        #expect(Database.headerIsIntact(ofFileAt: file))

        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        bytes.replaceSubrange(0..<512, with: [UInt8](repeating: 0, count: 512))
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        #expect(!Database.headerIsIntact(ofFileAt: file), "a lost first sector")
    }

    @Test("the magic string with an impossible page size is damaged; an empty or missing file is not this check's to refuse")
    func edges() throws {
        let file = path()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let magic = Array("SQLite format 3".utf8) + [0]
        for (pageSize, intact) in [(4096, true), (1, true), (512, true), (32_768, true), (1000, false), (256, false), (0, false)] {
            try Data(magic + [UInt8(pageSize >> 8 & 0xFF), UInt8(pageSize & 0xFF)] + [UInt8](repeating: 0, count: 82))
                .write(to: URL(fileURLWithPath: file))
            #expect(Database.headerIsIntact(ofFileAt: file) == intact, "page size \(pageSize)")
        }
        try Data(magic.prefix(10)).write(to: URL(fileURLWithPath: file))
        #expect(!Database.headerIsIntact(ofFileAt: file), "a file cut inside the header")
        try Data().write(to: URL(fileURLWithPath: file))
        #expect(Database.headerIsIntact(ofFileAt: file), "empty: a database not yet written")
        #expect(Database.headerIsIntact(ofFileAt: file + "-missing"), "missing is reported as missing, not as damaged")
    }
}
