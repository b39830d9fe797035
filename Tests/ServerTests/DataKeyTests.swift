import Crypto
import Foundation
import Storage
import TestSupport
import Testing

@testable import Server

/// A stolen backup of the data directory must not open the tokens sealed in it.
@Suite struct DataKeyTests {
    func location(_ data: TemporaryDirectory, keys: TemporaryDirectory) -> DataKey.Location {
        DataKey.Location(dataDirectory: data.path, keyFile: nil, keyDirectory: keys.path)
    }

    @Test("the key is made outside the data directory, 0600 in a 0700 folder; the data directory keeps only a key id")
    func keyLivesOutsideTheData() throws {
        let data = TemporaryDirectory("data")
        let keys = TemporaryDirectory("keys")
        let key = try DataKey.load(location(data, keys: keys), environment: [:])
        let id = try String(contentsOfFile: data.path + "/key-id", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let path = keys.path + "/\(id).key"
        let stored = try #require(FileManager.default.contents(atPath: path))
        #expect([UInt8](stored) == key.rawRepresentation)
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600)
        for file in try FileManager.default.contentsOfDirectory(atPath: data.path) {
            let bytes = [UInt8](FileManager.default.contents(atPath: data.path + "/" + file) ?? Data())
            #expect(!bytes.containsSubsequence(key.rawRepresentation), "\(file) must not hold the key")
        }
        // The same key comes back on the next start.
        #expect(try DataKey.load(location(data, keys: keys), environment: [:]).rawRepresentation == key.rawRepresentation)
    }

    @Test("a key file inside the data directory is refused unless the operator says so")
    func keyInsideTheDataIsRefused() throws {
        let data = TemporaryDirectory("data")
        var inside = DataKey.Location(dataDirectory: data.path, keyFile: data.path + "/nested/../secret.key", keyDirectory: nil)
        #expect(throws: DataKey.KeyError.self) { try DataKey.load(inside, environment: [:]) }
        inside.allowInData = true
        _ = try DataKey.load(inside, environment: [:])
    }

    @Test("the secret.key older versions kept in the data directory is moved out, unchanged")
    func legacyKeyIsMovedOut() throws {
        let data = TemporaryDirectory("data")
        let keys = TemporaryDirectory("keys")
        let old = SealingKey.random()
        #expect(FileManager.default.createFile(atPath: data.path + "/secret.key", contents: Data(old.rawRepresentation)))
        let key = try DataKey.load(location(data, keys: keys), environment: [:])
        #expect(key.rawRepresentation == old.rawRepresentation)
        #expect(!FileManager.default.fileExists(atPath: data.path + "/secret.key"))
    }

    @Test("a data directory with sealed state and no key is refused with a clear message, never given a fresh key")
    func missingKeyIsNotReplaced() throws {
        let data = TemporaryDirectory("data")
        _ = try DataKey.load(location(data, keys: TemporaryDirectory("keys")), environment: [:])
        // A session sealed with the first key.
        let front = try Database(path: data.path + "/front.sqlite")
        try front.write {
            try $0.execute("CREATE TABLE sessions (id TEXT)")
            try $0.execute("INSERT INTO sessions VALUES ('sealed')")
        }
        do {
            _ = try DataKey.load(location(data, keys: TemporaryDirectory("other")), environment: [:])
            Issue.record("a new key would make every sealed session unreadable")
        } catch let error as DataKey.KeyError {
            #expect(error.description.contains("restore the key file"))
        }
    }
}

extension Array where Element == UInt8 {
    func containsSubsequence(_ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, count >= needle.count else { return false }
        return (0...(count - needle.count)).contains { self[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
