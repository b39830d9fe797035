import ByteCompression
import Foundation
import Testing

/// The encoders' output, decoded by independent decoders: the system's gzip, and libbrotlidec called through dlopen
/// (the server links only the encoder).
struct CompressionTests {
    /// Text like the assets: repetitive CSS with some variety.
    static let css = Array(
        (0..<400).map { ".story-\($0) { margin: \($0 % 7)px; color: #\(String($0 * 2654435761 % 0xFFFFFF, radix: 16)); }\n" }.joined().utf8)

    /// Runs `gzip -dc` on `bytes`.
    private func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/gzip")
        process.arguments = ["-dc"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let writer = Thread {
            input.fileHandleForWriting.write(Data(bytes))
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return Array(data)
    }

    /// `BrotliDecoderDecompress` from libbrotlidec.so.1.
    private func unbrotli(_ bytes: [UInt8], expected: Int) throws -> [UInt8] {
        typealias Decompress = @convention(c) (Int, UnsafePointer<UInt8>?, UnsafeMutablePointer<Int>, UnsafeMutablePointer<UInt8>?) -> Int32
        let library = try #require(dlopen("libbrotlidec.so.1", RTLD_NOW))
        defer { dlclose(library) }
        let symbol = try #require(dlsym(library, "BrotliDecoderDecompress"))
        let decompress = unsafeBitCast(symbol, to: Decompress.self)
        var size = expected + 1
        var output = [UInt8](repeating: 0, count: size)
        let result = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { decompress(input.count, input.baseAddress, &size, $0.baseAddress) }
        }
        #expect(result == 1, "BROTLI_DECODER_RESULT_SUCCESS")
        return Array(output.prefix(size))
    }

    @Test("gzip output is a gzip member the system gzip decodes to the input, and much smaller for text")
    func gzipRoundTrip() throws {
        let compressed = try Gzip.compress(Self.css)

        #expect(Array(compressed.prefix(2)) == [0x1F, 0x8B])
        #expect(compressed.count < Self.css.count / 3)
        #expect(try gunzip(compressed) == Self.css)
        #expect(try gunzip(try Gzip.compress([])) == [])
        let random = (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        #expect(try gunzip(try Gzip.compress(random, level: 1)) == random)
    }

    @Test("brotli output decodes to the input and beats gzip on text")
    func brotliRoundTrip() throws {
        let compressed = try Brotli.compress(Self.css)

        #expect(compressed.count < (try Gzip.compress(Self.css)).count)
        #expect(try unbrotli(compressed, expected: Self.css.count) == Self.css)
        #expect(try unbrotli(try Brotli.compress([]), expected: 0) == [])
        let generic = try Brotli.compress(Array(repeating: 0xAB, count: 10_000), quality: 5, text: false)
        #expect(try unbrotli(generic, expected: 10_000) == Array(repeating: 0xAB, count: 10_000))
    }
}
