import ByteCompression
import Foundation

/// Compressed copies of text assets, made once when a file is indexed (and again when it changes in watch mode),
/// never per request, and the choice among them by `Accept-Encoding`.
extension StaticFiles {
    /// A content coding we serve.
    enum ContentCoding: String, Sendable, CaseIterable {
        case brotli = "br"
        case gzip = "gzip"

        /// The suffix of the variant's entity tag.
        var tagSuffix: String { self == .brotli ? "br" : "gz" }
    }

    /// One compressed copy of a file.
    struct Variant: Sendable, Equatable {
        let coding: ContentCoding
        let bytes: [UInt8]
        /// The identity tag with the coding appended: each representation has its own tag (RFC 9110 §8.8.3).
        let etag: String
    }

    /// Files larger than this are served as they are (the assets we compress are tens of kilobytes).
    static let maxCompressedSource: Int64 = 4 * 1024 * 1024

    /// Text formats gain from compression; images, fonts and archives are compressed already.
    static func isCompressible(_ contentType: String) -> Bool {
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return type.hasPrefix("text/") || type == "image/svg+xml" || type == "application/json"
            || type == "application/manifest+json" || type == "application/xml" || type == "image/x-icon"
    }

    /// Brotli and gzip copies of `bytes` that save at least 5% of the size; a failed compression just leaves its
    /// variant out.
    static func variants(of bytes: [UInt8], digest: String) -> [Variant] {
        var variants: [Variant] = []
        for coding in ContentCoding.allCases {
            let compressed: [UInt8]? =
                switch coding {
                case .brotli: try? Brotli.compress(bytes)
                case .gzip: try? Gzip.compress(bytes)
                }
            guard let compressed, compressed.count * 20 < bytes.count * 19 else { continue }
            variants.append(Variant(coding: coding, bytes: compressed, etag: "\"\(digest)-\(coding.tagSuffix)\""))
        }
        return variants.sorted { $0.bytes.count < $1.bytes.count }
    }

    /// The coding to answer with: the one in `available` that `Accept-Encoding` gives the highest q-value (RFC 9110
    /// §12.5.3: `*` stands for codings not listed, `q=0` refuses, `x-gzip` is gzip, no header means identity), ties
    /// going to the smallest, which `available` lists first. Identity (nil) wins only when listed with a higher q
    /// than every coding, and is served when nothing is acceptable.
    static func preferredCoding(_ acceptEncoding: [String], available: [ContentCoding]) -> ContentCoding? {
        guard !acceptEncoding.isEmpty, !available.isEmpty else { return nil }
        var weights: [String: Double] = [:]
        for element in acceptEncoding.flatMap({ $0.split(separator: ",") }) {
            let parameters = element.split(separator: ";")
            guard let name = parameters.first?.trimmingCharacters(in: .whitespaces).lowercased(), !name.isEmpty else { continue }
            var weight = 1.0
            for parameter in parameters.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard pair.count == 2, pair[0].lowercased() == "q" else { continue }
                guard let value = Double(pair[1]), (0...1).contains(value), pair[1].utf8.count <= 5 else {
                    weight = -1
                    break
                }
                weight = value
            }
            guard weight >= 0 else { continue }
            let key = name == "x-gzip" ? "gzip" : name
            weights[key] = max(weights[key] ?? 0, weight)
        }
        func weight(_ name: String) -> Double {
            weights[name] ?? weights["*"] ?? 0
        }
        var best: ContentCoding?
        // Identity is always acceptable as the fallback, but beats a coding only when listed with a higher q.
        var bestWeight = weights["identity"] ?? 0
        for coding in available where weight(coding.rawValue) > 0 {
            let candidate = weight(coding.rawValue)
            if candidate > bestWeight || (candidate == bestWeight && best == nil) {
                best = coding
                bestWeight = candidate
            }
        }
        return best
    }
}
