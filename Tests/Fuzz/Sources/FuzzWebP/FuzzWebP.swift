import FuzzDecoding
import FuzzSupport

// Input: a WebP file (features, the EXIF and ICCP chunks through libwebpdemux, scaled and full decoding).
// Properties: `DecoderProperties.check`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebP(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    DecoderProperties.check(Fuzz.bytes(data, size))
    return 0
}
