public import Metrics

/// What the composition root tells the front about the server as a whole, for `/healthz`, `/readyz` and
/// `/metrics`: the front owns those routes, the server owns the databases, the blob directory and the counters.
public protocol ServerProbes: Sendable {
    /// What is wrong with the databases and the blob directory, one short sentence each (no paths, no secrets);
    /// empty when everything answers.
    func problems() -> [String]
    /// Whether the server takes new work: false once a stop has begun, so a load balancer sends requests elsewhere.
    var isAccepting: Bool { get }
    /// The counters and histograms with the server's gauges and the front's `gauges` added, in Prometheus text.
    func metrics(adding gauges: [Gauge]) -> String
}
