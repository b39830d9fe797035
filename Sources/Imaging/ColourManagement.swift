import CLCMS2

/// Conversion of decoded pixels to sRGB through Little CMS, so photos tagged Display P3 (every recent phone) or
/// any other RGB profile keep their colours in a JPEG that carries no profile.
///
/// The pipeline converts after resizing, on the small image: a matrix-and-curves transform commutes with
/// resampling closely enough to be invisible (libvips' thumbnail does the same), and costs a few milliseconds
/// instead of a pass over a 48 MP buffer.
enum ColourManagement {
    /// Rewrites `image` in place from `profile` to sRGB (relative colorimetric, as libvips and browsers use).
    ///
    /// Profiles that are already sRGB, that Little CMS cannot parse, or that are not RGB input profiles (CMYK or
    /// gray ones describe samples this pipeline has already turned into RGB) leave the pixels as they are: a wrong
    /// guess at colour is better than refusing a photo.
    /// - Returns: whether the pixels were converted.
    @discardableResult
    static func convertToSRGB(_ image: inout RGBImage, from profile: ColourProfile) -> Bool {
        guard image.width > 0, image.height > 0, let source = inputProfile(profile) else { return false }
        defer { cmsCloseProfile(source) }
        guard let sRGB = cmsCreate_sRGBProfile() else { return false }
        defer { cmsCloseProfile(sRGB) }
        guard
            let transform = cmsCreateTransform(
                source,
                grain_TYPE_RGB_8,
                sRGB,
                grain_TYPE_RGB_8,
                cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC),
                0
            )
        else { return false }
        defer { cmsDeleteTransform(transform) }
        let pixelCount = image.width * image.height
        image.pixels.withUnsafeMutableBytes { buffer in
            // In place: Little CMS allows the same buffer for input and output of one format.
            cmsDoTransform(transform, buffer.baseAddress, buffer.baseAddress, cmsUInt32Number(pixelCount))
        }
        return true
    }

    /// A Little CMS profile for the source, or nil when no conversion is needed or possible.
    private static func inputProfile(_ profile: ColourProfile) -> cmsHPROFILE? {
        switch profile {
        case .icc(let bytes):
            guard !bytes.isEmpty, bytes.count <= ColourProfile.maxICCBytes,
                let handle = bytes.withUnsafeBytes({ cmsOpenProfileFromMem($0.baseAddress, cmsUInt32Number($0.count)) })
            else { return nil }
            let deviceClass = cmsGetDeviceClass(handle)
            guard cmsGetColorSpace(handle) == cmsSigRgbData,
                deviceClass == cmsSigDisplayClass || deviceClass == cmsSigInputClass
                    || deviceClass == cmsSigOutputClass || deviceClass == cmsSigColorSpaceClass,
                !isSRGB(handle)
            else {
                cmsCloseProfile(handle)
                return nil
            }
            return handle
        case .nclx(let primaries, let transfer):
            return nclxProfile(primaries: primaries, transfer: transfer)
        }
    }

    /// Profiles that say they are sRGB are taken at their word, saving a transform that would change nothing.
    private static func isSRGB(_ handle: cmsHPROFILE) -> Bool {
        var buffer = [CChar](repeating: 0, count: 128)
        let length = cmsGetProfileInfoASCII(handle, cmsInfoDescription, "en", "US", &buffer, cmsUInt32Number(buffer.count))
        guard length > 0 else { return false }
        let description = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return description.hasPrefix("sRGB")
    }

    /// ITU-T H.273 colour primaries as CIE xy (red, green, blue, white). BT.709 (1) and unspecified (2) are sRGB's
    /// own and need no conversion; codes not listed are treated as sRGB too.
    static let primaries: [Int: [(Double, Double)]] = [
        5: [(0.640, 0.330), (0.290, 0.600), (0.150, 0.060), (0.3127, 0.3290)],  // BT.470 B/G, BT.601 625
        6: [(0.630, 0.340), (0.310, 0.595), (0.155, 0.070), (0.3127, 0.3290)],  // BT.601 525, SMPTE 170M
        7: [(0.630, 0.340), (0.310, 0.595), (0.155, 0.070), (0.3127, 0.3290)],  // SMPTE 240M
        9: [(0.708, 0.292), (0.170, 0.797), (0.131, 0.046), (0.3127, 0.3290)],  // BT.2020, BT.2100
        11: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060), (0.314, 0.351)],  // DCI-P3 (SMPTE RP 431-2)
        12: [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060), (0.3127, 0.3290)],  // Display P3 (SMPTE EG 432-1)
        22: [(0.630, 0.340), (0.295, 0.605), (0.155, 0.077), (0.3127, 0.3290)],  // EBU Tech 3213-E
    ]

    /// An RGB profile built from an `nclx` description. Transfer characteristics: 8 is linear, 4 and 5 pure
    /// gammas 2.2 and 2.8; everything else (sRGB's 13, the BT.709 family, and HDR curves this 8-bit pipeline does
    /// not tone-map) is read with the sRGB curve.
    private static func nclxProfile(primaries code: Int, transfer: Int) -> cmsHPROFILE? {
        guard let xy = primaries[code] else { return nil }
        var white = cmsCIExyY(x: xy[3].0, y: xy[3].1, Y: 1)
        var triple = cmsCIExyYTRIPLE(
            Red: cmsCIExyY(x: xy[0].0, y: xy[0].1, Y: 1),
            Green: cmsCIExyY(x: xy[1].0, y: xy[1].1, Y: 1),
            Blue: cmsCIExyY(x: xy[2].0, y: xy[2].1, Y: 1)
        )
        let curve: OpaquePointer?
        switch transfer {
        case 8: curve = parametric(1, [1.0])
        case 4: curve = parametric(1, [2.2])
        case 5: curve = parametric(1, [2.8])
        // IEC 61966-2-1: Y = ((X + 0.055) / 1.055)^2.4 above 0.04045, X / 12.92 below.
        default: curve = parametric(4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
        }
        guard let curve else { return nil }
        defer { cmsFreeToneCurve(curve) }
        var curves: [OpaquePointer?] = [curve, curve, curve]
        return cmsCreateRGBProfile(&white, &triple, &curves)
    }

    private static func parametric(_ type: Int32, _ parameters: [Double]) -> OpaquePointer? {
        parameters.withUnsafeBufferPointer { cmsBuildParametricToneCurve(nil, type, $0.baseAddress) }
    }
}
