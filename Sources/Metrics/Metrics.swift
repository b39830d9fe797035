import Synchronization

/// Counters and latency histograms that live for the process, read out in the Prometheus text format at
/// `/metrics`. Labels are a few fixed words (route groups, status classes, outcomes): never a path, a handle or
/// anything a client chooses, so the series stay few and nothing private reaches a scraper.
public final class Metrics: Sendable {
    /// Upper bounds of the latency buckets, in seconds: from a cached page to a photo's processing.
    public static let latencyBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    struct Series: Hashable, Sendable {
        var name: String
        var labels: [Label]
    }

    struct Histogram: Sendable {
        var counts = [Int](repeating: 0, count: Metrics.latencyBuckets.count)
        var sum = 0.0
        var count = 0

        mutating func record(_ seconds: Double) {
            for (index, bound) in Metrics.latencyBuckets.enumerated() where seconds <= bound { counts[index] += 1 }
            sum += seconds
            count += 1
        }
    }

    /// The series of one kind, each at a position that never changes, so a caller that counts often (each request)
    /// finds its series once, as a ``Slot``, and then pays an array index instead of hashing a name and labels.
    struct Table<Value: Sendable>: Sendable {
        private(set) var positions: [Series: Int] = [:]
        var values: [Value] = []
        /// Each name's help text, from its first series.
        private(set) var help: [String: String] = [:]
        /// What a new series starts at.
        let initial: Value

        /// The position of `series`, added at ``initial`` if new.
        mutating func position(of series: Series, help text: String) -> Int {
            if let index = positions[series] { return index }
            positions[series] = values.count
            values.append(initial)
            if help[series.name] == nil { help[series.name] = text }
            return values.count - 1
        }

        /// Every series with its value.
        var all: [Series: Value] { positions.mapValues { values[$0] } }
    }

    struct State: Sendable {
        var counters = Table<Double>(initial: 0)
        var histograms = Table(initial: Histogram())
    }

    /// A counter and a histogram found once (``slot(counter:_:counterHelp:histogram:_:histogramHelp:)``) and then
    /// updated together by position, under one lock.
    public struct Slot: Sendable, Hashable {
        let counter: Int
        let histogram: Int
    }

    private let state = Mutex(State())

    public init() {}

    /// Adds `amount` to the counter `name` with `labels`.
    public func increment(_ name: String, _ labels: [Label] = [], by amount: Double = 1, help: String) {
        state.withLock {
            let index = $0.counters.position(of: Series(name: name, labels: labels), help: help)
            $0.counters.values[index] += amount
        }
    }

    /// Records one observation of `seconds` in the histogram `name` with `labels`.
    public func observe(_ name: String, _ labels: [Label] = [], seconds: Double, help: String) {
        // Changed in place: a copy out of the array and back would copy the bucket counts every time.
        state.withLock {
            let index = $0.histograms.position(of: Series(name: name, labels: labels), help: help)
            $0.histograms.values[index].record(seconds)
        }
    }

    /// The counter `counter` with `counterLabels` and the histogram `histogram` with `histogramLabels`, registered
    /// (at zero) if new, as one slot for ``record(_:seconds:)``.
    public func slot(
        counter: String, _ counterLabels: [Label], counterHelp: String, histogram: String, _ histogramLabels: [Label],
        histogramHelp: String
    ) -> Slot {
        state.withLock {
            Slot(
                counter: $0.counters.position(of: Series(name: counter, labels: counterLabels), help: counterHelp),
                histogram: $0.histograms.position(of: Series(name: histogram, labels: histogramLabels), help: histogramHelp))
        }
    }

    /// Adds one to the slot's counter and records `seconds` in its histogram.
    public func record(_ slot: Slot, seconds: Double) {
        state.withLock {
            $0.counters.values[slot.counter] += 1
            $0.histograms.values[slot.histogram].record(seconds)
        }
    }

    /// The value of one counter (tests).
    public func counter(_ name: String, _ labels: [Label] = []) -> Double {
        state.withLock { $0.counters.all[Series(name: name, labels: labels)] } ?? 0
    }

    /// Every counter and histogram, then `gauges` (values read at this moment), in the Prometheus text format 0.0.4.
    public func exposition(gauges: [Gauge] = []) -> String {
        let snapshot = state.withLock { $0 }
        var text = PrometheusText()
        let counters = snapshot.counters.all
        for name in Set(counters.keys.map(\.name)).sorted() {
            text.header(name, type: "counter", help: snapshot.counters.help[name] ?? "")
            for (series, value) in counters.filter({ $0.key.name == name }).sorted(by: {
                $0.key.labels.description < $1.key.labels.description
            }) {
                text.sample(name, series.labels, value)
            }
        }
        let histograms = snapshot.histograms.all
        for name in Set(histograms.keys.map(\.name)).sorted() {
            text.header(name, type: "histogram", help: snapshot.histograms.help[name] ?? "")
            for (series, histogram) in histograms.filter({ $0.key.name == name }).sorted(by: {
                $0.key.labels.description < $1.key.labels.description
            }) {
                for (index, bound) in Self.latencyBuckets.enumerated() {
                    text.sample(name + "_bucket", series.labels + [Label("le", PrometheusText.number(bound))], Double(histogram.counts[index]))
                }
                text.sample(name + "_bucket", series.labels + [Label("le", "+Inf")], Double(histogram.count))
                text.sample(name + "_sum", series.labels, histogram.sum)
                text.sample(name + "_count", series.labels, Double(histogram.count))
            }
        }
        for name in Set(gauges.map(\.name)).sorted() {
            let samples = gauges.filter { $0.name == name }
            text.header(name, type: "gauge", help: samples.first?.help ?? "")
            for gauge in samples { text.sample(name, gauge.labels, gauge.value) }
        }
        return text.output
    }
}

/// One `name="value"` label of a series.
public struct Label: Hashable, Sendable, CustomStringConvertible {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    public var description: String { "\(name)=\(value)" }
}

/// A value read when `/metrics` is asked (sizes, queue depth, sessions).
public struct Gauge: Sendable, Equatable {
    public var name: String
    public var labels: [Label]
    public var value: Double
    public var help: String

    public init(_ name: String, _ labels: [Label] = [], value: Double, help: String) {
        self.name = name
        self.labels = labels
        self.value = value
        self.help = help
    }
}

/// Writes the Prometheus text exposition format: `# HELP`, `# TYPE`, then `name{label="value"} number` lines,
/// label values escaped as the format requires (backslash, double quote, newline).
struct PrometheusText {
    private(set) var output = ""

    mutating func header(_ name: String, type: String, help: String) {
        output += "# HELP \(name) \(help.replacingNewlines())\n# TYPE \(name) \(type)\n"
    }

    mutating func sample(_ name: String, _ labels: [Label], _ value: Double) {
        let rendered = labels.isEmpty ? "" : "{" + labels.map { "\($0.name)=\"\(Self.escape($0.value))\"" }.joined(separator: ",") + "}"
        output += "\(name)\(rendered) \(Self.number(value))\n"
    }

    static func escape(_ value: String) -> String {
        var out = ""
        for character in value {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    /// Integers without a decimal point, others as Swift prints them.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }
}

extension String {
    fileprivate func replacingNewlines() -> String { split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " ") }
}
