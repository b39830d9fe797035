import HTTPServer
import Testing

struct FormsTests {
    @Test("URL-encoded forms decode +, percent escapes and repeated fields, and keep bad escapes literally")
    func urlEncoded() throws {
        let form = try URLEncodedForm(Array("a=1+2&b=%C3%A9t%C3%A9&c=&label=nudity&label=gore&d=%ZZ%4&e".utf8))
        #expect(form["a"] == "1 2")
        #expect(form["b"] == "été")
        #expect(form["c"] == "")
        #expect(form.values("label") == ["nudity", "gore"])
        #expect(form["d"] == "%ZZ%4")
        #expect(form["e"] == "")
        #expect(form["missing"] == nil)
    }

    @Test("a URL-encoded form with too many fields is refused")
    func tooManyFields() {
        let body = Array((0...URLEncodedForm.maxFields).map { "f\($0)=x" }.joined(separator: "&").utf8)
        #expect(throws: URLEncodedForm.ParseError.self) { try URLEncodedForm(body) }
    }

    @Test("multipart bodies give each part's name, filename, type and exact bytes")
    func multipart() throws {
        let file: [UInt8] = [0xFF, 0xD8, 0x0D, 0x0A, 0x2D, 0x2D, 0x00, 0xFF, 0xD9]
        var body = Array("--XyZ\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\ntok en\r\n".utf8)
        body += Array("--XyZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"a b.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
        body += file + Array("\r\n--XyZ--\r\n".utf8)
        let form = try MultipartForm(body, contentType: "multipart/form-data; boundary=XyZ")
        #expect(form.text("csrf") == "tok en")
        let photo = try #require(form["photo"])
        #expect(photo.filename == "a b.jpg")
        #expect(photo.contentType == "image/jpeg")
        #expect(photo.body == .bytes(file))
    }

    @Test("malformed multipart bodies are refused with a reason, never a crash")
    func malformedMultipart() {
        let cases: [(String, String)] = [
            ("--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno end", "multipart/form-data; boundary=XyZ"),
            ("garbage", "multipart/form-data; boundary=XyZ"),
            ("--XyZ\r\nno headers end", "multipart/form-data; boundary=XyZ"),
            ("--XyZ\r\nContent-Type: text/plain\r\n\r\nx\r\n--XyZ--", "multipart/form-data; boundary=XyZ"),
            ("--XyZ--", "multipart/form-data"),
            ("", "multipart/form-data; boundary=XyZ"),
        ]
        for (body, type) in cases {
            #expect(throws: MultipartForm.ParseError.self, "\(body)") { try MultipartForm(Array(body.utf8), contentType: type) }
        }
        for length in 0..<60 {
            let body = Array("--B\r\nContent-Disposition: form-data; name=\"x\"\r\n\r\nhello\r\n--B--\r\n".utf8.prefix(length))
            _ = try? MultipartForm(body, contentType: "multipart/form-data; boundary=B")
        }
    }
}
