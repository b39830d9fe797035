/// What the sign-in page shows; the app renders it with its own templates.
///
/// The form posts `request_uri`, `csrf`, `username` and `password` to ``actionPath``, and a button named `deny`
/// to refuse. Pages for a broken or expired link have an empty ``requestURI`` and ``csrfToken`` and no form.
public struct SignInPage: Sendable, Encodable, Equatable {
    /// The pushed request being approved (a hidden field).
    public var requestURI: String
    /// Who asks for access: a registered client's name, or a loopback client's host.
    public var clientName: String
    /// The username to pre-fill: the account named by the client's `login_hint`, or what was typed last time.
    public var loginHint: String?
    /// A message for the user, such as "Wrong username or password".
    public var error: String?
    /// The anti-forgery token for the hidden `csrf` field.
    public var csrfToken: String
    /// Where the form posts: `/oauth/authorize`.
    public var actionPath: String
    /// The HTTP status the page is sent with.
    public var status: Int

    /// - Parameters:
    ///   - requestURI: The pushed request URI, or "" on an error page.
    ///   - clientName: The requesting client's display name.
    ///   - loginHint: The username to pre-fill.
    ///   - error: A message to show.
    ///   - csrfToken: The anti-forgery token, or "" on an error page.
    ///   - actionPath: The form's action.
    ///   - status: The response status.
    public init(
        requestURI: String, clientName: String, loginHint: String? = nil, error: String? = nil, csrfToken: String,
        actionPath: String = "/oauth/authorize", status: Int = 200
    ) {
        self.requestURI = requestURI
        self.clientName = clientName
        self.loginHint = loginHint
        self.error = error
        self.csrfToken = csrfToken
        self.actionPath = actionPath
        self.status = status
    }

    /// Whether there is a form to fill in (false on pages for broken links).
    public var hasForm: Bool { !requestURI.isEmpty }
}
