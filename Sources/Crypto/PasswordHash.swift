import COpenSSL
import Foundation

/// Password hashing with scrypt (RFC 7914) in a PHC-style string: `$scrypt$ln=17,r=8,p=1$<salt>$<hash>`,
/// salt and hash in standard base64 without padding.
///
/// Passwords are hashed as their UTF-8 bytes, without Unicode normalisation.
public enum PasswordHash {
    /// scrypt cost parameters.
    public struct Parameters: Sendable, Equatable {
        /// CPU/memory cost; a power of two.
        public var n: UInt64
        /// Block size.
        public var r: UInt64
        /// Parallelism.
        public var p: UInt64

        public init(n: UInt64, r: UInt64, p: UInt64) {
            self.n = n
            self.r = r
            self.p = p
        }

        /// N = 2^17, r = 8, p = 1: today's common guidance for scrypt (OWASP's Password Storage Cheat Sheet gives
        /// these as its scrypt minimum); 128 MiB and a few hundred milliseconds per hash.
        public static let standard = Parameters(n: 1 << 17, r: 8, p: 1)
        /// N = 2^10: fast enough for unit tests, too weak for real passwords.
        public static let fastForTests = Parameters(n: 1 << 10, r: 8, p: 1)

        /// Whether these parameters cost at least as much as `other` in every dimension, so a hash made with them
        /// need not be redone to reach `other`.
        public func isAtLeast(_ other: Parameters) -> Bool {
            n >= other.n && r >= other.r && p >= other.p
        }

        /// log2(N), when N is a power of two above 1.
        var logN: Int? {
            n > 1 && n & (n - 1) == 0 ? n.trailingZeroBitCount : nil
        }

        /// Stored strings are input too: bound memory (128·r·N ≤ 256 MiB) and work (N·r·p ≤ 2^22) so a planted
        /// hash cannot make one login cost gigabytes or seconds.
        var isAcceptable: Bool {
            guard let logN, logN <= 20, (1...32).contains(r), (1...16).contains(p) else { return false }
            return r << UInt64(logN) <= 1 << 21 && (r * p) << UInt64(logN) <= 1 << 22
        }

        /// The memory scrypt needs (EVP_PBE_scrypt's own estimate) plus slack, passed as `maxmem`.
        var memoryLimit: UInt64 {
            128 * r * (n + p + 2) + (1 << 20)
        }
    }

    static let saltSize = 16
    static let hashSize = 32

    /// Hashes `password` with a fresh 16-byte salt.
    /// - Parameters:
    ///   - password: the password as typed.
    ///   - parameters: scrypt costs; ``Parameters/standard`` unless testing.
    /// - Returns: the self-describing string to store.
    public static func hash(_ password: String, parameters: Parameters = .standard) throws(CryptoError) -> String {
        guard let logN = parameters.logN, parameters.isAcceptable else {
            throw CryptoError("scrypt parameters out of range (N a power of two up to 2^20, r ≤ 32, p ≤ 16)")
        }
        let salt = SecureRandom.bytes(saltSize)
        let derived = try scrypt(password, salt: salt, parameters: parameters, length: hashSize)
        return "$scrypt$ln=\(logN),r=\(parameters.r),p=\(parameters.p)$\(encode(salt))$\(encode(derived))"
    }

    /// The parameters a stored string was made with, so a caller can rehash one weaker than today's; nil when the
    /// string is malformed or out of range (``verify(_:against:)`` refuses those too).
    public static func parameters(of encoded: String) -> Parameters? {
        Stored(encoded)?.parameters
    }

    /// Checks `password` against a stored string in constant time. Malformed strings and out-of-range parameters
    /// give false, never a crash.
    public static func verify(_ password: String, against encoded: String) -> Bool {
        guard let stored = Stored(encoded),
            let derived = try? scrypt(
                password, salt: stored.salt, parameters: stored.parameters, length: stored.hash.count)
        else { return false }
        return constantTimeEquals(derived, stored.hash)
    }

    static func scrypt(
        _ password: String, salt: [UInt8], parameters: Parameters, length: Int
    ) throws(CryptoError)
        -> [UInt8]
    {
        var out = [UInt8](repeating: 0, count: length)
        let passwordBytes = Array(password.utf8) + [0]  // a real pointer even for ""; the length excludes it
        let ok = passwordBytes.withUnsafeBytes { passwordBuffer in
            salt.withUnsafeBufferPointer { saltBuffer in
                out.withUnsafeMutableBufferPointer { outBuffer in
                    EVP_PBE_scrypt(
                        passwordBuffer.baseAddress?.assumingMemoryBound(to: CChar.self), passwordBuffer.count - 1,
                        saltBuffer.baseAddress, saltBuffer.count, parameters.n, parameters.r, parameters.p,
                        parameters.memoryLimit, outBuffer.baseAddress, outBuffer.count)
                }
            }
        }
        guard ok == 1 else { throw .openSSL("EVP_PBE_scrypt failed") }
        return out
    }

    /// Standard base64 without padding (the PHC string format's alphabet).
    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "=", with: "")
    }

    static func decode(_ text: Substring) -> [UInt8]? {
        guard !text.isEmpty, text.count % 4 != 1, !text.contains("=") else { return nil }
        let padded = String(text) + String(repeating: "=", count: (4 - text.count % 4) % 4)
        return Data(base64Encoded: padded).map { Array($0) }
    }

    /// A parsed stored string; nil unless every part is exactly as ``hash(_:parameters:)`` writes it.
    private struct Stored {
        var parameters: Parameters
        var salt: [UInt8]
        var hash: [UInt8]

        init?(_ encoded: String) {
            guard encoded.utf8.count <= 512 else { return nil }
            let sections = encoded.split(separator: "$", omittingEmptySubsequences: false)
            guard sections.count == 5, sections[0].isEmpty, sections[1] == "scrypt" else { return nil }
            let fields = sections[2].split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count == 3,
                let logN = Self.number(fields[0], named: "ln"), let r = Self.number(fields[1], named: "r"),
                let p = Self.number(fields[2], named: "p"), (1...20).contains(logN)
            else { return nil }
            let parameters = Parameters(n: 1 << logN, r: r, p: p)
            guard parameters.isAcceptable,
                let salt = PasswordHash.decode(sections[3]), (8...64).contains(salt.count),
                let hash = PasswordHash.decode(sections[4]), (16...64).contains(hash.count)
            else { return nil }
            self.parameters = parameters
            self.salt = salt
            self.hash = hash
        }

        /// `name=digits`, at most three digits, so no overflow and no signs.
        private static func number(_ field: Substring, named name: String) -> UInt64? {
            guard field.hasPrefix(name + "=") else { return nil }
            let digits = field.dropFirst(name.count + 1)
            guard (1...3).contains(digits.count), digits.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return nil
            }
            return UInt64(digits)
        }
    }
}
