import Readers
import Testing

/// hatk's error answers (status and `error` name), as a remote hatk and the embedded backend give them, sorted into
/// what the front does about them.
struct ReadErrorTests {
    func kind(_ status: Int, _ name: String) -> ReadError.Kind {
        ReadError(status: status, error: name, endpoint: "getStory").kind
    }

    @Test("a missing grant is a sign-in, however hatk words it: 401, Authentication required as a 400 or 500, ScopeMissingError")
    func signIn() {
        #expect(kind(401, "AuthRequired") == .signInRequired)
        #expect(kind(400, "Authentication required") == .signInRequired)
        #expect(kind(500, "Authentication required") == .signInRequired)
        #expect(kind(403, "ScopeMissingError") == .signInRequired)
        #expect(!ReadError(status: 500, error: "Authentication required", endpoint: "getMutes").isTransient)
    }

    @Test("404 is not found unless the method itself is missing; 400 is an invalid request; other 4xx refusals")
    func clientErrors() {
        #expect(kind(404, "NotFound") == .notFound)
        #expect(kind(404, "Method not found: social.grain.unspecced.getMutes") == .unsupported)
        #expect(kind(400, "Actor not found") == .invalidRequest)
        #expect(kind(403, "Forbidden") == .refused)
        #expect(kind(409, "Blocked") == .refused)
    }

    @Test("5xx is an unavailable upstream, worth a retry; the status and words are kept for logs")
    func serverErrors() {
        let error = ReadError(status: 500, error: "Database is locked", endpoint: "getStoryAuthors", message: "try later")
        #expect(error.kind == .unavailable && error.isTransient)
        #expect(error.status == 500)
        #expect(error.detail == "500 Database is locked: try later")
        #expect(error.description.contains("getStoryAuthors"))
        #expect(kind(507, "InsufficientStorage") == .unavailable)
        #expect(ReadError(.timeout, endpoint: "getStories").isTransient)
        #expect(!ReadError(.unsupported, endpoint: "getNotifications").isTransient)
    }
}
