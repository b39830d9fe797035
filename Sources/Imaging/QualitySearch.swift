import Foundation

/// Finds the highest JPEG quality whose encoding fits a byte limit with few encodes, as a value that is told each
/// encoded size and proposes what to encode next (so it is tested without encoding anything).
///
/// The answer is the one a binary search over `minimum...maximum` would find (size grows with quality), but the
/// candidates come from a model of how libjpeg's quality scales its quantisation tables: the file size is close
/// to a power of the scale factor `S(q)` (`jpeg_quality_scaling`: 5000/q below 50, 200 - 2q above), so log size
/// is nearly linear in log S. The caller first encodes a sample of the image (an eighth of its rows, in whole
/// MCU stripes) at two qualities, which puts the curve close enough that the first real round, the two qualities
/// either side of the predicted crossing encoded at once on two cores, usually settles it: about the wall time of
/// one full encode and a fraction, where bisection needs seven full encodes one after another.
struct QualitySearch {
    let minimum: Int
    let maximum: Int
    let maxBytes: Int
    /// Every quality tried, with its size.
    private(set) var sizes: [Int: Int] = [:]
    /// Sizes predicted from encoding a sample of the image: they steer the first real round but settle nothing.
    private(set) var estimates: [Int: Int] = [:]

    /// Size ∝ S^slope when only one point is known, measured on photos (about -0.8 to -1.0 between S = 16 and 60).
    static let defaultSlope = -0.9
    /// A second quality for the first round: most detailed photos at 2000 px and 900 KB land between 70 and 90.
    static let firstGuess = 80

    init(minimum: Int, maximum: Int, maxBytes: Int) {
        self.minimum = minimum
        self.maximum = maximum
        self.maxBytes = maxBytes
    }

    /// The highest quality known to fit.
    var bestFitting: Int? { sizes.filter { $0.value <= maxBytes }.keys.max() }
    /// The lowest quality known not to fit.
    var lowestTooBig: Int? { sizes.filter { $0.value > maxBytes }.keys.min() }

    /// Whether the answer is known: `bestFitting` (nil when even `minimum` is too big).
    var isSettled: Bool {
        let low = bestFitting ?? (minimum - 1)
        let high = lowestTooBig ?? (maximum + 1)
        return high - low <= 1
    }

    mutating func record(quality: Int, size: Int) {
        sizes[quality] = size
    }

    /// Records what the whole image would probably weigh at `quality`, from a sample of it.
    mutating func record(quality: Int, estimatedSize: Int) {
        estimates[quality] = estimatedSize
    }

    /// The qualities a sample should be encoded at to estimate the curve: the maximum and `firstGuess`.
    var sampleQualities: [Int] {
        maximum > Self.firstGuess && Self.firstGuess >= minimum ? [maximum, Self.firstGuess] : [maximum]
    }

    /// The qualities to encode next: with nothing known, the maximum and `firstGuess`; with estimates only, the
    /// pair around their predicted crossing (the maximum alone when it is predicted to fit); then one or two
    /// inside the open interval between what fits and what does not; empty once settled.
    func candidates() -> [Int] {
        if sizes.isEmpty {
            guard !estimates.isEmpty else { return sampleQualities }
            let predicted = Int(predictedQuality().rounded(.down))
            if predicted >= maximum { return [maximum] }
            // The estimates land within a fraction of a percent on photos, so the pair either side of the
            // predicted crossing usually settles the search at once.
            let first = max(predicted, minimum)
            return first + 1 <= maximum ? [first, first + 1] : [first]
        }
        guard !isSettled else { return [] }
        let low = bestFitting ?? (minimum - 1)
        let high = lowestTooBig ?? (maximum + 1)
        let predicted = Int(predictedQuality().rounded(.down))
        // Keep the pair strictly inside (low, high): both can be tried, and either outcome narrows the interval.
        let first = min(max(predicted, low + 1), high - 1)
        let second = first + 1 < high ? first + 1 : first - 1
        return second > low && second != first ? [first, second].sorted() : [first]
    }

    /// The quality at which the model puts the size at `maxBytes`: interpolated between the nearest points either
    /// side of the limit, extrapolated from the two nearest on one side, or from one point with the estimates'
    /// slope (`defaultSlope` without estimates). Real sizes are used when there are any, estimates otherwise.
    func predictedQuality() -> Double {
        let known = sizes.isEmpty ? estimates : sizes
        let points = known.map { (x: Self.logScale($0.key), y: log(Double($0.value))) }
        let target = log(Double(maxBytes))
        let below = points.filter { $0.y <= target }.max { $0.y < $1.y }
        let above = points.filter { $0.y > target }.min { $0.y < $1.y }
        var pair: ((x: Double, y: Double), (x: Double, y: Double))?
        if let below, let above {
            pair = (below, above)
        } else {
            let side = points.sorted { abs($0.y - target) < abs($1.y - target) }
            if side.count >= 2, side[0].x != side[1].x { pair = (side[0], side[1]) }
        }
        var x: Double
        if let (a, b) = pair, a.x != b.x, a.y != b.y {
            x = a.x + (target - a.y) * (b.x - a.x) / (b.y - a.y)
        } else if let point = points.min(by: { abs($0.y - target) < abs($1.y - target) }) {
            x = point.x + (target - point.y) / estimatedSlope
        } else {
            x = Self.logScale(maximum)
        }
        if !x.isFinite { x = Self.logScale(maximum) }
        return Self.quality(logScale: x)
    }

    /// d(log size) / d(log S) from two estimates, or `defaultSlope`.
    private var estimatedSlope: Double {
        let points = estimates.sorted { $0.key < $1.key }.map { (x: Self.logScale($0.key), y: log(Double($0.value))) }
        guard points.count >= 2, let first = points.first, let last = points.last, first.x != last.x else {
            return Self.defaultSlope
        }
        let slope = (last.y - first.y) / (last.x - first.x)
        return slope.isFinite && slope < -0.05 ? slope : Self.defaultSlope
    }

    /// log of libjpeg's quantisation scale factor, in percent, for `quality`.
    static func logScale(_ quality: Int) -> Double {
        let q = Double(min(max(quality, 1), 100))
        return log(q < 50 ? 5000 / q : 200 - 2 * q)
    }

    /// The inverse of `logScale`, over real qualities 1–100 (scale 0 is quality 100).
    static func quality(logScale: Double) -> Double {
        let scale = exp(logScale)
        let q = scale > 100 ? 5000 / scale : (200 - scale) / 2
        return min(max(q, 1), 100)
    }
}
