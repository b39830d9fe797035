import Crypto
import Storage

/// The secrets `auth.sqlite` keeps sealed under the configured key (the token-signing key, the HMAC secret).
struct SealedSecrets {
    let database: Database
    let sealingKey: SealingKey

    /// Reads a sealed secret, creating and storing it on first use.
    func secret(_ name: String, create: () -> [UInt8]) throws -> [UInt8] {
        let context = "grain-stories auth.sqlite " + name
        return try database.write { connection in
            if let sealed = try connection.queryOne("SELECT sealed FROM secrets WHERE name = ?", [name])?.bytes("sealed") {
                do {
                    return try sealingKey.open(sealed, context: context)
                } catch {
                    throw AuthServerError("cannot open the stored \(name): wrong sealing key or damaged auth.sqlite")
                }
            }
            let value = create()
            try connection.execute(
                "INSERT INTO secrets (name, sealed) VALUES (?, ?)", [name, try sealingKey.seal(value, context: context)])
            return value
        }
    }
}
