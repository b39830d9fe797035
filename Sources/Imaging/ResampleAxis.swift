import Foundation

/// The Lanczos-3 taps mapping one axis of the source onto one axis of the destination.
///
/// Each destination sample `i` reads `counts[i]` consecutive source samples from `starts[i]`, weighted by
/// `weights[i * stride ..< i * stride + counts[i]]` (normalised to sum to 1, so flat areas stay flat).
/// The tables are raw allocations so the resampler's loops index them without array overhead in debug builds.
final class ResampleAxis {
    let sourceCount: Int
    let destinationCount: Int
    /// Distance between consecutive destinations' weights in `weights`: the largest tap count.
    let stride: Int
    let starts: UnsafeMutablePointer<Int>
    let counts: UnsafeMutablePointer<Int>
    let weights: UnsafeMutablePointer<Float>

    /// Lanczos-3's lobes reach three source samples each way at unit scale.
    static let radius = 3.0

    /// - Parameter sourceSpan: the source's extent in its own pixels; differs from `sourceCount` after a box
    ///   reduction whose last block was partial, so the destination keeps mapping onto the original geometry.
    init(sourceCount: Int, destinationCount: Int, sourceSpan: Double? = nil) {
        precondition(sourceCount > 0 && destinationCount > 0)
        self.sourceCount = sourceCount
        self.destinationCount = destinationCount
        let span = sourceSpan ?? Double(sourceCount)
        let scale = span / Double(destinationCount)
        // When shrinking, the kernel is stretched to cover every source sample (anti-aliasing).
        let filterScale = max(scale, 1)
        let support = Self.radius * filterScale
        // An unscaled axis copies samples; skipping the filter avoids float noise and work.
        let isIdentity = sourceCount == destinationCount && span == Double(sourceCount)
        let stride = isIdentity ? 1 : Int((support * 2).rounded(.up)) + 1
        self.stride = stride
        starts = .allocate(capacity: destinationCount)
        counts = .allocate(capacity: destinationCount)
        weights = .allocate(capacity: destinationCount * stride)
        weights.initialize(repeating: 0, count: destinationCount * stride)
        if isIdentity {
            for i in 0..<destinationCount {
                starts[i] = i
                counts[i] = 1
                weights[i] = 1
            }
            return
        }
        var taps = [Double](repeating: 0, count: stride)
        for i in 0..<destinationCount {
            let center = (Double(i) + 0.5) * scale
            let first = max(0, Int((center - support + 0.5).rounded(.down)))
            let end = min(sourceCount, Int((center + support + 0.5).rounded(.down)), first + stride)
            var sum = 0.0
            for j in first..<end {
                let w = Self.lanczos3((Double(j) + 0.5 - center) / filterScale)
                taps[j - first] = w
                sum += w
            }
            starts[i] = first
            counts[i] = end - first
            for j in 0..<(end - first) {
                weights[i * stride + j] = Float(sum == 0 ? 0 : taps[j] / sum)
            }
        }
    }

    deinit {
        starts.deallocate()
        counts.deallocate()
        weights.deallocate()
    }

    static func lanczos3(_ x: Double) -> Double {
        let x = abs(x)
        if x < 1e-9 { return 1 }
        if x >= radius { return 0 }
        let px = Double.pi * x
        return radius * sin(px) * sin(px / radius) / (px * px)
    }
}
