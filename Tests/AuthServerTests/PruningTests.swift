import Foundation
import HTTPServer
import Storage
import TestSupport
import Testing

@testable import AuthServer

extension AuthFixture {
    /// Rows in one of the server's tables.
    func rows(_ table: String) throws -> Int {
        try server.database.read { try $0.queryOne("SELECT COUNT(*) AS n FROM \(table)")?.int("n") ?? 0 }
    }
}

/// Issue 11 items 10 and 16: expired state is deleted by a timer, on indexes, not by every writer.
struct PruningTests {
    @Test("expired pending requests, tokens and jtis stay until pruneExpired runs, then are deleted")
    func timerDeletesExpiredRows() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        _ = try await fixture.signedIn(client)
        _ = try await fixture.pushedRequestURI(client)
        fixture.clock.advance(seconds: 15 * 86400)
        // A request after everything expired writes, but prunes nothing: that is the timer's job.
        _ = try await fixture.pushedRequestURI(client)
        let before = try ["par_requests", "refresh_tokens", "access_tokens", "used_jtis", "codes", "grants"].map {
            try fixture.rows($0)
        }

        // act
        let deleted = try fixture.server.pruneExpired()
        let after = try ["par_requests", "refresh_tokens", "access_tokens", "used_jtis", "codes", "grants"].map {
            try fixture.rows($0)
        }

        // validate
        #expect(before == [3, 1, 1, 4, 1, 1])
        #expect(after == [1, 0, 0, 1, 0, 0], "only the last request and its proof's jti are still live")
        #expect(deleted == 9)
    }

    @Test("a revoked session's refresh and access tokens are deleted at the next pruning")
    func revokedTokensDeleted() async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        let refresh = try #require(try await fixture.signedIn(client)["refresh_token"] as? String)
        _ = await fixture.send(
            Request(
                method: .post, path: "/oauth/revoke", headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Form.encode(["token": refresh])))

        // act
        try fixture.server.pruneExpired()

        // validate
        #expect(try fixture.rows("refresh_tokens") == 0)
        #expect(try fixture.rows("access_tokens") == 0)
        #expect(try fixture.rows("grants") == 1, "the grant stays a day, so a replayed code still finds it")
    }

    @Test("every statement of the pruning pass searches an index instead of scanning a table")
    func pruningUsesIndexes() throws {
        // setup
        let fixture = try AuthFixture()

        // act
        let plans = try AuthSchema.pruneStatements(now: fixture.clock.unixSeconds).map { statement in
            try fixture.server.database.read { connection in
                try connection.query("EXPLAIN QUERY PLAN " + statement.sql, statement.arguments)
                    .compactMap { $0.string("detail") }
            }
        }

        // validate
        for plan in plans {
            #expect(!plan.isEmpty)
            for step in plan where step.hasPrefix("SCAN") {
                #expect(step.contains("USING") && step.contains("INDEX"), "\(step)")
            }
        }
    }
}

/// Issue 11 item 10: PAR floods are bounded per client and in total, and its parameters are small.
struct PARLimitTests {
    @Test("PAR past the per-client limit gets 429 with Retry-After; another address and the next minute are fine")
    func perClientLimit() async throws {
        // setup
        let fixture = try AuthFixture { $0.parRequestsPerMinute = 3 }
        let client = TestClient()
        var statuses: [Int] = []
        for _ in 0..<3 { statuses.append(try await fixture.par(client, remoteAddress: "203.0.113.9").status.code) }

        // act
        let limited = try await fixture.par(client, remoteAddress: "203.0.113.9")
        let otherAddress = try await fixture.par(client, remoteAddress: "203.0.113.10")
        fixture.clock.advance(seconds: 60)
        let nextMinute = try await fixture.par(client, remoteAddress: "203.0.113.9")

        // validate
        #expect(statuses == [201, 201, 201])
        #expect(limited.status.code == 429)
        #expect(limited.oauthError == "temporarily_unavailable")
        #expect(limited.headers["Retry-After"] == "60")
        #expect(limited.headers["Access-Control-Allow-Origin"] == "*")
        #expect(otherAddress.status.code == 201)
        #expect(nextMinute.status.code == 201)
    }

    @Test("our own front's PARs, which carry its key, are not counted against loopback; a wrong or missing key is (N2)")
    func ownFrontIsNotCounted() async throws {
        // setup
        let key = String(repeating: "k", count: 43)
        let fixture = try AuthFixture {
            $0.parRequestsPerMinute = 3
            $0.ownFrontKey = key
        }
        let client = TestClient()

        // act
        var front: [Int] = []
        for _ in 0..<10 { front.append(try await fixture.par(client, frontKey: key).status.code) }
        var forged: [Int] = []
        for _ in 0..<4 { forged.append(try await fixture.par(client, frontKey: String(repeating: "x", count: 43)).status.code) }
        let bare = try await fixture.par(client)

        // validate
        #expect(front.allSatisfy { $0 == 201 }, "the front's sign-ins are limited by the front, per browser: \(front)")
        #expect(forged == [201, 201, 201, 429], "a wrong key counts like none")
        #expect(bare.status.code == 429)
    }

    @Test("PAR past the cap on stored requests gets 503 until pruning makes room")
    func totalCap() async throws {
        // setup
        let fixture = try AuthFixture { $0.maxPendingRequests = 2 }
        let client = TestClient()
        _ = try await fixture.pushedRequestURI(client)
        _ = try await fixture.pushedRequestURI(client)

        // act
        let full = try await fixture.par(client)
        fixture.clock.advance(seconds: 601)
        try fixture.server.pruneExpired()
        let afterPruning = try await fixture.par(client)

        // validate
        #expect(full.status.code == 503)
        #expect(full.oauthError == "temporarily_unavailable")
        #expect(try fixture.rows("par_requests") == 1)
        #expect(afterPruning.status.code == 201)
    }

    @Test(
        "each stored PAR parameter has a small bound",
        arguments: [("state", 256), ("login_hint", 256), ("scope", 1024), ("redirect_uri", 512), ("client_id", 1024)])
    func parameterCaps(name: String, limit: Int) async throws {
        // setup
        let fixture = try AuthFixture()
        let client = TestClient()
        var fields = client.parFields
        fields[name] = String(repeating: "a", count: limit + 1)

        // act
        let response = try await fixture.par(client, fields)

        // validate
        #expect(response.status.code == 400)
        #expect(response.oauthError == "invalid_request")
        #expect(response.json["error_description"] as? String == "\(name) is longer than \(limit) bytes")
    }

    @Test("a state at its bound is accepted")
    func stateAtBound() async throws {
        // setup
        let fixture = try AuthFixture()
        var client = TestClient()
        client.state = String(repeating: "s", count: 256)

        // act
        let response = try await fixture.par(client)

        // validate
        #expect(response.status.code == 201)
    }
}
