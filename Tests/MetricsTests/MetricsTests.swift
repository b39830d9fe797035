import Metrics
import Testing

struct MetricsTests {
    /// Counters, histograms and gauges come out in the Prometheus text format, with HELP and TYPE once per name.
    @Test("counters, histograms and gauges render as Prometheus text")
    func exposition() {
        // setup
        let metrics = Metrics()
        metrics.increment("grain_http_requests_total", [Label("group", "/"), Label("status", "2xx")], help: "Requests.")
        metrics.increment("grain_http_requests_total", [Label("group", "/"), Label("status", "2xx")], help: "Requests.")
        metrics.increment("grain_http_requests_total", [Label("group", "/xrpc"), Label("status", "4xx")], help: "Requests.")
        metrics.observe("grain_http_request_duration_seconds", [Label("group", "/")], seconds: 0.003, help: "Latency.")
        metrics.observe("grain_http_request_duration_seconds", [Label("group", "/")], seconds: 0.2, help: "Latency.")

        // act
        let text = metrics.exposition(gauges: [Gauge("grain_sessions", value: 3, help: "Sessions.")])

        // validate
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0 == "# TYPE grain_http_requests_total counter" }.count == 1)
        #expect(lines.contains(#"grain_http_requests_total{group="/",status="2xx"} 2"#))
        #expect(lines.contains(#"grain_http_requests_total{group="/xrpc",status="4xx"} 1"#))
        #expect(lines.contains("# TYPE grain_http_request_duration_seconds histogram"))
        #expect(lines.contains(#"grain_http_request_duration_seconds_bucket{group="/",le="0.001"} 0"#))
        #expect(lines.contains(#"grain_http_request_duration_seconds_bucket{group="/",le="0.005"} 1"#))
        #expect(lines.contains(#"grain_http_request_duration_seconds_bucket{group="/",le="0.25"} 2"#))
        #expect(lines.contains(#"grain_http_request_duration_seconds_bucket{group="/",le="+Inf"} 2"#))
        #expect(lines.contains(#"grain_http_request_duration_seconds_count{group="/"} 2"#))
        #expect(lines.contains("# TYPE grain_sessions gauge"))
        #expect(lines.contains("grain_sessions 3"))
        #expect(metrics.counter("grain_http_requests_total", [Label("group", "/"), Label("status", "2xx")]) == 2)
    }

    /// A label value with a quote, a backslash or a newline cannot break its line.
    @Test("label values are escaped")
    func escaping() {
        let metrics = Metrics()
        metrics.increment("x_total", [Label("v", "a\"b\\c\nd")], help: "X.")
        #expect(metrics.exposition().contains(#"x_total{v="a\"b\\c\nd"} 1"#))
    }

    @Test("a slot counts and times into the same series as increment and observe by name, registered at zero")
    func slots() {
        let metrics = Metrics()
        let labels = [Label("group", "/"), Label("status", "2xx")]
        metrics.increment("grain_http_requests_total", labels, help: "Requests.")
        let slot = metrics.slot(
            counter: "grain_http_requests_total", labels, counterHelp: "Requests.", histogram: "grain_http_request_duration_seconds",
            [Label("group", "/")], histogramHelp: "Latency.")
        let other = metrics.slot(
            counter: "grain_http_requests_total", [Label("group", "/xrpc"), Label("status", "5xx")], counterHelp: "Requests.",
            histogram: "grain_http_request_duration_seconds", [Label("group", "/xrpc")], histogramHelp: "Latency.")
        #expect(metrics.counter("grain_http_requests_total", [Label("group", "/xrpc"), Label("status", "5xx")]) == 0)
        metrics.record(slot, seconds: 0.003)
        metrics.record(slot, seconds: 0.2)
        metrics.observe("grain_http_request_duration_seconds", [Label("group", "/")], seconds: 2, help: "Latency.")
        #expect(
            metrics.slot(
                counter: "grain_http_requests_total", labels, counterHelp: "Requests.", histogram: "grain_http_request_duration_seconds",
                [Label("group", "/")], histogramHelp: "Latency.") == slot, "the same series, the same slot")
        #expect(slot != other)

        let lines = metrics.exposition().split(separator: "\n").map(String.init)
        #expect(metrics.counter("grain_http_requests_total", labels) == 3)
        #expect(lines.contains(#"grain_http_requests_total{group="/",status="2xx"} 3"#))
        #expect(lines.contains(#"grain_http_requests_total{group="/xrpc",status="5xx"} 0"#))
        #expect(lines.contains(#"grain_http_request_duration_seconds_bucket{group="/",le="0.005"} 1"#))
        #expect(lines.contains(#"grain_http_request_duration_seconds_bucket{group="/",le="0.25"} 2"#))
        #expect(lines.contains(#"grain_http_request_duration_seconds_count{group="/"} 3"#))
        #expect(lines.contains(#"grain_http_request_duration_seconds_count{group="/xrpc"} 0"#))
        #expect(lines.filter { $0 == "# TYPE grain_http_requests_total counter" }.count == 1)
    }
}
