import Dispatch
import Foundation

/// The resampler's first stage: source rows read and filtered horizontally into a ring of float rows, either on
/// the calling thread as the second stage asks for them, or ahead of it on a second thread.
///
/// With a thread, the work is split in two for both cores: for a source whose rows cost nothing to read (a decoded
/// buffer) the thread filters rows horizontally ahead of the vertical pass; for one that decodes as it goes (PNG
/// rows come straight from libpng and zlib) the thread only decodes, into a ring of raw rows, and the calling
/// thread filters both ways. The producer never overwrites a row the consumer has not released, and the consumer
/// never reads one the producer has not finished (both under one condition lock, which also orders the memory).
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
    /// Who is blocked on `condition`, so the other side signals only then (a signal per row cost a fifth of
    /// a PNG's time in context switches).
    private var consumerWaiting = false
    private var producerWaiting = false
    private let finished = DispatchGroup()
    private let threaded: Bool
    /// Decode-ahead mode: the thread fills `raw` with source rows; `filtered` counts the rows filtered from it.
    private let raw: UnsafeMutablePointer<UInt8>?
    private let rawCapacity = 64
    private var filtered = 0

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
        let decodeAhead = threaded && source.decodesAsItGoes
        capacity = threaded && !decodeAhead ? window + 32 : window
        ring = .allocate(capacity: capacity * rowLength)
        raw = decodeAhead ? .allocate(capacity: rawCapacity * source.width * 3) : nil
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
        raw?.deallocate()
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
        if let raw {
            try filterAhead(raw, upTo: count)
            return
        }
        condition.lock()
        released = max(released, first)
        if producerWaiting { condition.broadcast() }
        while produced < count && failure == nil {
            consumerWaiting = true
            condition.wait()
            consumerWaiting = false
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

    /// Decode-ahead mode, consumer side: filters raw rows as the thread delivers them, releasing each at once.
    private func filterAhead(_ raw: UnsafeMutablePointer<UInt8>, upTo count: Int) throws(ImagingError) {
        let rawLength = source.width * 3
        while filtered < count {
            condition.lock()
            released = filtered
            if producerWaiting { condition.broadcast() }
            while produced <= filtered && failure == nil {
                consumerWaiting = true
                condition.wait()
                consumerWaiting = false
            }
            let available = produced
            let failed = produced <= filtered ? failure : nil
            condition.unlock()
            if let failed { throw failed }
            while filtered < min(available, count) {
                Resampler.widen(raw + (filtered % rawCapacity) * rawLength, into: sourceRow, count: rawLength)
                Resampler.filterRow(sourceRow, into: ring + (filtered % capacity) * rowLength, axis: axis)
                filtered += 1
            }
        }
    }

    private func produceAll() {
        let limit = raw == nil ? capacity : rawCapacity
        var index = 0
        while index < rowsNeeded {
            condition.lock()
            while index - released >= limit && !cancelled {
                producerWaiting = true
                condition.wait()
                producerWaiting = false
            }
            let stop = cancelled
            condition.unlock()
            if stop { return }
            do throws(ImagingError) {
                if let raw {
                    let rawLength = source.width * 3
                    (raw + (index % rawCapacity) * rawLength).update(from: try source.nextRow(), count: rawLength)
                } else {
                    try filter(into: ring + (index % capacity) * rowLength)
                }
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
            if consumerWaiting { condition.broadcast() }
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
