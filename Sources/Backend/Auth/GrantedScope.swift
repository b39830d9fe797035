import Foundation

/// An access token's granted scope, read the way the atproto permission spec defines its scopes
/// (https://atproto.com/specs/permission), for the scopes the backend checks:
///
/// - `atproto`: required for everything;
/// - `transition:generic`: every repo write and every blob;
/// - `repo:<collection>` (all actions), `repo:<collection>?action=create&action=update`,
///   `repo?collection=a&collection=b`, `repo:*`;
/// - `blob:<mime glob>` (`blob:image/*`, `blob:*/*`), `blob?accept=image/jpeg&accept=image/png`.
///
/// Other scopes (`rpc:`, `account:`, `identity:`, permission sets) grant nothing here.
public struct GrantedScope: Sendable, Equatable {
    /// A repo write action.
    public enum Action: String, Sendable, CaseIterable {
        case create, update, delete
    }

    struct RepoGrant: Equatable {
        var collections: [String]
        var actions: Set<Action>
    }

    let tokens: Set<String>
    let repo: [RepoGrant]
    let blobAccept: [String]

    public init(_ scope: String) {
        var tokens = Set<String>()
        var repo: [RepoGrant] = []
        var blobAccept: [String] = []
        for token in scope.split(separator: " ").map(String.init) {
            tokens.insert(token)
            let (resource, positional, parameters) = Self.parse(token)
            switch resource {
            case "repo":
                let collections = (positional.map { [$0] } ?? []) + (parameters["collection"] ?? [])
                let actions = (parameters["action"] ?? []).compactMap(Action.init(rawValue:))
                repo.append(
                    RepoGrant(collections: collections, actions: actions.isEmpty ? Set(Action.allCases) : Set(actions)))
            case "blob":
                blobAccept += (positional.map { [$0] } ?? []) + (parameters["accept"] ?? [])
            default:
                break
            }
        }
        self.tokens = tokens
        self.repo = repo
        self.blobAccept = blobAccept
    }

    /// `resource[:positional][?name=value&…]`, with percent-decoding of the parts.
    static func parse(_ token: String) -> (resource: String, positional: String?, parameters: [String: [String]]) {
        let (head, query) =
            token.firstIndex(of: "?").map { (String(token[..<$0]), String(token[token.index(after: $0)...])) } ?? (token, "")
        var parameters: [String: [String]] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            guard parts.count == 2 else { continue }
            parameters[parts[0], default: []].append(parts[1])
        }
        guard let colon = head.firstIndex(of: ":") else { return (head, nil, parameters) }
        let positional = String(head[head.index(after: colon)...])
        return (String(head[..<colon]), positional.removingPercentEncoding ?? positional, parameters)
    }

    /// Every token must carry `atproto`; without it the token grants nothing.
    public var hasAtproto: Bool { tokens.contains("atproto") }
    var isGeneric: Bool { tokens.contains("transition:generic") }

    /// May the token `action` records of `collection`?
    public func allowsRepo(_ collection: String, _ action: Action) -> Bool {
        guard hasAtproto else { return false }
        if isGeneric { return true }
        return repo.contains { grant in
            grant.actions.contains(action) && grant.collections.contains { $0 == "*" || $0 == collection }
        }
    }

    /// May the token upload a blob of `mimeType`?
    public func allowsBlob(_ mimeType: String) -> Bool {
        guard hasAtproto else { return false }
        if isGeneric { return true }
        let mime = mimeType.lowercased()
        return blobAccept.contains { pattern in
            let pattern = pattern.lowercased()
            if pattern == "*/*" { return true }
            if pattern.hasSuffix("/*") { return mime.hasPrefix(String(pattern.dropLast())) }
            return pattern == mime
        }
    }
}
