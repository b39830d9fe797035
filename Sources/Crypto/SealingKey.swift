import COpenSSL

/// An AES-256-GCM key for tokens and keys at rest.
///
/// Sealed format: 12-byte random nonce `||` ciphertext `||` 16-byte tag. The `context` string is authenticated
/// (AAD) but not stored, so a value sealed for one row cannot be opened as another.
public struct SealingKey: Sendable, CustomStringConvertible {
    static let keySize = 32
    static let nonceSize = 12
    static let tagSize = 16

    private let key: [UInt8]

    /// - Parameter rawRepresentation: exactly 32 bytes.
    public init(rawRepresentation: [UInt8]) throws(CryptoError) {
        guard rawRepresentation.count == Self.keySize else {
            throw CryptoError("an AES-256-GCM key is 32 bytes, got \(rawRepresentation.count)")
        }
        key = rawRepresentation
    }

    /// A fresh key from the CSPRNG.
    public static func random() -> SealingKey {
        SealingKey(unchecked: SecureRandom.bytes(keySize))
    }

    private init(unchecked key: [UInt8]) {
        self.key = key
    }

    /// The 32 key bytes, for storage in configuration.
    public var rawRepresentation: [UInt8] { key }

    /// Keeps the key out of logs.
    public var description: String { "SealingKey(redacted)" }

    /// Encrypts and authenticates `plaintext`, binding it to `context`.
    /// - Parameters:
    ///   - plaintext: the secret.
    ///   - context: where the value belongs, e.g. "session-token:<id>"; the same string is needed to open it.
    /// - Returns: nonce `||` ciphertext `||` tag.
    public func seal(_ plaintext: [UInt8], context: String) throws(CryptoError) -> [UInt8] {
        let nonce = SecureRandom.bytes(Self.nonceSize)
        let (ciphertext, tag) = try GCM.run(
            encrypt: true, key: key, nonce: nonce, aad: Array(context.utf8), input: plaintext, tag: nil)
        return nonce + ciphertext + tag
    }

    /// Decrypts a value from ``seal(_:context:)``.
    /// - Throws: if the key or context differ, or the data was truncated or altered.
    public func open(_ sealed: [UInt8], context: String) throws(CryptoError) -> [UInt8] {
        guard sealed.count >= Self.nonceSize + Self.tagSize else { throw CryptoError("sealed value is too short") }
        let nonce = Array(sealed.prefix(Self.nonceSize))
        let ciphertext = Array(sealed.dropFirst(Self.nonceSize).dropLast(Self.tagSize))
        let tag = Array(sealed.suffix(Self.tagSize))
        return try GCM.run(
            encrypt: false, key: key, nonce: nonce, aad: Array(context.utf8), input: ciphertext, tag: tag
        ).output
    }
}

/// One AES-256-GCM pass through libcrypto's EVP cipher interface, with a context of its own.
private enum GCM {
    static func run(
        encrypt: Bool, key: [UInt8], nonce: [UInt8], aad: [UInt8], input: [UInt8], tag: [UInt8]?
    ) throws(CryptoError) -> (output: [UInt8], tag: [UInt8]) {
        guard let context = EVP_CIPHER_CTX_new() else { throw .openSSL("EVP_CIPHER_CTX_new failed") }
        defer { EVP_CIPHER_CTX_free(context) }
        let mode: Int32 = encrypt ? 1 : 0
        // Setup: cipher first, then the nonce length (12 is GCM's default, set anyway), then key and nonce.
        let ready = key.withUnsafeBufferPointer { keyBuffer in
            nonce.withUnsafeBufferPointer { nonceBuffer in
                EVP_CipherInit_ex(context, EVP_aes_256_gcm(), nil, nil, nil, mode) == 1
                    && EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, Int32(nonceBuffer.count), nil) == 1
                    && EVP_CipherInit_ex(context, nil, nil, keyBuffer.baseAddress, nonceBuffer.baseAddress, mode) == 1
            }
        }
        guard ready else { throw .openSSL("AES-256-GCM setup failed") }
        var length: Int32 = 0
        if !aad.isEmpty {
            let ok = aad.withUnsafeBufferPointer {
                EVP_CipherUpdate(context, nil, &length, $0.baseAddress, Int32($0.count))
            }
            guard ok == 1 else { throw .openSSL("AES-256-GCM AAD failed") }
        }
        // GCM is a stream mode: output is exactly as long as input, and Final adds nothing.
        var output = [UInt8](repeating: 0, count: input.count)
        if !input.isEmpty {
            let ok = input.withUnsafeBufferPointer { inBuffer in
                output.withUnsafeMutableBufferPointer { outBuffer in
                    EVP_CipherUpdate(
                        context, outBuffer.baseAddress, &length, inBuffer.baseAddress, Int32(inBuffer.count))
                }
            }
            guard ok == 1, Int(length) == input.count else { throw .openSSL("AES-256-GCM update failed") }
        }
        if var expected = tag {
            let ok = expected.withUnsafeMutableBytes {
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32($0.count), $0.baseAddress)
            }
            guard ok == 1 else { throw .openSSL("AES-256-GCM set tag failed") }
        }
        var tail = [UInt8](repeating: 0, count: 16)
        let finished = tail.withUnsafeMutableBufferPointer { EVP_CipherFinal_ex(context, $0.baseAddress, &length) }
        guard finished == 1 else {
            if !encrypt {
                OpenSSLErrors.discard()
                throw CryptoError("sealed value failed authentication (wrong key or context, or altered data)")
            }
            throw .openSSL("AES-256-GCM finish failed")
        }
        var producedTag = [UInt8](repeating: 0, count: 16)
        if encrypt {
            let ok = producedTag.withUnsafeMutableBytes {
                EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, Int32($0.count), $0.baseAddress)
            }
            guard ok == 1 else { throw .openSSL("AES-256-GCM get tag failed") }
        }
        return (output, producedTag)
    }
}
