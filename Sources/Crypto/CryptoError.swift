import COpenSSL

/// A failure in a cryptographic operation or in parsing cryptographic input.
///
/// `message` says what we were doing; `openSSLReason` carries libcrypto's own explanation when it had one,
/// which is what makes "EVP_PKEY_fromdata failed" diagnosable in a log.
public struct CryptoError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What failed, in our words.
    public let message: String
    /// libcrypto's error string for the first queued error, if any.
    public let openSSLReason: String?

    /// An error that did not come from libcrypto (bad input, wrong lengths, failed checks).
    public init(_ message: String) {
        self.message = message
        self.openSSLReason = nil
    }

    init(message: String, openSSLReason: String?) {
        self.message = message
        self.openSSLReason = openSSLReason
    }

    public var description: String {
        guard let openSSLReason else { return message }
        return "\(message) (OpenSSL: \(openSSLReason))"
    }

    /// An error after a libcrypto call failed: takes its error string and clears the thread's error queue,
    /// so a stale entry can never be blamed on a later, unrelated call.
    static func openSSL(_ message: String) -> CryptoError {
        CryptoError(message: message, openSSLReason: OpenSSLErrors.drain())
    }
}

/// libcrypto's per-thread error queue.
enum OpenSSLErrors {
    /// The first queued error as text, clearing the queue.
    static func drain() -> String? {
        let code = ERR_get_error()
        defer { ERR_clear_error() }
        guard code != 0 else { return nil }
        var buffer = [CChar](repeating: 0, count: 256)
        buffer.withUnsafeMutableBufferPointer { ERR_error_string_n(code, $0.baseAddress, $0.count) }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Forgets queued errors after a failure that is an expected answer (a bad signature), not a fault.
    static func discard() {
        ERR_clear_error()
    }
}
