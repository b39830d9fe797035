import Foundation
import Imaging
import TestSupport
import Testing

extension Browser {
    /// Signs in through the front's OAuth client and the authorization server's form, as a person would.
    func signInThroughFront(handle: String, password: String) async throws {
        let approved = try await signInAnswer(handle: handle, password: password)
        let callback = try #require(approved.location, "the sign-in form answered \(approved.status)")
        let landed = try await get(callback)
        #expect(landed.status == 303, "the callback answered \(landed.status)")
    }

    /// Starts a sign-in at the front and sends the authorization server's form: its answer (a redirect to the
    /// callback, or the form again with what was wrong).
    func signInAnswer(handle: String, password: String) async throws -> Page {
        let login = try await get("/login?next=/create")
        let csrf = try #require(captures(#"name="csrf" value="([^"]+)""#, in: login.body).first)
        let started = try await post("/login", form: [("csrf", csrf), ("handle", handle), ("next", "/create")])
        let authorize = try #require(started.location, "starting sign-in answered \(started.status)")
        let signInPage = try await get(authorize)
        let requestURI = unescape(try #require(captures(#"name="request_uri" value="([^"]+)""#, in: signInPage.body).first))
        let asCSRF = unescape(try #require(captures(#"name="csrf" value="([^"]+)""#, in: signInPage.body).first))
        return try await post(
            "/oauth/authorize",
            form: [("request_uri", requestURI), ("csrf", asCSRF), ("username", String(handle.prefix { $0 != "." })), ("password", password)])
    }

    /// The CSRF token of the create form (signed in).
    func createFormToken() async throws -> String {
        let form = try await get("/create")
        return try #require(captures(#"name="csrf" value="([^"]+)""#, in: form.body).first, "the create form answered \(form.status)")
    }

    /// Posts `jpeg` through the create form.
    func postPhoto(_ jpeg: [UInt8], csrf: String, headers: [String: String] = [:]) async throws -> Page {
        try await postMultipart("/create", fields: [("csrf", csrf)], file: ("photo", "photo.jpg", "image/jpeg", jpeg), headers: headers)
    }
}

/// A real JPEG of a colour gradient, different for each seed.
func gradientJPEG(width: Int, height: Int, seed: Int = 0) throws -> [UInt8] {
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for y in 0..<height {
        for x in 0..<width {
            let i = (y * width + x) * 3
            pixels[i] = UInt8((x * 255 / max(1, width - 1) + seed * 37) % 256)
            pixels[i + 1] = UInt8(y * 255 / max(1, height - 1))
            pixels[i + 2] = UInt8((seed * 97 + x / 7) % 256)
        }
    }
    return try Imaging.encodeJPEG(RGBImage(width: width, height: height, pixels: pixels), quality: 85)
}

/// A JPEG of noise: it barely compresses (about a byte per pixel at quality 90), so its size is predictable.
func noiseJPEG(width: Int, height: Int, seed: UInt64 = 1, quality: Int = 90) throws -> [UInt8] {
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    for i in pixels.indices {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        pixels[i] = UInt8(truncatingIfNeeded: state >> 56)
    }
    return try Imaging.encodeJPEG(RGBImage(width: width, height: height, pixels: pixels), quality: quality)
}
