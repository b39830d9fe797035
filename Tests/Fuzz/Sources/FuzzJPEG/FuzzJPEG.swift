import FuzzDecoding
import FuzzSupport

// Input: an encoded image (JPEG is the target; PNG input exercises the shared header path too).
// Properties: `DecoderProperties.check`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    DecoderProperties.check(Fuzz.bytes(data, size))
    return 0
}
