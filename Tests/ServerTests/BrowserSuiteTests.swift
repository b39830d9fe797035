import ATProto
import Backend
import Foundation
import HTTPServer
import Server
import TestSupport
import Testing

/// The viewer, strip and kiosk driven in headless Chromium by Selenium (Tests/ServerTests/Browser), against a
/// live demo household. The Python suite reaches a control endpoint here to move the server's clock.
///
/// Each cell (a window size against a backend) runs the tests whose behaviour can differ there (`@runs` in the
/// suite): all of them on a phone against the embedded backend, the layout tests on a desktop and a wall screen, the
/// data tests on a phone against a remote hatk. `BrowserMatrixTests` runs every test in every cell.
@Suite(.serialized)
struct BrowserSuiteTests {
    /// The place search the create form's tests use, and sign-ins enough: every class signs in its own browsers, all
    /// from 127.0.0.1, well past a household's 20 a minute.
    static func configure(_ configuration: inout ServeConfiguration) {
        configuration.placeNamesCSV = repositoryRoot.appendingPathComponent(".build/places/place-names.csv").path
        configuration.signInsPerMinute = 1000
    }

    /// The classes about what happens at the end of each slide (advance, loop, expiry, the night): they run against
    /// servers whose stories show for half a second, driving the story clock instead of waiting on it.
    static let kioskClasses = ["Kiosk", "KioskOptions"]

    /// Which tests of a cell run: the classes named (or all but those left out), and whether the tests that assert
    /// real timing are among them (`.only` runs them where nothing else competes for the cores).
    struct Selection {
        enum Timed: String { case all = "", only, skip }
        var classes: [String] = []
        var except: [String] = []
        var timed = Timed.all
        /// How long each story shows, in the server and in the suite's waits.
        var storySeconds = 2.0

        /// Every test of the cell but the timed ones and the kiosk's, at the story clock people see.
        static let untimedButKiosk = Selection(except: kioskClasses, timed: .skip)
        /// The kiosk's classes on a fast story clock.
        static let kiosk = Selection(classes: kioskClasses, timed: .skip, storySeconds: 0.5)
        /// The tests that assert real timing.
        static let timings = Selection(timed: .only)
    }

    /// Runs the suite (or the listed classes of it) at one window size against the embedded backend; the Python
    /// report is attached on failure.
    func runSuite(width: Int, height: Int, selection: Selection = Selection(), matrix: Bool = false) async throws {
        let app = try await LiveApp(storySeconds: selection.storySeconds, configure: Self.configure)
        try await runSuite(on: app, width: width, height: height, selection: selection, matrix: matrix)
        await app.stop()
    }

