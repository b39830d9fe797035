import Crypto
import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

/// A cached page, ready to go out again with a fresh CSP nonce. Where the old nonce sits is found once, when the page
/// is stored; each hit copies the body and writes the new nonce over those bytes. (Searching every body and the policy
/// header on every hit was the cached strip's largest cost in perf after the kernel.)
struct NoncedPage: Sendable {
    let response: Response
    /// The policy header cut around each occurrence of the nonce.
    let policyParts: [Substring]
    /// Byte offsets of the nonce in the body.
    let offsets: [Int]
    let nonceLength: Int

    /// Nil for a response without a nonce in its policy: such a page cannot be served twice.
    init?(_ response: Response) {
        guard let policy = response.headers["Content-Security-Policy"], let nonce = PageCache.nonce(in: policy) else {
            return nil
        }
        self.response = response
        policyParts = policy.split(separator: nonce, omittingEmptySubsequences: false)
        nonceLength = nonce.utf8.count
        if case .bytes(let body) = response.body {
            offsets = Self.offsets(of: Array(nonce.utf8), in: body)
        } else {
            offsets = []
        }
    }

    /// The page with a nonce of its own.
    func fresh() -> Response {
        fresh(nonce: SecureRandom.token(byteCount: 16))
    }

    func fresh(nonce: String) -> Response {
        var copy = response
        copy.headers["Content-Security-Policy"] = policyParts.joined(separator: nonce)
        guard !offsets.isEmpty, case .bytes(var body) = response.body else { return copy }
        let replacement = Array(nonce.utf8)
        // Tokens of 16 bytes are always 22 characters, so the new nonce fits the old one's place exactly.
        precondition(replacement.count == nonceLength, "a nonce of another length")
        body.withUnsafeMutableBytes { bytes in
            replacement.withUnsafeBytes { new in
                for offset in offsets { (bytes.baseAddress! + offset).copyMemory(from: new.baseAddress!, byteCount: new.count) }
            }
        }
        copy.body = .bytes(body)
        return copy
    }

    /// Where `needle` starts in `haystack`, without overlaps: memchr to the first byte, memcmp the rest.
    static func offsets(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard !needle.isEmpty, haystack.count >= needle.count else { return [] }
        return haystack.withUnsafeBytes { hay -> [Int] in
            needle.withUnsafeBytes { pin -> [Int] in
                var found: [Int] = []
                var offset = 0
                let last = hay.count - pin.count
                while offset <= last, let hit = memchr(hay.baseAddress! + offset, Int32(pin[0]), last - offset + 1) {
                    let index = hay.baseAddress!.distance(to: UnsafeRawPointer(hit))
                    if memcmp(hay.baseAddress! + index, pin.baseAddress!, pin.count) == 0 {
                        found.append(index)
                        offset = index + pin.count
                    } else {
                        offset = index + 1
                    }
                }
                return found
            }
        }
    }
}
