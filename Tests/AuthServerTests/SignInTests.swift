import ATProto
import Foundation
import HTTPServer
import TestSupport
import Testing

@testable import AuthServer

struct SignInTests {
    /// A wrong password and an unknown user look the same: 401 and one message.
    @Test("a wrong password and an unknown user both get 401 with the same message")
    func wrongCredentials() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let requestURI = try await fixture.pushedRequestURI(client)

        // act
        let wrongPassword = await fixture.submit(client, requestURI: requestURI, password: "not it")
        let unknownUser = await fixture.submit(client, requestURI: requestURI, username: "nobody")
        let right = await fixture.submit(client, requestURI: requestURI)

        // validate
        #expect(wrongPassword.status.code == 401)
        #expect(unknownUser.status.code == 401)
        #expect(wrongPassword.page?.error == "Wrong username or password")
        #expect(unknownUser.page?.error == wrongPassword.page?.error)
        #expect(wrongPassword.page?.requestURI == requestURI)
        #expect(right.status.code == 303)
    }

    @Test("a disabled member who types the right password is told the owner disabled the account; a wrong one still reads as wrong")
    func disabledAccountAfterRightPassword() async throws {
        let fixture = try AuthFixture()
        let client = TestClient()
        let requestURI = try await fixture.pushedRequestURI(client)
        fixture.accounts.disable(fixture.maya)

        for username in ["maya.home.test", "maya", fixture.maya.rawValue] {
            let right = await fixture.submit(client, requestURI: requestURI, username: username)
            #expect(right.status.code == 403, "\(username)")
            #expect(right.page?.error == SignInEndpoint.disabledMessage)
        }
        let wrong = await fixture.submit(client, requestURI: requestURI, password: "not it")
        #expect(wrong.status.code == 401)
        #expect(wrong.page?.error == "Wrong username or password")
    }

    /// Usernames are the handle, its first label, or a DID, in any case and with a leading @.
    @Test("the handle, its first label, @handle and the DID all sign in")
    func usernames() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()

        // act
        var statuses: [Int] = []
        for username in ["maya", "MAYA.home.test", "@maya.home.test", fixture.maya.rawValue] {
            let requestURI = try await fixture.pushedRequestURI(client)
            statuses.append(await fixture.submit(client, requestURI: requestURI, username: username).status.code)
        }
        let jonasCode = try await fixture.code(for: client, username: "jonas", password: "jonas's own password")
        let jonasTokens = try await fixture.exchange(client, code: jonasCode)

        // validate
        #expect(statuses == [303, 303, 303, 303])
        #expect(jonasTokens.json["sub"] as? String == fixture.jonas.rawValue)
    }

    /// The form must carry the CSRF token of its request and come from our origin.
    @Test("a missing or wrong CSRF token or a foreign origin gets 403")
    func forgery() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let otherRequestURI = try await fixture.pushedRequestURI(client)
        let otherToken = try #require(
            await fixture.authorizePage(requestURI: otherRequestURI, clientID: client.clientID).page?.csrfToken)
        // Each case gets its own request, so one wrongly accepted submission cannot mask the next.
        func attempt(
            csrf: AuthFixture.CSRF = .fromPage, origin: String? = AuthFixture.issuer, headers: HTTPHeaders = [:]
        ) async throws -> Response {
            let requestURI = try await fixture.pushedRequestURI(client)
            return await fixture.submit(client, requestURI: requestURI, csrf: csrf, origin: origin, extraHeaders: headers)
        }

        // act
        let missing = try await attempt(csrf: .none)
        let wrong = try await attempt(csrf: .value(otherToken))
        let foreignOrigin = try await attempt(origin: "http://evil.test")
        let nullOrigin = try await attempt(origin: "null")
        let crossSite = try await attempt(origin: nil, headers: ["Sec-Fetch-Site": "cross-site"])
        let noSignals = try await attempt(origin: nil)
        let sameOriginNoOrigin = try await attempt(origin: nil, headers: ["Sec-Fetch-Site": "same-origin"])

        // validate
        #expect(missing.status.code == 403)
        #expect(wrong.status.code == 403)
        #expect(foreignOrigin.status.code == 403)
        #expect(nullOrigin.status.code == 403)
        #expect(missing.page?.error == "This form has expired. Reload the page and try again.")
        #expect(crossSite.status.code == 403)
        #expect(noSignals.status.code == 403)
        #expect(sameOriginNoOrigin.status.code == 303)
    }

    /// Deny sends the user back with access_denied, state and iss; the request cannot be used afterwards.
    @Test("deny redirects with error=access_denied and uses up the request")
    func deny() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let requestURI = try await fixture.pushedRequestURI(client)

        // act
        let denied = await fixture.submit(client, requestURI: requestURI, password: "", deny: true)
        let afterwards = await fixture.authorizePage(requestURI: requestURI, clientID: client.clientID)

        // validate
        #expect(denied.status.code == 303)
        #expect(denied.redirectQuery["error"] == "access_denied")
        #expect(denied.redirectQuery["state"] == client.state)
        #expect(denied.redirectQuery["iss"] == AuthFixture.issuer)
        #expect(denied.redirectQuery["code"] == nil)
        #expect(afterwards.status.code == 400)
    }

    /// The sign-in page needs a live pushed request for the right client.
    @Test("unknown, expired, used or mismatched requests get a 400 page")
    func invalidLinks() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let used = try await fixture.pushedRequestURI(client)
        _ = await fixture.submit(client, requestURI: used)
        let mismatched = try await fixture.pushedRequestURI(client)
        let expiring = try await fixture.pushedRequestURI(client)

        // act
        let unknown = await fixture.authorizePage(
            requestURI: "urn:ietf:params:oauth:request_uri:nope", clientID: client.clientID)
        let usedPage = await fixture.authorizePage(requestURI: used, clientID: client.clientID)
        let mismatchedPage = await fixture.authorizePage(requestURI: mismatched, clientID: "http://127.0.0.1:1/x")
        fixture.clock.advance(seconds: 601)
        let expiredPage = await fixture.authorizePage(requestURI: expiring, clientID: client.clientID)
        let expiredPost = await fixture.submit(client, requestURI: expiring, csrf: .value("x"))

        // validate
        for page in [unknown, usedPage, mismatchedPage, expiredPage, expiredPost] {
            #expect(page.status.code == 400)
            #expect(page.page?.requestURI == "")
            #expect(page.page?.error == SignInPages.invalidLinkMessage)
        }
        #expect(unknown.headers["Cache-Control"] == "no-store")
        #expect(unknown.headers["X-Frame-Options"] == "DENY")
    }

    /// login_hint pre-fills the username only when it names a household account.
    @Test("login_hint pre-fills the username only for a household account")
    func loginHint() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        func page(hint: String) async throws -> PageBody? {
            var fields = client.parFields
            fields["login_hint"] = hint
            let requestURI = try await fixture.pushedRequestURI(client, fields)
            return await fixture.authorizePage(requestURI: requestURI, clientID: client.clientID).page
        }

        // act
        let byLabel = try await page(hint: "jonas")
        let byDID = try await page(hint: fixture.maya.rawValue)
        let stranger = try await page(hint: "alice.bsky.social")

        // validate
        #expect(byLabel?.loginHint == "jonas.home.test")
        #expect(byDID?.loginHint == "maya.home.test")
        #expect(stranger?.loginHint == nil)
        #expect(byLabel?.clientName == "grain-stories")
        #expect(byLabel?.csrfToken.isEmpty == false)
    }

    /// The redirect keeps the redirect URI's own query and percent-encodes values.
    @Test("the redirect keeps an existing query and percent-encodes state")
    func redirectEncoding() async throws {
        // setup
        let fixture = try AuthFixture()
        var client = TestClient.localhost(
            redirect: "http://127.0.0.1/oauth/callback?from=stories",
            using: "http://127.0.0.1:3000/oauth/callback?from=stories")
        client.state = "a b&c=d/é"
        let requestURI = try await fixture.pushedRequestURI(client)

        // act
        let response = await fixture.submit(client, requestURI: requestURI)
        let location = try #require(response.headers["Location"])

        // validate
        #expect(location.hasPrefix("http://127.0.0.1:3000/oauth/callback?from=stories&code="))
        #expect(location.contains("state=a%20b%26c%3Dd%2F%C3%A9"))
        #expect(location.contains("iss=http%3A%2F%2F127.0.0.1%3A8080"))
        #expect(response.redirectQuery["state"] == "a b&c=d/é")
    }
}