    /// Runs the suite (or the listed classes of it) against `app`.
    /// - Parameter upstream: the remote hatk `app` reads, whose clock (the stories' clock) moves with the front's.
    /// - Parameter matrix: every test, not only those whose behaviour can differ in this cell.
    func runSuite(
        on app: LiveApp, width: Int, height: Int, selection: Selection = Selection(), upstream: LiveApp? = nil,
        matrix: Bool = false
    ) async throws {
        var router = Router()
        router.on(.post, "/advance") { request in
            let hours = Double(request.query("hours") ?? "") ?? 0
            app.clock.advance(hours: hours)
            upstream?.clock.advance(hours: hours)
            return .text("ok")
        }
        router.on(.post, "/unviewed") { request in
            // How many of an author's live stories the embedded backend still holds as unwatched by a viewer: what
            // reached its markStoriesViewed, not the marks the front keeps waiting.
            guard let store = app.app.backend?.store, let viewer = try store.accounts.account(request.query("viewer") ?? ""),
                let author = try store.accounts.account(request.query("author") ?? "")
            else { return .text("no such account", status: .notFound) }
            let row = try store.stories.storyAuthors(now: app.clock.now, viewer: viewer.did).first { $0.did == author.did.rawValue }
            return .text(String(row?.unviewedCount ?? -1))
        }
        router.on(.get, "/upstream-blobs") { _ in
            // The blob files of the hatk the front writes to (the remote one, or its own backend): a clip refused
            // before it went upstream leaves their number as it was.
            let data = (upstream ?? app).dataDirectory + "/blobs"
            return .text(String((try? FileManager.default.contentsOfDirectory(atPath: data))?.count ?? -1))
        }
        var configuration = ServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let control = HTTPServer(configuration: configuration, router: router)
        try control.start()

        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", repositoryRoot.appendingPathComponent("Tests/ServerTests/Browser/viewer_suite.py").path]
        var environment = ProcessInfo.processInfo.environment
        environment["BASE_URL"] = app.base
        environment["CONTROL_URL"] = "http://127.0.0.1:\(control.port)"
        environment["WINDOW"] = "\(width)x\(height)"
        environment["DEMO_PHOTOS"] = demoPhotos
        environment["STORY_MS"] = String(Int(selection.storySeconds * 1000))
        environment["SUITE"] = selection.classes.joined(separator: ",")
        environment["EXCEPT"] = selection.except.joined(separator: ",")
        environment["TIMED"] = selection.timed.rawValue
        environment["REMOTE"] = upstream != nil ? "1" : "0"
        environment["MATRIX"] = matrix ? "1" : "0"
        process.environment = environment
        // The report goes to a file and the exit is awaited, so no cooperative thread blocks while the
        // live server (which runs on those threads) answers the browser.
        let reportURL = FileManager.default.temporaryDirectory.appendingPathComponent("browser-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: reportURL.path, contents: nil)
        let log = try FileHandle(forWritingTo: reportURL)
        process.standardOutput = log
        process.standardError = log
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        try log.close()
        let report = (try? String(contentsOf: reportURL, encoding: .utf8)) ?? ""
        await control.shutdown()
        print(report)
        #expect(status == 0, "browser suite at \(width)×\(height) failed:\n\(report)")
        #expect(report.contains("\nOK"), "the suite did not finish:\n\(report)")
    }

    // Run first and alone by `make test`: how fast the viewer answers is only measured on a quiet machine.
    @Test("tap to photo and next to photo are fast enough on a phone, against each backend, measured alone (390×844)")
    func timings() async throws {
        try await runSuite(width: 390, height: 844, selection: .timings)
        try await runAgainstRemote(width: 390, height: 844, selection: .timings)
    }

    @Test("every viewer, strip and create behaviour holds in Chromium on a phone (390×844)")
    func phone() async throws { try await runSuite(width: 390, height: 844, selection: .untimedButKiosk) }

    @Test("every kiosk behaviour holds in Chromium on a phone, slides of half a second (390×844)")
    func phoneKiosk() async throws { try await runSuite(width: 390, height: 844, selection: .kiosk) }

    @Test("every behaviour that depends on the window holds in Chromium on a desktop (1440×900)")
    func desktop() async throws { try await runSuite(width: 1440, height: 900, selection: Selection(timed: .skip)) }

    @Test("every behaviour that depends on the window holds on a wall screen (1920×1080): Today, the viewer's fit, the kiosk's layout")
    func wall() async throws { try await runSuite(width: 1920, height: 1080, selection: Selection(timed: .skip)) }

    @Test("a signed-in visitor's seen marks reach markStoriesViewed when the page hides, after the viewer closed (390×844)")
    func seenMarksWhenThePageHides() async throws {
        // An hour's batch delay: only the page hiding can send them during the test.
        let app = try await LiveApp(storySeconds: 2) { $0.seenBatchDelay = .seconds(3600) }
        try await runSuite(on: app, width: 390, height: 844, selection: Selection(classes: ["SeenFlush"]))
        await app.stop()
    }

    @Test("a signed-in visitor's seen marks reach markStoriesViewed after the batch delay with the page still open (390×844)")
    func seenMarksAfterTheBatchDelay() async throws {
        let app = try await LiveApp(storySeconds: 2) { $0.seenBatchDelay = .seconds(2) }
        try await runSuite(on: app, width: 390, height: 844, selection: Selection(classes: ["SeenBatch"]))
        await app.stop()
    }

    /// Classes against a remote hatk, where their data comes through the reader.
    func runAgainstRemote(width: Int, height: Int, selection: Selection = Selection(), matrix: Bool = false) async throws {
        let (upstream, front) = try await RemoteSocialTests.pair(storySeconds: selection.storySeconds, configure: Self.configure)
        try await runSuite(on: front, width: width, height: height, selection: selection, upstream: upstream, matrix: matrix)
        await front.stop()
        await upstream.stop()
    }

    // The front reads and writes over HTTP with DPoP; another grain-stories' embedded backend stands in for hatk.
    @Test("every behaviour that depends on what the reader answers holds against a remote hatk (390×844)")
    func remote() async throws { try await runAgainstRemote(width: 390, height: 844, selection: .untimedButKiosk) }

    @Test("every kiosk behaviour that depends on what the reader answers holds against a remote hatk, slides of half a second (390×844)")
    func remoteKiosk() async throws { try await runAgainstRemote(width: 390, height: 844, selection: .kiosk) }
}
