import CQRencode
import HTMLRendering

/// A QR code made by libqrencode (Debian's `libqrencode-dev`), the one wrapper of that library: its modules as a
/// grid, drawn as SVG. The kiosk's "open it on your phone" codes and the kiosk settings page use it.
public struct QRCode: Sendable, Equatable {
    /// Modules per side (without the quiet zone).
    public let size: Int
    /// Row-major, true for a dark module.
    public let modules: [Bool]

    public struct EncodingError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The longest text accepted: a URL, never a document.
    public static let maxLength = 1024

    /// Encodes `text` (8-bit mode, error correction M: a code on a screen across the room survives some glare).
    public init(_ text: String) throws(EncodingError) {
        guard !text.isEmpty, text.utf8.count <= Self.maxLength, !text.utf8.contains(0) else {
            throw EncodingError(description: "a QR code holds 1 to \(Self.maxLength) bytes without NUL")
        }
        // libqrencode is thread safe when built with pthreads, as Debian builds it.
        guard let code = QRcode_encodeString8bit(text, 0, QR_ECLEVEL_M) else {
            throw EncodingError(description: "libqrencode could not encode \(text.utf8.count) bytes")
        }
        defer { QRcode_free(code) }
        let width = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour; the other bits say how libqrencode placed it.
        let data = UnsafeBufferPointer(start: code.pointee.data, count: width * width)
        size = width
        modules = data.map { $0 & 1 == 1 }
    }

    public func isDark(x: Int, y: Int) -> Bool { modules[y * size + x] }

    /// The code as a standalone SVG: one path of unit squares on a white square with the 4-module quiet zone the
    /// standard asks for, scaled by the viewer (`shape-rendering` keeps the edges crisp).
    public func svg(title: String? = nil) -> String {
        let side = size + 8
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard isDark(x: x, y: y) else {
                    x += 1
                    continue
                }
                var run = 1
                while x + run < size, isDark(x: x + run, y: y) { run += 1 }
                path += "M\(x + 4) \(y + 4)h\(run)v1h-\(run)z"
                x += run
            }
        }
        let label = title.map { "<title>\(HTMLEscaping.text($0))</title>" } ?? ""
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges" role="img">\
            \(label)<rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>
            """
    }
}
