import Crypto
import Foundation

/// The AES-256-GCM key that seals tokens and DPoP keys at rest: from `GRAIN_STORIES_DATA_KEY`
/// (base64url, 32 bytes) when set, else `<data>/secret.key`, created with mode 0600 on first start.
enum DataKey {
    static let environmentVariable = "GRAIN_STORIES_DATA_KEY"

    struct KeyError: Error, CustomStringConvertible {
        let description: String
    }

    static func load(
        dataDirectory: String, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws
        -> SealingKey
    {
        if let encoded = environment[environmentVariable] {
            guard let raw = Base64URL.decode(encoded), raw.count == 32, let key = try? SealingKey(rawRepresentation: raw) else {
                throw KeyError(description: "\(environmentVariable) must be 32 bytes in base64url")
            }
            return key
        }
        let path = dataDirectory + "/secret.key"
        if let data = FileManager.default.contents(atPath: path) {
            guard let key = try? SealingKey(rawRepresentation: [UInt8](data)) else {
                throw KeyError(description: "\(path) is not a 32-byte key; restore it from a backup")
            }
            return key
        }
        try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
        let key = SealingKey.random()
        guard FileManager.default.createFile(atPath: path, contents: Data(key.rawRepresentation), attributes: [.posixPermissions: 0o600])
        else { throw KeyError(description: "could not create \(path)") }
        return key
    }
}
