import Dispatch
import Foundation

/// The resampler's first stage: source rows read and filtered horizontally into a ring of float rows, either on
/// the calling thread as the second stage asks for them, or ahead of it on a second thread.
///
/// With a thread, decoding (PNG rows come straight from libpng) and horizontal filtering overlap the vertical
/// filtering, so the two halves of a resample use both cores. The ring holds the vertical kernel's rows plus a
/// margin; the producer never overwrites a row the consumer has not released, and the consumer never reads one the
/// producer has not finished (both under one condition lock, which also orders the memory).
final class HorizontalStage: @unchecked Sendable {
    let rowLength: Int
    let capacity: Int
    let ring: UnsafeMutablePointer<Float>
    private let source: any RowSource
    private let axis: ResampleAxis
    private let sourceRow: UnsafeMutablePointer<Float>
    private let rowsNeeded: Int
    private let condition = NSCondition()
    private var produced = 0
    private var released = 0
    private var failure: ImagingError?
    private var cancelled = false
    private let finished = DispatchGroup()
    private let threaded: Bool

    /// Sources at least this large (width × height) get a thread of their own.
    static let threadedPixels = 1_000_000

    /// - Parameters:
    ///   - window: the most rows the consumer holds at once (the vertical kernel's taps).
    ///   - rowsNeeded: how many source rows the consumer will ask for in all.
    init(source: any RowSource, axis: ResampleAxis, window: Int, rowsNeeded: Int) {
        self.source = source
        self.axis = axis
        self.rowsNeeded = rowsNeeded
        rowLength = axis.destinationCount * 3
        threaded = source.width * source.height >= Self.threadedPixels && rowsNeeded > window
        capacity = threaded ? window + 32 : window
        ring = .allocate(capacity: capacity * rowLength)
        sourceRow = .allocate(capacity: source.width * 3)
        if threaded {
            finished.enter()
            DispatchQueue.global().async { [self] in
                produceAll()
                finished.leave()
            }
        }
    }

    deinit {
        ring.deallocate()
        sourceRow.deallocate()
    }

    /// The filtered row `index` (valid until it is released).
    func row(_ index: Int) -> UnsafeMutablePointer<Float> {
        ring + (index % capacity) * rowLength
    }

    /// Waits until rows up to `count` are filtered (filtering them here without a thread), having released every
    /// row before `keepingFrom`.
    func need(_ count: Int, keepingFrom first: Int) throws(ImagingError) {
        guard threaded else {
            while produced < count {
                try filterNext()
            }
            return
        }
        condition.lock()
        released = max(released, first)
        condition.broadcast()
        while produced < count && failure == nil {
            condition.wait()
        }
        let failed = produced < count ? failure : nil
        condition.unlock()
        if let failed { throw failed }
    }

    /// Stops the producer and waits for it, so nothing touches the ring after the resampler returns.
    func finish() {
        guard threaded else { return }
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
        finished.wait()
    }

    private func produceAll() {
        var index = 0
        while index < rowsNeeded {
            condition.lock()
            while index - released >= capacity && !cancelled {
                condition.wait()
            }
            let stop = cancelled
            condition.unlock()
            if stop { return }
            do throws(ImagingError) {
                try filter(into: ring + (index % capacity) * rowLength)
            } catch {
                condition.lock()
                failure = error
                condition.broadcast()
                condition.unlock()
                return
            }
            index += 1
            condition.lock()
            produced = index
            condition.broadcast()
            condition.unlock()
        }
    }

    private func filterNext() throws(ImagingError) {
        try filter(into: ring + (produced % capacity) * rowLength)
        produced += 1
    }

    private func filter(into destination: UnsafeMutablePointer<Float>) throws(ImagingError) {
        Resampler.widen(try source.nextRow(), into: sourceRow, count: source.width * 3)
        Resampler.filterRow(sourceRow, into: destination, axis: axis)
    }
}
