import FuzzDecoding
import FuzzSupport

// Input: a HEIC or AVIF file (libheif's box parser, EXIF item and colour profile extraction, then decoding).
// Properties: `DecoderProperties.check`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHEIF(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    DecoderProperties.check(Fuzz.bytes(data, size))
    return 0
}
