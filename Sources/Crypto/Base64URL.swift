import Foundation

/// Base64url without padding (RFC 4648 §5), as JOSE and atproto use it.
public enum Base64URL {
    public static func encode<Bytes: Collection>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Decodes base64url with or without padding; nil for anything else.
    public static func decode(_ string: String) -> [UInt8]? {
        guard string.utf8.allSatisfy({ $0.isBase64URLCharacter }) else { return nil }
        var b64 = string.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        b64 = b64.replacingOccurrences(of: "=", with: "")
        let remainder = b64.count % 4
        if remainder == 1 { return nil }
        if remainder > 0 { b64 += String(repeating: "=", count: 4 - remainder) }
        return Data(base64Encoded: b64).map { Array($0) }
    }
}

extension UInt8 {
    fileprivate var isBase64URLCharacter: Bool {
        (self >= 0x41 && self <= 0x5A) || (self >= 0x61 && self <= 0x7A) || (self >= 0x30 && self <= 0x39)
            || self == 0x2D || self == 0x5F || self == 0x3D
    }
}
