import HTTPServer
import Metrics
import Synchronization

/// The HTTP server's observer: every answered request counted by route group, method and status class, its
/// handler's time in a histogram by group, and uploads (the create form and `uploadBlob`) by outcome.
final class RequestMetrics: RequestObserver {
    let metrics: Metrics
    /// Each group, method and status class's series, found on its first request: every request after it costs an
    /// array index, not a hash of the series' name and labels (the metrics were 4% of a cached page's CPU, perf).
    private let slots = Mutex<[SlotKey: Metrics.Slot]>([:])

    private struct SlotKey: Hashable {
        var group: String
        var verb: String
        var statusClass: String
    }

    init(metrics: Metrics) {
        self.metrics = metrics
    }

    func responded(group: String, method: HTTPMethod, path: String, status: Int, seconds: Double) {
        // A client names the method: anything unusual is one series, not one per word.
        let verb = Self.methods.contains(method.rawValue) ? method.rawValue : "other"
        let key = SlotKey(group: group.isEmpty ? "/" : group, verb: verb, statusClass: Self.statusClass(status))
        let slot =
            slots.withLock { $0[key] }
            ?? slots.withLock { slots in
                let slot = metrics.slot(
                    counter: "grain_http_requests_total",
                    [Label("group", key.group), Label("method", key.verb), Label("status", key.statusClass)],
                    counterHelp: "HTTP requests answered, by route group, method and status class.",
                    histogram: "grain_http_request_duration_seconds", [Label("group", key.group)],
                    histogramHelp: "Time to answer a request, by route group.")
                slots[key] = slot
                return slot
            }
        metrics.record(slot, seconds: seconds)
        guard method == .post, let route = Self.uploadRoutes[path] else { return }
        metrics.increment(
            "grain_uploads_total", [Label("route", route), Label("outcome", Self.outcome(status: status))],
            help: "Photos uploaded, by route and outcome (published, refused, busy, failed).")
    }

    static let methods: Set = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH"]

    private static let statusClasses = ["0xx", "1xx", "2xx", "3xx", "4xx", "5xx"]

    /// `2xx` for 204: made once, not formatted for every request.
    static func statusClass(_ status: Int) -> String {
        let index = status / 100
        return statusClasses.indices.contains(index) ? statusClasses[index] : "\(index)xx"
    }

    /// One call to the hatk server (remote, or the embedded backend through our own listener): counted by XRPC
    /// method and outcome, timed by method.
    @Sendable func upstreamCall(_ nsid: String, _ seconds: Double, _ outcome: String) {
        let method = Label("method", nsid)
        metrics.increment(
            "grain_upstream_calls_total", [method, Label("outcome", outcome)],
            help: "Calls to the hatk server, by XRPC method and outcome (2xx, 4xx, 5xx, timeout, unreachable).")
        metrics.observe("grain_upstream_call_duration_seconds", [method], seconds: seconds, help: "Time of a call to the hatk server.")
    }

    /// The routes that take photos, by the label their uploads are counted under.
    static let uploadRoutes = ["/create": "create", "/xrpc/dev.hatk.uploadBlob": "uploadBlob"]

    /// A create form that redirects to the new story, or an `uploadBlob` that answers 200, published it; a 4xx
    /// other than 429 refused the photo (too large, not a photo, over quota); 429 and 503 are a full queue or rate.
    static func outcome(status: Int) -> String {
        switch status {
        case 200..<400: "published"
        case 429, 503: "busy"
        case 400..<500: "refused"
        default: "failed"
        }
    }
}
