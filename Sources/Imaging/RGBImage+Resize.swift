extension RGBImage {
    /// Resamples to exactly `width × height` with a separable Lanczos-3 filter, widened when shrinking so every
    /// source pixel contributes (no aliasing). Returns `self` when the size is unchanged.
    /// - Parameters:
    ///   - width: the new width, at least 1.
    ///   - height: the new height, at least 1.
    public func resized(width: Int, height: Int) -> RGBImage {
        precondition(width > 0 && height > 0, "cannot resize to \(width)×\(height)")
        checkLayout()
        precondition(self.width > 0 && self.height > 0, "cannot resize an empty image")
        if width == self.width && height == self.height { return self }
        return Resampler.resample(self, width: width, height: height)
    }

    /// Shrinks to fit inside `maxWidth × maxHeight`, keeping the aspect ratio; never enlarges, and returns `self`
    /// when the image already fits.
    public func resizedToFit(maxWidth: Int, maxHeight: Int) -> RGBImage {
        let size = Imaging.fittedSize(width: width, height: height, maxWidth: maxWidth, maxHeight: maxHeight)
        return resized(width: size.width, height: size.height)
    }
}

extension Imaging {
    /// The size `width × height` takes when scaled to fit inside `maxWidth × maxHeight` with its aspect ratio kept,
    /// never larger than it is; the bounded side matches the bound exactly and the other is rounded, at least 1.
    public static func fittedSize(width: Int, height: Int, maxWidth: Int, maxHeight: Int) -> (width: Int, height: Int) {
        precondition(maxWidth > 0 && maxHeight > 0, "cannot fit inside \(maxWidth)×\(maxHeight)")
        if width <= maxWidth && height <= maxHeight { return (width, height) }
        // Compare width / maxWidth with height / maxHeight without rounding.
        if width * maxHeight >= height * maxWidth {
            return (maxWidth, max(1, (height * maxWidth * 2 + width) / (width * 2)))
        }
        return (max(1, (width * maxHeight * 2 + height) / (height * 2)), maxHeight)
    }
}
