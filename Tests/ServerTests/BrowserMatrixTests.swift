import Testing

/// The browser suite's whole matrix for a release (`make test-matrix`, outside `make test`): every test in every
/// cell, at three window sizes against each backend, whether or not its behaviour can differ there.
@Suite(.serialized)
struct BrowserMatrixTests {
    /// The classes that ran against a remote hatk and on the wall screen before cells chose tests by `@runs`.
    static let homeAndKiosk = ["Home", "ViewerFit", "Kiosk", "KioskOptions"]

    func embedded(width: Int, height: Int, classes: [String] = []) async throws {
        try await BrowserSuiteTests().runSuite(
            width: width, height: height, selection: BrowserSuiteTests.Selection(classes: classes), matrix: true)
    }

    @Test("every test on a phone (390×844)")
    func phone() async throws { try await embedded(width: 390, height: 844) }

    @Test("every test on a desktop (1440×900)")
    func desktop() async throws { try await embedded(width: 1440, height: 900) }

    @Test("Today, On this day, the viewer's fit and every kiosk test on a wall screen (1920×1080)")
    func wall() async throws { try await embedded(width: 1920, height: 1080, classes: Self.homeAndKiosk) }

    @Test("Today, On this day, the viewer's fit, every kiosk test and the social layer against a remote hatk on a phone (390×844)")
    func remotePhone() async throws {
        try await BrowserSuiteTests().runAgainstRemote(
            width: 390, height: 844, selection: .init(classes: Self.homeAndKiosk + ["Social"]), matrix: true)
    }

    @Test("Today, On this day, the viewer's fit and every kiosk test against a remote hatk on a wall screen (1920×1080)")
    func remoteWall() async throws {
        try await BrowserSuiteTests().runAgainstRemote(width: 1920, height: 1080, selection: .init(classes: Self.homeAndKiosk), matrix: true)
    }

    @Test("the social layer, Today, On this day, the viewer's fit and every kiosk test against a remote hatk on a desktop (1440×900)")
    func remoteDesktop() async throws {
        try await BrowserSuiteTests().runAgainstRemote(
            width: 1440, height: 900, selection: .init(classes: ["Social"] + Self.homeAndKiosk), matrix: true)
    }
}
