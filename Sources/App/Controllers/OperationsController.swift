import FrontState
import HTTPServer
import Metrics
import WebAddresses
import Workers

/// What monitors ask: `/healthz` (the databases open and answer, the blob directory is writable), `/readyz` (that,
/// and the server is not stopping) and `/metrics` (Prometheus text, only for the addresses `--metrics-from` names).
struct OperationsController: Sendable {
    /// Nil in a front built without a server around it (tests): health is then the process answering.
    let probes: (any ServerProbes)?
    /// Who may read `/metrics`; empty turns it off.
    let metricsFrom: TrustedProxies
    let sessions: any SessionStoring
    let imageWork: WorkerPool

    /// `GET /healthz`: 200 `ok`, or 503 with what is wrong.
    func healthz(_ context: RequestContext) async throws -> Response {
        let problems = probes?.problems() ?? []
        guard problems.isEmpty else { return .text("unhealthy\n" + problems.joined(separator: "\n") + "\n", status: .serviceUnavailable) }
        return .text("ok")
    }

    /// `GET /readyz`: healthy and taking requests.
    func readyz(_ context: RequestContext) async throws -> Response {
        guard probes?.isAccepting ?? true else { return .text("stopping\n", status: .serviceUnavailable) }
        return try await healthz(context)
    }

    /// `GET /metrics`: 404 unless the client's address (as trusted proxies report it) is allowed, so a server
    /// behind a proxy does not hand its metrics to the internet the proxy serves.
    func metrics(_ context: RequestContext) async throws -> Response {
        guard let probes, let address = context.request.clientAddress.flatMap(IPAddress.init), metricsFrom.contains(address) else {
            throw HTTPError(.notFound)
        }
        let load = imageWork.load
        let gauges = [
            Gauge("grain_image_queue_depth", value: Double(load.waiting), help: "Photos waiting for an image worker."),
            Gauge("grain_image_workers_busy", value: Double(load.running), help: "Photos being processed now."),
            Gauge("grain_sessions", value: Double((try? sessions.count()) ?? 0), help: "Signed-in browser sessions on this front."),
        ]
        var response = Response.text(probes.metrics(adding: gauges))
        response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}

extension OperationsController {
    /// The routes this controller answers, one line per method and page.
    var routes: [Route] {
        [
            Route(method: .get, page: .healthz, access: .anyone, anyHost: true, handler: healthz),
            Route(method: .get, page: .readyz, access: .anyone, anyHost: true, handler: readyz),
            Route(method: .get, page: .metrics, access: .anyone, anyHost: true, handler: metrics),
        ]
    }
}
