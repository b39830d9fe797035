/// A balanced 3-d tree stored implicitly: the node for the index range `lo..<hi` sits at `(lo + hi) / 2`, with
/// everything left of it no greater on its split axis and everything right no smaller. No child pointers, one
/// allocation per array, and a query touches a few dozen nodes instead of 150k.
struct KDTree: Sendable {
    /// The points in tree order.
    let points: [Vector3]
    /// The split axis (0, 1, 2) of the node at each position.
    let axes: [UInt8]
    /// For each tree position, the index of the point in the caller's original order.
    let order: [Int]

    init(points input: [Vector3]) {
        var order = Array(input.indices)
        var axes = [UInt8](repeating: 0, count: input.count)
        order.withUnsafeMutableBufferPointer { order in
            input.withUnsafeBufferPointer { input in
                axes.withUnsafeMutableBufferPointer { axes in
                    Self.build(order, 0, order.count, input, axes)
                }
            }
        }
        self.points = order.map { input[$0] }
        self.axes = axes
        self.order = order
    }

    /// The tree position of the point nearest to `query` and its squared chord distance, or `nil` when empty.
    func nearest(to query: Vector3) -> (position: Int, squaredDistance: Double)? {
        guard !points.isEmpty else { return nil }
        var best = (position: -1, squaredDistance: Double.infinity)
        points.withUnsafeBufferPointer { points in
            axes.withUnsafeBufferPointer { axes in
                Self.search(points, axes, 0, points.count, query, &best)
            }
        }
        return best
    }

    private static func search(
        _ points: UnsafeBufferPointer<Vector3>, _ axes: UnsafeBufferPointer<UInt8>, _ lo: Int, _ hi: Int,
        _ query: Vector3, _ best: inout (position: Int, squaredDistance: Double)
    ) {
        guard lo < hi else { return }
        let mid = (lo + hi) >> 1
        let point = points[mid]
        let squared = point.squaredDistance(to: query)
        if squared < best.squaredDistance { best = (mid, squared) }
        let axis = Int(axes[mid])
        let gap = query.component(axis) - point.component(axis)
        // Descend towards the query first so that the bound is tight before the far side is considered.
        if gap < 0 {
            search(points, axes, lo, mid, query, &best)
            if gap * gap < best.squaredDistance { search(points, axes, mid + 1, hi, query, &best) }
        } else {
            search(points, axes, mid + 1, hi, query, &best)
            if gap * gap < best.squaredDistance { search(points, axes, lo, mid, query, &best) }
        }
    }

    private static func build(
        _ order: UnsafeMutableBufferPointer<Int>, _ lo: Int, _ hi: Int, _ points: UnsafeBufferPointer<Vector3>,
        _ axes: UnsafeMutableBufferPointer<UInt8>
    ) {
        guard hi - lo > 1 else { return }
        var low = points[order[lo]]
        var high = low
        for i in (lo + 1)..<hi {
            let point = points[order[i]]
            low = Vector3(x: min(low.x, point.x), y: min(low.y, point.y), z: min(low.z, point.z))
            high = Vector3(x: max(high.x, point.x), y: max(high.y, point.y), z: max(high.z, point.z))
        }
        let (sx, sy, sz) = (high.x - low.x, high.y - low.y, high.z - low.z)
        let axis = sx >= sy ? (sx >= sz ? 0 : 2) : (sy >= sz ? 1 : 2)
        let mid = (lo + hi) >> 1
        select(order, lo, hi, mid, axis, points)
        axes[mid] = UInt8(axis)
        build(order, lo, mid, points, axes)
        build(order, mid + 1, hi, points, axes)
    }

    /// Quickselect with a three-way partition: moves the `k`-th smallest (on `axis`) to `k`, smaller-or-equal
    /// before and greater-or-equal after. Three-way because the table holds many places with identical coordinates.
    private static func select(
        _ order: UnsafeMutableBufferPointer<Int>, _ lo: Int, _ hi: Int, _ k: Int, _ axis: Int,
        _ points: UnsafeBufferPointer<Vector3>
    ) {
        var lo = lo
        var hi = hi
        while hi - lo > 1 {
            let a = points[order[lo]].component(axis)
            let b = points[order[(lo + hi) >> 1]].component(axis)
            let c = points[order[hi - 1]].component(axis)
            let pivot = max(min(a, b), min(max(a, b), c))
            var less = lo
            var i = lo
            var greater = hi
            while i < greater {
                let value = points[order[i]].component(axis)
                if value < pivot {
                    order.swapAt(less, i)
                    less += 1
                    i += 1
                } else if value > pivot {
                    greater -= 1
                    order.swapAt(i, greater)
                } else {
                    i += 1
                }
            }
            if k < less {
                hi = less
            } else if k >= greater {
                lo = greater
            } else {
                return
            }
        }
    }
}
